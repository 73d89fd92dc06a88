#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# The kit's reductions and barrier (firmware/coll/rvmesh.h) on the 4x4 torus, every node
# checking what it got against the result it computes from the known inputs of every node
# (tests/kit/progs/reduce): rvm_allreduce SUM/MIN/MAX/BXOR/BAND/BOR/UMIN/UMAX on the small
# path (recursive doubling in the NI where it combines: 1, 5, 32 and 255 elements, in place, recv
# overlapping send; allgather + local combine with the NI's paths off and for the own op; a
# reduce to node 5 and a reduce-scatter of 3 a block by the doubling too), SUM/MIN/MAX/BXOR on the large path (reduce-scatter by
# alltoall + allgather; apart and, MAX, in place), every built-in op on the NI's rings (64
# elements: 4N) apart and SUM/BXOR/UMAX in place, the rings refusing overlapping buffers, an op of the program's own that does not commute (rvm_op_create) on
# both paths, rvm_reduce_scatter (SUM/MAX/BAND on the rings, 16 a block, each block put straight into
# its owner's recv, nothing past it written, SUM again with the kept plan; the own op and 17 a block
# by alltoall), in place (the rings' allreduce, block me copied), rvm_reduce to node 5 with NULL elsewhere on the small, the rings' and the
# large path (its path named), on the rings with the root in place and to node 0 apart, bad input
# (an unknown op, a misaligned buffer, a root off the machine, a workspace too small) with
# its message, and the barrier (node 0 enters 40,000 cycles late: no node leaves before it
# entered). rvm_plan_stats: a loop of the same allreduce compiles nothing and reuses its kept
# plan each time; an rvm_reduce whose N vectors (64 KiB) leave too little free RAM below them
# for the kept plans drops them (drops + 1), and the same call again drops nothing; a NULL
# out is refused (COLL_EARG). Built with COLLECTIVES=bcast: an allreduce says to declare
# allgather (the NI's paths off), a short one by the NI's doubling works without it; rvm_barrier (the NI's barrier, no table) still works. Built with -DSKIP: node 3 skips the
# barrier, the others end in a timeout naming rvm_barrier (status 80), not a hang.
set -u
. tests/kit/lib.sh
sim="$BUILD/bin/mesh-sim"
kit_setup kit-reduce mesh-sim schedgen || exit 1
prog=tests/kit/progs/reduce

# the three programs built one after the other, each run started once it is built (side by
# side: each sim on a core), then their checks in turn
ok_pid="" bad_pid="" skip_pid=""
if kit_make ok-build "$prog" OUT="$root/$work/ok"; then
    "$sim" --elf "$work/ok/reduce.elf" --max-cycles 6000000 >"$work/ok.out" 2>"$work/ok.err" &
    ok_pid=$!
fi
if kit_make bad-build "$prog" OUT="$root/$work/bad" COLLECTIVES=bcast CFLAGS=-DBAD; then
    "$sim" --elf "$work/bad/reduce.elf" --max-cycles 3000000 >"$work/bad.out" 2>"$work/bad.err" &
    bad_pid=$!
fi
if kit_make skip-build "$prog" OUT="$root/$work/skip" CFLAGS=-DSKIP TIMEOUT=20000; then
    "$sim" --elf "$work/skip/reduce.elf" --max-cycles 3000000 >"$work/skip.out" 2>"$work/skip.err" &
    skip_pid=$!
fi

if [ -n "$ok_pid" ]; then
    wait "$ok_pid"
    rc=$?
    [ $rc -eq 0 ] && pass kit-reduce-run || fail kit-reduce-run "exit $rc: $(grep -m 3 FAILED "$work/ok.out" | tr '\n' ' ')$(tail_of "$work/ok.err" 2)"
    # what the program printed, and the plan counts' checks by name (a missing one fails)
    checks=$({ sed -n 's/^\[[0-9],[0-9]\] check \([^:]*\): .*/\1/p' "$work/ok.out"
        printf '%s\n' plan-stats-loop plan-stats-workspace plan-stats-drop-premise plan-stats-drop \
            plan-stats-drop-again plan-stats-null; } | sort -u)
    [ "$(echo "$checks" | wc -l)" -ge 26 ] || fail kit-reduce-checks "only $(echo "$checks" | wc -l) checks printed"
    # shellcheck disable=SC2086
    kit_node_checks kit-reduce "$work/ok.out" 16 $checks
    while IFS= read -r message; do
        n=$(grep -cF -- "$message" "$work/ok.out")
        [ "$n" -eq 16 ] && pass "kit-reduce-message ${message:0:40}" || fail "kit-reduce-message" "$n of 16 nodes printed '$message'"
    done <<'MSG'
rvm_allreduce: op 99 is not an operation: use RVM_SUM, RVM_MIN, RVM_MAX, RVM_UMIN, RVM_UMAX, RVM_BAND, RVM_BOR, RVM_BXOR or one rvm_op_create made
rvm_op_create: the combine function is NULL
rvm_op_create: 4 ops exist already, the most a program makes (RVM_MAX_USER_OPS)
rvm_reduce_scatter: op 73 is not an operation
rvm_reduce_scatter: count 1048576 needs 67108864 bytes of workspace for the 16 nodes' blocks
rvm_allreduce: buffers must be word-aligned, not null
rvm_reduce: root 16 is off the machine (nodes 0..15)
rvm_allreduce: count 1048576 needs 67108864 bytes of workspace for the 16 nodes' vectors, the program leaves
rvm_plan_stats: out is NULL: pass a struct rvm_plan_stats to fill
rvm_allreduce: send and recv overlap but are not the same buffer: pass the same pointer for an allreduce in place, or buffers apart
MSG
    grep '^\[0,0\] \(cycles\|plan stats\)' "$work/ok.out" | sed 's/^\[0,0\] /    /'
else
    fail kit-reduce-build "$(tail_of "$work/ok-build.log" 4)"
fi

if [ -n "$bad_pid" ]; then
    wait "$bad_pid"
    rc=$?
    u=$(grep -c "check undeclared-allgather: ok$" "$work/bad.out")
    m=$(grep -cF "rvm_allreduce: allgather is not declared: add it to COLLECTIVES in the program's Makefile (it declares: bcast@0)" "$work/bad.out")
    [ "$u" -eq 16 ] && [ "$m" -eq 16 ] && pass kit-reduce-undeclared || fail kit-reduce-undeclared "$u nodes ok, $m messages"
    u=$(grep -c "check undeclared-alltoall: ok$" "$work/bad.out")
    m=$(grep -cF "rvm_reduce_scatter: alltoall is not declared: add it to COLLECTIVES in the program's Makefile (it declares: bcast@0)" "$work/bad.out")
    [ "$u" -eq 16 ] && [ "$m" -eq 16 ] && pass kit-reduce-scatter-undeclared || fail kit-reduce-scatter-undeclared "$u nodes ok, $m messages"
    d=$(grep -c "check doubling-without-tables: ok$" "$work/bad.out")
    [ "$d" -eq 16 ] && pass "kit-reduce-doubling-without-tables (a 4-element allreduce with only bcast declared)" ||
        fail kit-reduce-doubling-without-tables "$d of 16 nodes ok"
    b=$(grep -c "check barrier-without-tables: ok$" "$work/bad.out")
    if [ $rc -eq 0 ] && [ "$b" -eq 16 ] && grep -q "16/16 nodes exited, exit=0" "$work/bad.err"; then
        pass "kit-reduce-barrier-without-tables (only bcast declared: every node passes it)"
    else
        fail kit-reduce-barrier-without-tables "exit $rc, $b nodes ok: $(tail_of "$work/bad.err" 2)"
    fi
else
    fail kit-reduce-bad-build "$(tail_of "$work/bad-build.log" 4)"
fi

if [ -n "$skip_pid" ]; then
    wait "$skip_pid"
    rc=$?
    t=$(grep -c "rvm_barrier: no progress for 20000 cycles: did every node call rvm_barrier?" "$work/skip.out")
    if [ $rc -eq 80 ] && [ "$t" -ge 1 ] && ! grep -q "check barrier-skipped: FAILED" "$work/skip.out"; then
        pass "kit-reduce-barrier-skipped ($t nodes time out naming rvm_barrier, exit 80)"
    else
        fail kit-reduce-barrier-skipped "exit $rc, $t timeouts: $(tail_of "$work/skip.err" 2)"
    fi
else
    fail kit-reduce-skip-build "$(tail_of "$work/skip-build.log" 4)"
fi
