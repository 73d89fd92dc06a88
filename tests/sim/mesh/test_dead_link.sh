#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# A dead link on the simulated machine. The cable is pulled in the simulation (mesh-sim
# --dead-link: its wires read 0 both ways); a schedule that crosses it stalls, and the credit
# watch (--link-timeout) finds the link, names it and the schedgen option that avoids it;
# with that option's schedules (schedgen --dead-link, tools/sched/fault) every -ft collective
# is delivered byte for byte on the 4x4 mesh and the 4x4 torus with the cable pulled, and
# not one flit goes over it in either direction (mesh-sim --links). The checker
# (tests/tools/sched/test_dead_link.sh) proves the schedules for every message.
set -u
. tests/lib.sh
. tests/sim/mesh/lib.sh
work="$BUILD/tests/mesh-dead-link"
rm -rf "$work"; mkdir -p "$work"
make_or_fail mesh-dead-link-build "$work/make.log" mesh-sim mesh-sim-4x4m schedgen \
    build/fw/firmware/apps/mesh/collectives.elf || exit 0
gen="$BUILD/bin/schedgen"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
sim="$BUILD/bin/mesh-sim"
mesh_want_4x4_torus mesh-dead-link-shape || exit 0

# sim kind root dead-link: the dead cable leaves node X,Y by port P; the two directions'
# names in mesh-sim --links
while read -r sim kind root dead fwd rev; do
    for algo in bcast-ft scatter-ft gather-ft allgather-ft alltoall-ft; do
        name="mesh-dead-link: $algo on the 4x4 $kind, $dead dead"
        tbl="$work/$kind-$algo.tbl"
        if ! "$gen" --shape 4x4 --"$kind" --algo "$algo" --root "$root" --dead-link "$dead" --quiet --tables "$tbl" \
                >"$work/gen.log" 2>&1; then
            fail "$name" "schedgen: $(tail_of "$work/gen.log")"; continue
        fi
        "$BUILD/bin/$sim" --elf "$elf" --job "$tbl:64:7" --links --progress 0 \
            --dead-link "$dead" --link-timeout 20000 >"$work/run.out" 2>&1; rc=$?
        f=$(grep -o "\\$fwd=[0-9]*" "$work/run.out" | cut -d= -f2)
        r=$(grep -o "\\$rev=[0-9]*" "$work/run.out" | cut -d= -f2)
        if [ $rc -eq 0 ] && grep -q '^0 .* OK$' "$work/run.out" && [ "$f" = 0 ] && [ "$r" = 0 ]; then
            pass "$name: cable pulled, delivered byte for byte, 0 flits over $fwd and $rev"
        else fail "$name" "exit $rc, flits $fwd=${f:-?} $rev=${r:-?}: $(tail_of "$work/run.out")"; fi
    done
done <<'RUNS'
mesh-sim-4x4m mesh 1,1 1,1:0 [1,1]+x [2,1]-x
mesh-sim torus 0,0 0,0:2 [0,0]+y [0,1]-y
RUNS
# the same link does carry flits with a schedule that does not avoid it: the count is real,
# and the credit watch stays quiet on a healthy machine (a timeout of 2,000 cycles)
m44="$BUILD/bin/mesh-sim-4x4m"
"$gen" --shape 4x4 --mesh --algo saf-bcast --root 1,1 --quiet --tables "$work/saf.tbl" >/dev/null 2>&1
"$m44" --elf "$elf" --job "$work/saf.tbl:64:7" --links --progress 0 --link-timeout 2000 >"$work/run.out" 2>&1; rc=$?
f=$(grep -o '\[1,1\]+x=[0-9]*' "$work/run.out" | cut -d= -f2)
if [ $rc -eq 0 ] && [ "${f:-0}" -gt 0 ] && grep -q '^0 .* OK$' "$work/run.out"; then
    pass "mesh-dead-link: saf-bcast (not avoiding it) sends $f flits over [1,1]+x, no stall seen: the count sees the link"
else fail "mesh-dead-link: control run" "exit $rc, [1,1]+x carried ${f:-?} flits under saf-bcast: $(tail_of "$work/run.out")"; fi

# with the cable pulled (given by either end, from reset or from a later cycle) saf-bcast
# stalls on it: the watch ends the run (exit 128) naming the link and the way around it
for dead in 1,1:0 2,1:1 1,1:0@2000; do
    name="mesh-dead-link: saf-bcast over the pulled cable $dead"
    "$m44" --elf "$elf" --job "$work/saf.tbl:64:7" --progress 0 --dead-link "$dead" --link-timeout 20000 \
        >"$work/run.out" 2>&1; rc=$?
    if [ $rc -eq 128 ] && grep -q 'link \[1,1\]+x stalled: .* wait for a credit since cycle' "$work/run.out" &&
            grep -q 'schedgen --dead-link 1,1:0$' "$work/run.out" && ! grep -q '^0 .* OK$' "$work/run.out"; then
        pass "$name: detected (exit 128), [1,1]+x named with schedgen --dead-link 1,1:0"
    else fail "$name" "exit $rc: $(tail_of "$work/run.out")"; fi
done
# without the watch the firmware's own timeout sees it from the far end: node (2,1) heard 0
# of the RAM lines due on its port 1 (the -x side, the pulled cable: 1 or 2 lines for the
# 64-byte worm, as the firmware's buffers fall on the 64-byte lines); the job fails, exit 1
"$m44" --elf "$elf" --job "$work/saf.tbl:64:7" --progress 0 --dead-link 1,1:0 --max-cycles 2000000 \
    >"$work/run.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q '^\[2,1\] .*timeout: lines counted per port: port 1 0 of [1-9]' "$work/run.out" &&
        grep -q '^0 .* FAILED$' "$work/run.out"; then
    pass "mesh-dead-link: without --link-timeout the collective's own timeout names port 1 of (2,1) (exit 1, FAILED)"
else fail "mesh-dead-link: no watch" "exit $rc (want 1, node (2,1) naming port 1): $(tail_of "$work/run.out")"; fi

# bad values: a clear message, exit 120, no report written (the link's part is the parser
# schedgen shares, tools/sched/base/sched_args.c)
while IFS='|' read -r arg want; do
    mesh_refuses "mesh-dead-link: bad $arg" "$want" "$m44" --elf "$elf" $arg
done <<'BAD'
--dead-link 3,1:0|bad --dead-link '3,1:0': no link leaves that node by that port (the mesh's edge)
--dead-link 4,1:1|bad --dead-link '4,1:1': the node is outside the shape (4x4)
--dead-link 1,1:4|bad --dead-link '1,1:4': ports are 0..3 (2 dim, + 1 for the - side)
--dead-link 1,1|bad --dead-link '1,1': give the node and the port it leaves by, like 1,2:3
--dead-link 1,1:0@soon|bad --dead-link '1,1:0@soon': the cycle after '@' must be a decimal number
--dead-link 1,1:0@5x|bad --dead-link '1,1:0@5x': unexpected 'x' after the cycle
--link-timeout -5|--link-timeout takes a decimal number of cycles (0: off), not '-5'
BAD
rm -rf "$work"
