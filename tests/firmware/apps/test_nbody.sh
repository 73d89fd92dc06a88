#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 900
# The example application firmware/apps/nbody (n-body with allgather, a program of the
# application kit) on the 4x4 torus, through make bench-apps' own script with small sizes
# (the 8x8 runs are make bench-apps'): 64 bodies for one step agree with the host's reference
# on every node, and apps.json and kit.json have the fields other tools read (runs: app,
# shape, size, cycles, comm_cycles, result; shapes: tables_bytes_max, init_cycles_max, the
# 4-byte allreduce and barrier, the 1 and 4 KiB allreduces with their bound). A
# reference planted wrong (two steps for the nodes' one) fails the run: a node names the
# body and both positions.
set -u
. tests/lib.sh
work="$BUILD/tests/apps-nbody"
rm -rf "$work"
mkdir -p "$work"
root=$(pwd)

make_or_fail nbody-tools "$work/make.log" mesh-sim schedgen || exit 1
pass nbody-tools

BENCH_APPS_OUT="$work" BENCH_APPS_RUNS="nbody:4x4t:64:1" BENCH_KIT_SHAPES="4x4t" BENCH_OSU_SHAPES="" kit/bench_apps.sh >"$work/bench.out" 2>&1
rc=$?
run=$(grep -E '^    \{"app": "nbody", "shape": "4x4t", "size": 64, "steps": 1, "cycles": [1-9][0-9]*, "comm_cycles": [1-9][0-9]*, "comm_share": 0\.[0-9]+, "result": "OK"\}$' "$work/apps.json")
if [ $rc -eq 0 ] && [ -n "$run" ] && grep -q '^  "runs": \[$' "$work/apps.json" &&
        grep -q '^\[0,0\] nbody: 64 bodies, 1 steps on 16 nodes: as the host.s reference' "$work/apps/nbody-4x4t-64x1.log"; then
    pass "nbody-4x4t (64 bodies, 1 step, as the host's reference: $(echo "$run" | sed 's/^ *//')"
else
    fail nbody-4x4t "exit $rc: $(tail_of "$work/bench.out" 3) $(cat "$work/apps.json" 2>/dev/null | tr '\n' ' ' | cut -c1-200)"
fi
if grep -qE '^    \{"shape": "4x4t", "collectives": "bcast allgather alltoall", "tables_bytes_max": 2600, "init_cycles_max": [0-9]+, "bcast": \{"first_cycles": [0-9]+, "again_cycles": [0-9]+\}, "allgather": .*, "alltoall": .*, "allreduce_4b": \{"first_cycles": [0-9]+, "again_cycles": [0-9]+\}, "barrier": \{"first_cycles": [0-9]+, "again_cycles": [0-9]+\}, "allreduce_vs_bcast_4b": [0-9.]+, "allreduce": \[\{"bytes": 1024, "again_cycles": [0-9]+, "path": "rings", "bound_cycles": [0-9]+, "of_bound": [0-9.]+\}, \{"bytes": 4096, .*\}\], "result": "OK"\}$' "$work/kit.json"; then
    init=$(sed -n 's/.*"init_cycles_max": \([0-9]*\),.*/\1/p' "$work/kit.json")
    [ "$init" -le 2000 ] && pass "kit-json (a node holds 2600 bytes; rvm_init $init cycles)" ||
        fail kit-json "rvm_init took $init cycles, more than 2,000"
else
    fail kit-json "$(cat "$work/kit.json" 2>/dev/null | tr '\n' ' ' | cut -c1-300)"
fi

# a wrong reference fails the run
make -C firmware/apps/nbody --no-print-directory SHAPE=4x4t BODIES=16 STEPS=1 REF_STEPS=2 OUT="$root/$work/wrong" \
    RUN_ARGS="--progress 0" run >"$work/wrong.log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -qE '^\[[0-9],[0-9]\] body [0-9]+: \([0-9]+,[0-9]+,[0-9]+\), the host.s reference says \([0-9]+,[0-9]+,[0-9]+\)$' "$work/wrong.log" &&
        grep -q 'exit=1 ' "$work/wrong.log"; then
    pass "nbody-wrong-reference-fails (exit 1: $(grep -m 1 -o 'body [0-9]*: .*' "$work/wrong.log"))"
else
    fail nbody-wrong-reference-fails "make run exited $rc: $(tail_of "$work/wrong.log" 3)"
fi
