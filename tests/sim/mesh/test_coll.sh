#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The collectives (firmware/coll) on config.mk's 4x4 torus, in mesh-sim:
#   - coll_errors.c: misuse of the API and network faults, each with its error code and the
#     message the library prints;
#   - coll_bench.c: cycles per payload flit of the all-port neighbour exchange run by a plan
#     in the NI, one plan started 12 times, and 12 calls back to back;
#   - firmware/apps/mesh/collectives.c under mesh-sim --job: every collective with random
#     roots, source sets and block sizes (4 B .. 1 KiB; alltoall up to what a node's 128 KiB
#     holds), each checked byte for byte on every node by mesh-sim; an alltoall of 4 KiB
#     must be refused with "result buffer too small".
# The seed of the random choices is printed first: 1 unless TEST_SEED=N (or TEST_SEED=random).
set -u
. tests/sim/mesh/lib.sh
sim="$BUILD/bin/mesh-sim"
sg="$BUILD/bin/schedgen"
work="$BUILD/tests/sim-mesh-coll"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
errors_elf="$BUILD/fw/tests/sim/mesh/progs/coll_errors.elf"
bench_elf="$BUILD/fw/tests/sim/mesh/progs/coll_bench.elf"
mkdir -p "$work"
mesh_seed

if ! make -s schedgen mesh-sim "$elf" "$errors_elf" "$bench_elf" >"$work/make.log" 2>&1; then
    echo "FAIL coll-build: make schedgen mesh-sim and the programs failed (see $work/make.log)"
    exit 1
fi
echo "PASS coll-build"
mesh_want_4x4_torus coll-shape

# ---- misuse and faults: every check prints "check NAME: ok (...)" after the library's
# message; NAME and a piece of that message for each
"$sim" --elf "$errors_elf" --max-cycles 2000000 >"$work/errors.out" 2>"$work/errors.err"
rc=$?
if [ $rc -eq 0 ]; then echo "PASS coll-errors-run"
else echo "FAIL coll-errors-run: exit $rc: $(grep -m 3 FAIL "$work/errors.out" | tr '\n' ' ') $(tail -c 200 "$work/errors.err")"; fi
while IFS='|' read -r node name message; do
    if ! grep -q "^\[$node\] check $name: ok" "$work/errors.out"; then
        echo "FAIL coll-error $name: $(grep -m 1 "check $name" "$work/errors.out")"
    elif ! grep -qE "^\[$node\] node \($node\): .*$message" "$work/errors.out"; then
        echo "FAIL coll-error $name: no message matching /$message/ from node ($node)"
    else
        echo "PASS coll-error $name"
    fi
done <<'EOF'
0,0|root-off-mesh|root 16 is off the machine \(nodes 0..15\)
0,0|root-not-the-tables|root 3, but the table was built for root 0
0,0|buffer-too-small|the buffer of 60 bytes, this bcast needs 64
0,0|send-buffer-too-small|send buffer of 960 bytes, this scatter needs 1024
0,0|buffers-overlap|the send buffer, the result buffer and the workspace overlap
0,0|workspace-overlaps-result|the send buffer, the result buffer and the workspace overlap
0,0|workspace-too-small|workspace of 120 bytes, this table and m = 64 need 124 .*transit pieces of 64 bytes
0,0|table-for-5x5-torus|table built for a 5x5x1 torus, this machine is a 4x4x1 torus
0,0|table-for-4x4-mesh|table built for a 4x4x1 mesh, this machine is a 4x4x1 torus
0,0|table-of-node-3|table of node 3, this is node 0
0,0|damaged-table|checksum mismatch
0,0|truncated-table|table truncated
0,0|wrong-collective-scatter|table is a bcast schedule, not scatter
0,0|wrong-collective-allgather|table is a bcast schedule, not allgather
0,0|m-zero|m = 0 bytes: must be a non-zero multiple of 4
0,0|m-not-words|m = 6 bytes: must be a non-zero multiple of 4
0,0|m-not-multiple-of-parts|m = 12 bytes: must be a non-zero multiple of 8
0,0|sends-a-piece-it-lacks|sends piece 5 in step 1 before this node has it
0,0|route-off-the-ring|its route \(4,0,0\) is not one this node can send
0,0|no-table|no table
1,0|unexpected-worm|port 1: a worm from node 0 for no window or plan of this node
1,0|stale-epoch-worm|port 1: a worm from node 0 for no window or plan of this node
1,0|short-worm|port 1: a worm from node 0 of another length than its info flit says
1,0|long-worm|port 1: a worm from node 0 of another length than its info flit says
1,0|timeout|timeout: lines counted per port: port 1 0 of 2; 0 sends left
EOF
if grep -q "^\[0,0\] check workspace-bytes: ok" "$work/errors.out"; then echo "PASS coll-workspace-bytes"
else echo "FAIL coll-workspace-bytes: $(grep -m 1 workspace-bytes "$work/errors.out")"; fi

# ---- speed: the all-port neighbour exchange (a worm out and one in on each of the 4 ports
# of every node) as a plan the NI runs from its descriptors: cycles per payload flit of a
# worm at 4 KiB (the link carries one flit a cycle: 1.0 is the best there is)
"$sim" --elf "$bench_elf" --max-cycles 4000000 >"$work/bench.out" 2>"$work/bench.err"
rc=$?
per_flit=$(sed -n 's/^\[0,0\] exchange m=4096: .* \([0-9]*\.[0-9]*\) cycles per payload flit of a worm$/\1/p' "$work/bench.out")
if [ $rc -eq 0 ] && [ -n "$per_flit" ] && awk -v v="$per_flit" 'BEGIN { exit !(v >= 1.0 && v < 1.25) }'; then
    echo "PASS coll-speed (all-port exchange, node 0: $(sed -n 's/^\[0,0\] exchange //p' "$work/bench.out" | tr '\n' ';'))"
else
    echo "FAIL coll-speed: exit $rc, want 1.0 to 1.25 cycles per payload flit at 4 KiB: $(grep '\[0,0\]' "$work/bench.out" | tr '\n' ' ')"
fi
# one plan started 12 times, and 12 broadcasts back to back (sync_start) along a chain: the
# next call's barrier signals may come while a node is still in this one (those nodes say
# so); every call delivers on every node (a node that sees a wrong word says "back-to-back call")
early=$(grep -c "12 broadcasts back to back: ok (the next call's barrier signals came early after [1-9]" "$work/bench.out")
if [ $rc -eq 0 ] && grep -q "^\[0,0\] 12 exchanges of one plan back to back: ok" "$work/bench.out" &&
        grep -q "^\[0,0\] 12 broadcasts back to back: ok" "$work/bench.out" &&
        ! grep -q "back-to-back call" "$work/bench.out" && [ "$early" -ge 1 ]; then
    echo "PASS coll-back-to-back (one plan 12 times; 12 calls on 16 nodes, $early kept early barrier signals for the next call)"
else
    echo "FAIL coll-back-to-back: exit $rc, $early nodes saw early signals: $(grep -m 3 'back-to-back\|back to back' "$work/bench.out" | tr '\n' ' ')"
fi

# ---- collectives under mesh-sim --job: each run a few jobs, every one must be delivered
# (no $(...) around RANDOM: bash reseeds it in subshells, and TEST_SEED would not repeat a run)
pick() { local a=("$@"); picked="${a[RANDOM % ${#a[@]}]}"; }

# run_jobs NAME "algo:sizes[:sources]" ...: generates the tables, runs them in one mesh-sim
run_jobs() {
    local name="$1"; shift
    local args=() desc="" n=0 spec algo sizes sources m r tbl
    for spec in "$@"; do
        IFS=: read -r algo sizes sources <<<"$spec"
        pick $sizes
        m=$picked
        r="$((RANDOM % 4)),$((RANDOM % 4))"
        tbl="$work/$name-$n-$algo.tbl"
        local extra=()
        [ -n "$sources" ] && extra=(--sources "random:$sources:$RANDOM")
        if ! "$sg" --shape 4x4 --torus --algo "$algo" --root "$r" "${extra[@]}" --check --quiet --tables "$tbl" \
                >"$tbl.log" 2>&1; then
            echo "FAIL $name: schedgen $algo root $r: $(tail -n 1 "$tbl.log")"
            return 1
        fi
        args+=(--job "$tbl:$m:$RANDOM")
        desc="$desc $algo@$r:${m}B"
        n=$((n + 1))
    done
    "$sim" --elf "$elf" "${args[@]}" --max-cycles 20000000 >"$work/$name.out" 2>"$work/$name.err"
    local rc=$? ok
    ok=$(grep -cE '^[0-9]+ .* OK$' "$work/$name.out")
    if [ $rc -eq 0 ] && [ "$ok" -eq "$n" ] && [ "$(grep -c "^\[0,0\] $n of $n jobs ok" "$work/$name.out")" -eq 1 ]; then
        echo "PASS $name ($desc)"
        grep -E '^[0-9]+ ' "$work/$name.out"
    else
        echo "FAIL $name: exit $rc, $ok of $n delivered ($desc; $work/$name.out): $(grep -m 3 'mesh-sim: job' "$work/$name.out" | tr '\n' ' ')$(tail -c 300 "$work/$name.err")"
    fi
}

run_jobs coll-rooted "tsay-wang:4 260 1024" "saf-bcast:12 516" "scatter:4 100 1024" "gather:8 260 1024"
run_jobs coll-allgather "mnb:4 64 260" "mnb-split:8 264 1024" "mnb-diag:12 100" "dyn-star:4 516"
run_jobs coll-alltoall "te-a3:4 36 256" "te-a2:8 128 512" "te-oneport:4 36 128"
run_jobs coll-partial "pmnb:4 260 1024:6" "pmnb-split:8 200 512:10"

# ---- an alltoall of 4 KiB needs 64 KiB of send and 64 KiB of result buffer: refused
tbl="$work/big-te-a3.tbl"
if "$sg" --shape 4x4 --torus --algo te-a3 --quiet --tables "$tbl" >/dev/null 2>&1; then
    "$sim" --elf "$elf" --job "$tbl:4096" --max-cycles 2000000 >"$work/too-big.out" 2>"$work/too-big.err"
    rc=$?
    told=$(grep -c "coll_plan_init: result buffer of [0-9]* bytes, this alltoall needs 65536 (result buffer too small)" "$work/too-big.out")
    if [ $rc -ne 0 ] && [ "$told" -eq 16 ] && grep -q "^\[0,0\] job 0: m=4096: error -7: result buffer too small" "$work/too-big.out" &&
            grep -q "job 0 (alltoall 4096 B): node \[0,0\]: the collective returned -7" "$work/too-big.out"; then
        echo "PASS coll-alltoall-too-big (refused on all 16 nodes: result buffer too small)"
    else
        echo "FAIL coll-alltoall-too-big: exit $rc, $told nodes said why: $(grep -m 2 '\[0,0\]' "$work/too-big.out" | tr '\n' ' ')"
    fi
else
    echo "FAIL coll-alltoall-too-big: schedgen te-a3 failed"
fi

# ---- a call refused by one node only (the scatter root's 128 KiB send buffer does not fit):
# the root says why, the others time out waiting for their blocks, and the next call (a
# broadcast) still runs and is delivered: the root moved its epoch on with the others
if "$sg" --shape 4x4 --torus --algo scatter --root 1,2 --quiet --tables "$work/refused-scatter.tbl" >/dev/null 2>&1 &&
   "$sg" --shape 4x4 --torus --algo tsay-wang --root 3,0 --quiet --tables "$work/after-bcast.tbl" >/dev/null 2>&1; then
    "$sim" --elf "$elf" --job "$work/refused-scatter.tbl:8192" --job "$work/after-bcast.tbl:64" --max-cycles 3000000 \
        >"$work/refused.out" 2>"$work/refused.err"
    rc=$?
    # the nodes that say they timed out (mesh-sim names the first 12 problems, then counts them all)
    timeouts=$(grep "^\[[0-3],[0-3]\] node ([0-3],[0-3]): coll_plan_init: timeout: lines counted per port: port [0-4] 0 of [0-9]*; 0 sends left" \
               "$work/refused.out" | cut -d' ' -f1 | sort -u | wc -l)
    if [ $rc -ne 0 ] && grep -q "^\[1,2\] node (1,2): coll_plan_init: send buffer of [0-9]* bytes, this scatter needs 131072 (send buffer too small)" "$work/refused.out" &&
            grep -q "job 0 (scatter 8192 B): node \[1,2\]: the collective returned -6" "$work/refused.out" &&
            grep -q "job 0: \.\.\. 16 problems in all" "$work/refused.out" && [ "$timeouts" -eq 15 ] &&
            grep -qE '^1 +broadcast .* OK$' "$work/refused.out" &&
            grep -q "^\[0,0\] 1 of 2 jobs ok" "$work/refused.out"; then
        echo "PASS coll-refused-then-next (root refused, the 15 others timed out, the next broadcast delivered)"
    else
        echo "FAIL coll-refused-then-next: exit $rc, $timeouts nodes timed out: $(grep -m 3 'mesh-sim: job\|^[01] ' "$work/refused.out" | tr '\n' ' ')"
    fi
else
    echo "FAIL coll-refused-then-next: schedgen failed"
fi
