#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-coll's script (sim/mesh/bench_coll.sh) on a small sweep: the 4x4 torus,
# broadcast and alltoall, 16 and 32-byte blocks, into a folder of its own. Its JSON must hold
# a run per schedule and size with the fields other tools read, every delivery OK and every
# efficiency in (0, 1]; its picture must be an SVG with a curve per schedule; its fitted
# model must have used the 16-byte calls. (The figures themselves are the benchmark's.)
set -u
. tests/sim/mesh/lib.sh
work="$BUILD/tests/sim-mesh-bench-coll"
rm -rf "$work"
mkdir -p "$work"
BUILD="$BUILD" BENCH_COLL_OUT="$work" BENCH_COLL_SHAPES=4x4t BENCH_COLL_MAX=32 BENCH_COLL_ONLY="bcast alltoall" \
    sim/mesh/bench_coll.sh >"$work/bench.out" 2>&1
rc=$?
json="$work/coll.json"
svg="$work/coll.svg"
if [ $rc -ne 0 ] || [ ! -s "$json" ]; then
    echo "FAIL bench-coll-runs: exit $rc (see $work/bench.out): $(tail -n 3 "$work/bench.out" | tr '\n' ' ')"
    exit 1
fi
echo "PASS bench-coll-runs (exit 0, $json)"

# a run per schedule and size: 4 broadcasts (bcast-edst:8 and :32 need larger blocks, so
# none) and 2 alltoalls at 16 and 32 bytes
want="tsay-wang:16 tsay-wang:32 bcast-edst:16 bcast-edst:32 bcast-binomial:16 bcast-binomial:32 te-a3:16 te-a3:32 alltoall-pairwise:16 alltoall-pairwise:32"
missing=""
for w in $want; do
    a=${w%:*}; m=${w#*:}
    grep -q "\"shape\": \"4x4t\", \"collective\": \"[a-z]*\", \"algorithm\": \"$a\", \"role\": \"[a-z]*\", \"block_bytes\": $m, \"cycles\": [1-9][0-9]*, \"bound_cycles\": [0-9.]*, \"efficiency\": [0-9.]*, \"setup_cycles\": [1-9][0-9]*, \"first_call_cycles\": [1-9][0-9]*, \"steps\": [1-9][0-9]*, \"delivery\": \"OK\"" "$json" ||
        missing="$missing $w"
done
runs=$(grep -c '"shape": "4x4t"' "$json")
if [ -z "$missing" ] && [ "$runs" -eq 10 ]; then
    echo "PASS bench-coll-json (10 runs, every field, delivery OK)"
else
    echo "FAIL bench-coll-json: $runs runs; missing or incomplete:${missing:- none} (see $json)"
fi

bad_eff=$(grep -o '"efficiency": [0-9.]*' "$json" | awk '{ if ($2 <= 0 || $2 > 1) print $2 }' | head -n 3 | tr '\n' ' ')
# broadcasts share one bound per size (the cut-message bound), whatever the schedule
bounds=$(grep '"collective": "bcast"' "$json" | grep '"block_bytes": 32,' | grep -o '"bound_cycles": [0-9.]*' | sort -u | wc -l)
if [ -z "$bad_eff" ] && [ "$bounds" -eq 1 ]; then
    echo "PASS bench-coll-bounds (efficiencies in (0, 1]; one broadcast bound per size)"
else
    echo "FAIL bench-coll-bounds: efficiencies outside (0, 1]: '${bad_eff}'; $bounds broadcast bounds at 32 B (want 1)"
fi

if grep -q '"model_fit": {"call": [0-9.-]*, "alpha": [0-9.-]*, "gamma": [0-9.-]*, "beta": [0-9.-]*, "jobs": 5,' "$json"; then
    echo "PASS bench-coll-fit (refitted on the 5 timed 16-byte calls)"
else
    echo "FAIL bench-coll-fit: $(grep -o '"model_fit": {[^}]*}' "$json")"
fi

paths=$(grep -c '<path ' "$svg" 2>/dev/null)
if head -c 4 "$svg" 2>/dev/null | grep -q '<svg' && tail -n 1 "$svg" | grep -q '</svg>' && [ "${paths:-0}" -eq 5 ] &&
        grep -q 'stroke-dasharray' "$svg"; then
    echo "PASS bench-coll-svg (5 curves, baselines dashed)"
else
    echo "FAIL bench-coll-svg: ${paths:-0} curves in $svg (want 5: 3 broadcasts and 2 alltoalls)"
fi
