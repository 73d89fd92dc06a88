#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 900
# firmware/apps/osu_allreduce (rvm_allreduce as OSU's osu_allreduce measures it, and
# rvm_reduce and rvm_reduce_scatter as osu_reduce and osu_reduce_scatter do) on the 5x5
# torus (odd sides: the rings' segments wrap differently from the 4x4 of test_kit_reduce.sh),
# through make bench-apps' own script with vectors of 400 and 800 bytes (1,600 in place; one timed call a size): every
# result right on every node in all three ways (the NI's rings apart and in place, the other paths), the
# rings taken where they should be, allreduce.json (reduce.json, reduce_scatter.json) with the fields other tools read, and the
# rings faster than the other paths (cycles of the simulated machine, not wall-clock time).
# A wrong expectation planted in the program (-DOSU_PLANT) fails its run.
set -u
. tests/lib.sh
work="$BUILD/tests/apps-osu-allreduce"
rm -rf "$work"
mkdir -p "$work"
root=$(pwd)

make_or_fail osu-tools "$work/make.log" mesh-sim-5x5t schedgen || exit 1
pass osu-tools

BENCH_APPS_OUT="$work" BENCH_APPS_RUNS="" BENCH_KIT_SHAPES="" BENCH_OSU_SHAPES="5x5t" BENCH_OSU_MAX_BYTES=800 BENCH_OSU_INPLACE_MAX_BYTES=1600 BENCH_OSU_ITERS=1 \
    kit/bench_apps.sh >"$work/bench.out" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "osu-bench-exit" || fail osu-bench-exit "exit $rc: $(tail_of "$work/bench.out" 3)"
# rows CALL JSON WAYS...: per size and way, a row with its path, sane cycles and the rings
# faster than the other paths
rows() {
    local call=$1 json=$2 bytes way path row lo avg hi vs
    shift 2
    for bytes in 400 800; do
        for way in "$@"; do
            path=rings
            [ "$way" = no-rings ] && path="alltoall\\+allgather"
            [ "$way" = no-rings ] && [ "$call" = reduce_scatter ] && path=alltoall
            row=$(grep -E "^    \{\"shape\": \"5x5t\", \"bytes\": $bytes, \"way\": \"$way\", \"path\": \"$path\", \"min_cycles\": [1-9][0-9]*, \"avg_cycles\": [1-9][0-9]*, \"max_cycles\": [1-9][0-9]*, \"bound_cycles\": [1-9][0-9]*, \"of_bound\": [0-9.]+, \"others_over_this\": [0-9.]+, \"result\": \"OK\"\}" "$json")
            if [ -z "$row" ]; then
                fail "osu-$call-$bytes-$way" "no such row in $(basename "$json"): $(grep "\"bytes\": $bytes, \"way\": \"$way\"" "$json" | cut -c1-220)"
                continue
            fi
            read -r lo avg hi vs <<<"$(echo "$row" | sed 's/.*"min_cycles": \([0-9]*\), "avg_cycles": \([0-9]*\), "max_cycles": \([0-9]*\), .*"others_over_this": \([0-9.]*\),.*/\1 \2 \3 \4/')"
            if [ "$lo" -le "$avg" ] && [ "$avg" -le "$hi" ] &&
                    { [ "$way" = no-rings ] || awk -v v="$vs" 'BEGIN { exit !(v > 1.0) }'; }; then
                pass "osu-$call-$bytes-$way ($path: min $lo avg $avg max $hi cycles; the other paths / this: $vs)"
            else
                fail "osu-$call-$bytes-$way" "min $lo avg $avg max $hi, the other paths / this $vs: $row"
            fi
        done
    done
}
json="$work/allreduce.json"
rows allreduce "$json" apart in-place no-rings
# rvm_reduce (to node 0) and rvm_reduce_scatter from the same run: the rings too
rows reduce "$work/reduce.json" apart in-place no-rings
rows reduce_scatter "$work/reduce_scatter.json" apart no-rings
[ "$(grep -c '"result"' "$work/reduce.json")" -eq 6 ] && [ "$(grep -c '"result"' "$work/reduce_scatter.json")" -eq 4 ] &&
    pass "osu-reduce-json-rows (6 and 4)" ||
    fail osu-reduce-json-rows "$(grep -c '"result"' "$work/reduce.json") and $(grep -c '"result"' "$work/reduce_scatter.json") rows"
# past BENCH_OSU_MAX_BYTES, in place alone (a second run with one big buffer)
if grep -qE '^    \{"shape": "5x5t", "bytes": 1600, "way": "in-place", "path": "rings", .*"others_over_this": null, "result": "OK"\}' "$json"; then
    pass "osu-1600-in-place (the second run's size)"
else
    fail osu-1600-in-place "$(grep '"bytes": 1600' "$json" | cut -c1-200)"
fi
[ "$(grep -c '"result"' "$json")" -eq 7 ] && pass "osu-json-rows (7)" || fail osu-json-rows "$(grep -c '"result"' "$json") rows"

# a wrong expectation: the nodes see it, the run fails
make -C firmware/apps/osu_allreduce --no-print-directory SHAPE=5x5t MAX_BYTES=400 ITERS=1 CFLAGS=-DOSU_PLANT \
    OUT="$root/$work/plant" RUN_ARGS="--progress 0" run >"$work/plant.log" 2>&1
rc=$?
n=$(grep -c '^\[0,0\] osu_allreduce: bytes 400 way [a-z-]* path [a-z+]* .* FAILED$' "$work/plant.log")
[ $rc -ne 0 ] && [ "$n" -eq 3 ] && pass "osu-plant (exit $rc, all 3 ways FAILED)" || fail osu-plant "exit $rc, $n ways FAILED: $(tail_of "$work/plant.log" 3)"
