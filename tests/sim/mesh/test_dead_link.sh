#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The schedules around a dead link (schedgen --dead-link, tools/sched/fault) on the simulated
# machine: every -ft collective delivered byte for byte on the 4x4 mesh and the 4x4 torus,
# and not one flit over the dead cable in either direction (mesh-sim --links). The link is
# not cut in the simulation: this shows the schedule leaves it alone on the real NI; the
# checker (tests/tools/sched/test_dead_link.sh) proves it for every message.
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
        "$BUILD/bin/$sim" --elf "$elf" --job "$tbl:64:7" --links --progress 0 >"$work/run.out" 2>&1; rc=$?
        f=$(grep -o "\\$fwd=[0-9]*" "$work/run.out" | cut -d= -f2)
        r=$(grep -o "\\$rev=[0-9]*" "$work/run.out" | cut -d= -f2)
        if [ $rc -eq 0 ] && grep -q '^0 .* OK$' "$work/run.out" && [ "$f" = 0 ] && [ "$r" = 0 ]; then
            pass "$name: delivered byte for byte, 0 flits over $fwd and $rev"
        else fail "$name" "exit $rc, flits $fwd=${f:-?} $rev=${r:-?}: $(tail_of "$work/run.out")"; fi
    done
done <<'RUNS'
mesh-sim-4x4m mesh 1,1 1,1:0 [1,1]+x [2,1]-x
mesh-sim torus 0,0 0,0:2 [0,0]+y [0,1]-y
RUNS
# the same link does carry flits with a schedule that does not avoid it: the count is real
"$gen" --shape 4x4 --mesh --algo saf-bcast --root 1,1 --quiet --tables "$work/saf.tbl" >/dev/null 2>&1
"$BUILD/bin/mesh-sim-4x4m" --elf "$elf" --job "$work/saf.tbl:64:7" --links --progress 0 >"$work/run.out" 2>&1
f=$(grep -o '\[1,1\]+x=[0-9]*' "$work/run.out" | cut -d= -f2)
if [ "${f:-0}" -gt 0 ]; then pass "mesh-dead-link: saf-bcast (not avoiding it) sends $f flits over [1,1]+x: the count sees the link"
else fail "mesh-dead-link: control run" "[1,1]+x carried ${f:-?} flits under saf-bcast"; fi
rm -rf "$work"
