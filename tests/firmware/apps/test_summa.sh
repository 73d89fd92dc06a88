#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# The example application firmware/apps/summa (dense matrix multiply by SUMMA: every round,
# a block of A broadcast along every row and a block of B along every column at once, by the
# kit's row and column communicators) on the 4x4 torus, 32 x 32 matrices (8 x 8 blocks),
# through make bench-apps' script (the large runs are make bench-apps'): every node's block
# of C as the host's reference (a plain triple loop); apps.json's row OK with the
# broadcasts' cycles. A planted mistake (one node multiplies with its own A instead of the
# row's in the last round) fails the run on that node. Then the 8x8 torus, 64 x 64 (8 x 8
# blocks, 16 declared line broadcasts, every call compiling its plan: more than the kit's 8
# kept plans): OK as the host's reference (about 20 s of simulation, and mesh-sim-8x8t's build
# when it is not built yet).
set -u
. tests/lib.sh
. tests/firmware/apps/app_check.sh
app_check summa 32 1 \
    'summa: 32x32 matrices on 4x4 nodes \(blocks of 8x8, 1 step\): as the host.s reference' \
    'summa: FAILED: block \(0,2\) of C differs from the host.s reference: hash [0-9a-f]{8}, first element -?[0-9]+; the host.s reference says [0-9a-f]{8}'

work="$BUILD/tests/apps-summa-8x8t"
rm -rf "$work"
mkdir -p "$work"
# kit/program.mk builds mesh-sim-8x8t when it is not built yet
BENCH_APPS_OUT="$work" BENCH_APPS_RUNS="summa:8x8t:64:1" BENCH_KIT_SHAPES="" kit/bench_apps.sh >"$work/bench.out" 2>&1
rc=$?
run=$(grep -E '^    \{"app": "summa", "shape": "8x8t", "size": 64, "steps": 1, "cycles": [1-9][0-9]*, "comm_cycles": [1-9][0-9]*, "comm_share": 0\.[0-9]+, "result": "OK"\}$' "$work/apps.json")
if [ $rc -eq 0 ] && [ -n "$run" ] &&
        grep -qE '^\[0,0\] summa: 64x64 matrices on 8x8 nodes \(blocks of 8x8, 1 step\): as the host.s reference' \
            "$work/apps/summa-8x8t-64x1.log"; then
    pass "summa-8x8t (as the host's reference: $(echo "$run" | sed 's/^ *//'))"
else
    fail "summa-8x8t" "exit $rc: $(tail_of "$work/bench.out" 3) $(tail_of "$work/apps/summa-8x8t-64x1.log" 3)"
fi
