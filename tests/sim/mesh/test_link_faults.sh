#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Faults injected on the simulated machine (mesh-sim --drop-flit, --stall-link, --stop-node;
# sim/mesh/README.md, "Link faults"), each run a 1 KiB broadcast (tsay-wang) on the 4x4
# torus: nothing is lost silently, every failure is named with where it happened.
#   - a flit dropped on a plain link: the run fails, naming the drop (link, port, cycle);
#   - a flit dropped on a protected link (mesh-sim-4x4t-guard): the guard sees the gap and
#     sends it again: delivered byte for byte, link-errors and retries counted; twice the
#     same run;
#   - a link's credits held back for a while: delivered byte for byte, later; for good: the
#     credit watch (--link-timeout) names the link, the port and the VCs stuck;
#   - a node stopped: the run ends naming it (exit 129), nothing reported as delivered;
#   - bad values: refused (exit 120), nothing written.
set -u
. tests/lib.sh
. tests/sim/mesh/lib.sh
work="$BUILD/tests/mesh-link-faults"
rm -rf "$work"; mkdir -p "$work"
make_or_fail mesh-link-faults-build "$work/make.log" mesh-sim mesh-sim-4x4t-guard schedgen \
    build/fw/firmware/apps/mesh/collectives.elf || exit 0
gen="$BUILD/bin/schedgen"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
sim="$BUILD/bin/mesh-sim"
guard="$BUILD/bin/mesh-sim-4x4t-guard"
mesh_want_4x4_torus mesh-link-faults-shape || exit 0
if ! "$gen" --shape 4x4 --torus --algo tsay-wang --quiet --tables "$work/bcast.tbl" >"$work/gen.log" 2>&1; then
    fail "mesh-link-faults: schedgen tsay-wang" "$(tail_of "$work/gen.log")"; exit 0
fi
job=(--elf "$elf" --job "$work/bcast.tbl:1024:1" --progress 0)

# counter NAME FILE: the summary's NAME=value
counter() { grep -o " $1=[0-9]*" "$2" | head -1 | cut -d= -f2; }
# job_cycles FILE: the broadcast's cycles in the table
job_cycles() { awk '$1 == "0" && $2 == "broadcast" { print $6 }' "$1"; }

# the healthy run: the broadcast's cycles, and the link the faults below pick carries flits
"$sim" "${job[@]}" --links >"$work/healthy.out" 2>&1; rc=$?
healthy=$(job_cycles "$work/healthy.out")
f=$(grep -o '\[2,2\]+x=[0-9]*' "$work/healthy.out" | cut -d= -f2)
if [ $rc -eq 0 ] && grep -q '^0 .* OK$' "$work/healthy.out" && [ "${f:-0}" -gt 0 ]; then
    pass "mesh-link-faults: healthy run, broadcast in $healthy cycles, $f flits over [2,2]+x (into port 1 of [3,2])"
else fail "mesh-link-faults: healthy run" "exit $rc, [2,2]+x ${f:-?} flits: $(tail_of "$work/healthy.out")"; fi

# --drop-flit on the plain torus: the first flit into port 1 of [3,2] from cycle 9,000 on
# vanishes (a barrier signal of the broadcast's start, at cycle 13,338; the broadcast is
# released at 13,233). With the credit
# watch: exit 128 naming the link, its port, the VC and the drop; without it the nodes'
# own timeout ends the collective (FAILED, exit 1) and the summary names the drop.
drop_named='--drop-flit 3,2:1@9000: the flit on \[2,2\]+x (into port 1 of \[3,2\]) at cycle [0-9]* dropped and lost'
"$sim" "${job[@]}" --drop-flit 3,2:1@9000 --link-timeout 20000 >"$work/drop.out" 2>&1; rc=$?
if [ $rc -eq 128 ] && grep -q 'link \[2,2\]+x stalled: .* stuck on VC [0-9] (1 flit), the wire into port 1 of \[3,2\]; a flit on it dropped by --drop-flit 3,2:1@9000' "$work/drop.out" &&
        grep -q -- "$drop_named" "$work/drop.out" && ! grep -q '^0 .* OK$' "$work/drop.out"; then
    pass "mesh-link-faults: a flit dropped on a plain link: exit 128, [2,2]+x into port 1 of [3,2] named with its VC and the drop"
else fail "mesh-link-faults: plain drop, watched" "exit $rc: $(tail_of "$work/drop.out" 1)"; fi
"$sim" "${job[@]}" --drop-flit 3,2:1@9000 >"$work/drop2.out" 2>&1; rc=$?
if [ $rc -ne 0 ] && grep -q '^0 .* FAILED$' "$work/drop2.out" && grep -q 'timeout' "$work/drop2.out" &&
        grep -q "faults injected: $drop_named" "$work/drop2.out"; then
    pass "mesh-link-faults: the same drop unwatched: the nodes' timeout fails the broadcast (exit $rc), the summary names the drop"
else fail "mesh-link-faults: plain drop, unwatched" "exit $rc: $(tail_of "$work/drop2.out" 1)"; fi

# --drop-flit on protected links: the guard's receiving end sees the gap, the flit is sent
# again; byte for byte, the counters show it; the same flags give the same run
for k in 1 2; do
    "$guard" "${job[@]}" --drop-flit 3,2:1@9000 >"$work/gdrop$k.out" 2>&1; rc=$?
done
e=$(counter link-errors "$work/gdrop1.out"); r=$(counter retries "$work/gdrop1.out"); fl=$(counter flips "$work/gdrop1.out")
if [ $rc -eq 0 ] && grep -q '^0 .* OK$' "$work/gdrop1.out" && [ "${e:-0}" -ge 1 ] && [ "${r:-0}" -ge 1 ] && [ "$fl" = 0 ] &&
        grep -q 'fault: --drop-flit 3,2:1@9000: the flit on \[2,2\]+x (into port 1 of \[3,2\]) at cycle [0-9]* dropped (a protected link: sent again)' "$work/gdrop1.out"; then
    pass "mesh-link-faults: a flit dropped on a protected link: byte for byte, link-errors=$e retries=$r"
else fail "mesh-link-faults: guarded drop" "exit $rc, link-errors=${e:-?} retries=${r:-?}: $(tail_of "$work/gdrop1.out" 2)"; fi
if diff <(grep -v 'cycles/s' "$work/gdrop1.out"; grep -o 'cycles=[0-9]*.*flips=[0-9]*' "$work/gdrop1.out") \
        <(grep -v 'cycles/s' "$work/gdrop2.out"; grep -o 'cycles=[0-9]*.*flips=[0-9]*' "$work/gdrop2.out") >/dev/null; then
    pass "mesh-link-faults: the same drop twice gives the same run"
else fail "mesh-link-faults: repeatable" "two runs with --drop-flit 3,2:1@9000 differ"; fi

# --stall-link for 3,000 cycles over the broadcast: nothing lost, byte for byte, later
"$sim" "${job[@]}" --stall-link 3,2:1@12600+3000 >"$work/stall.out" 2>&1; rc=$?
late=$(job_cycles "$work/stall.out")
if [ $rc -eq 0 ] && grep -q '^0 .* OK$' "$work/stall.out" && [ "${late:-0}" -gt "${healthy:-0}" ] &&
        grep -q 'fault: --stall-link 3,2:1@12600+3000: the credits of \[2,2\]+x (into port 1 of \[3,2\]) held back for cycles 12600 to 15599, then released' "$work/stall.out"; then
    pass "mesh-link-faults: a link stalled 3,000 cycles: byte for byte, the broadcast in $late cycles (healthy $healthy)"
else fail "mesh-link-faults: transient stall" "exit $rc, $late cycles (healthy $healthy): $(tail_of "$work/stall.out" 2)"; fi
# for good: the watch names the link, the port, the VCs stuck and the stall
"$sim" "${job[@]}" --stall-link 3,2:1@12600 --link-timeout 5000 >"$work/stuck.out" 2>&1; rc=$?
if [ $rc -eq 128 ] && grep -q 'link \[2,2\]+x stalled: [0-9]* flits sent on it wait for a credit since cycle [0-9]* (--link-timeout 5000), stuck on VC [0-9] ([0-9]* flits*)\(, VC [0-9] ([0-9]* flits*)\)*, the wire into port 1 of \[3,2\]; its credits held back by --stall-link 3,2:1@12600\.' "$work/stuck.out" &&
        ! grep -q '^0 .* OK$' "$work/stuck.out"; then
    pass "mesh-link-faults: a link stalled for good: exit 128, $(grep -o 'stuck on [^[]*' "$work/stuck.out" | head -1)[3,2] named"
else fail "mesh-link-faults: permanent stall" "exit $rc: $(tail_of "$work/stuck.out" 1)"; fi

# --stop-node: [1,1]'s core stops in the broadcast's start barrier; the others time out
# there, and the run ends naming it (exit 129); the report says so, the job is not run
"$sim" "${job[@]}" --stop-node 1,1@13250 --report "$work/stop.json" >"$work/stop.out" 2>&1; rc=$?
if [ $rc -eq 129 ] && grep -q 'node \[1,1\] stopped by --stop-node never exited' "$work/stop.out" &&
        grep -q "stop-node 1,1@13250: node \[1,1\]'s core stopped at cycle 13250 (last retired pc 0x[0-9a-f]*), never exited" "$work/stop.out" &&
        grep -q '"exit": 129' "$work/stop.json" && ! grep -q '^0 .* OK$' "$work/stop.out"; then
    pass "mesh-link-faults: a node stopped: exit 129, [1,1] named (in the report too), the broadcast not reported delivered"
else fail "mesh-link-faults: stop-node" "exit $rc: $(tail_of "$work/stop.out" 1)"; fi

# bad values: exit 120, a clear message, nothing written
while IFS='|' read -r arg want; do
    mesh_refuses "mesh-link-faults: bad $arg" "$want" "$sim" --elf "$elf" $arg
done <<'BAD'
--drop-flit 1,1:0|bad --drop-flit '1,1:0': give the cycle it starts at after '@', like 1,2:3@5000
--drop-flit 4,1:0@5|bad --drop-flit '4,1:0@5': the node is outside the shape (4x4)
--drop-flit 1,1:7@5|bad --drop-flit '1,1:7@5': ports are 0..3 (2 dim, + 1 for the - side)
--drop-flit 1,1@5|bad --drop-flit '1,1@5': give the node and the port the flits come in by, like 1,2:3
--drop-flit 1,1:0@5s|bad --drop-flit '1,1:0@5s': unexpected 's' after the cycle
--stall-link 1,1:0@-3|bad --stall-link '1,1:0@-3': the cycle after '@' must be a decimal number
--stall-link 1,1:0@5+0|bad --stall-link '1,1:0@5+0': the cycles after '+' (how long the link stalls) must be a decimal number above 0
--stall-link 1,x:0@5|bad --stall-link '1,x:0@5': give the node and the port
--stop-node 1,1|bad --stop-node '1,1': give the cycle it starts at after '@', like 1,2@5000
--stop-node 9,1@5|bad --stop-node '9,1@5': the node is outside the shape (4x4)
--stop-node 1,1,1@5|bad --stop-node '1,1,1@5': give the node and the cycle it starts at, like 1,2@5000
BAD
rm -rf "$work"
