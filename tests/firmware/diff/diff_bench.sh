#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# diff_bench.sh FIRST COUNT: the long differential run of `make bench` (bench-diff).
# Generates and compares seeds FIRST..FIRST+COUNT-1 in batches of 100, prints progress,
# keeps the programs of failing seeds and deletes the others, and writes
# $BUILD/bench/diff.json: {"first_seed", "count", "run", "passed", "failed",
# "failing_seeds", "length", "seconds"}.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/firmware/lib.sh
first="$1"
count="$2"
export DIFF_LENGTH="${DIFF_LENGTH:-3000}"
batch=100
dir="$BUILD/diff/len$DIFF_LENGTH"
mkdir -p "$BUILD/bench" "$dir"
have_qemu || { echo "bench-diff: $QEMU_BIN not installed" >&2; exit 1; }
have_node_sim || make -s node-sim || { node_sim_missing_reason >&2; exit 1; }

start=$SECONDS
run=0 passed=0
failing=()
log="$BUILD/bench/diff.log"
: >"$log"
seed=$first
last=$((first + count - 1))
while [ "$seed" -le "$last" ]; do
    n=$((last - seed + 1))
    [ "$n" -gt "$batch" ] && n=$batch
    make -s -j2 diff-elfs DIFF_FIRST="$seed" DIFF_COUNT="$n" DIFF_LENGTH="$DIFF_LENGTH" >>"$log" 2>&1 ||
        { echo "bench-diff: building seeds $seed.. failed (see $log)" >&2; exit 1; }
    results=$(seq "$seed" $((seed + n - 1)) | xargs -P 2 -n 1 tests/firmware/diff/diff_one.sh)
    echo "$results" >>"$log"
    p=$(grep -c '^PASS ' <<<"$results")
    run=$((run + n))
    passed=$((passed + p))
    while read -r failed_seed; do
        [ -n "$failed_seed" ] && failing+=("$failed_seed")
    done < <(sed -n 's/^FAIL diff\/seed_\([0-9]*\):.*/\1/p' <<<"$results")
    grep '^FAIL ' <<<"$results" | head -n 3
    # keep only the failing seeds' programs
    for s in $(seq "$seed" $((seed + n - 1))); do
        if ! printf '%s\n' "${failing[@]:-}" | grep -qx "$s"; then
            rm -f "$dir/seed_$s.S" "$dir/seed_$s.elf"
        fi
    done
    echo "bench-diff: $run/$count programs run, $passed passed ($((SECONDS - start)) s)"
    seed=$((seed + n))
done

failed=$((run - passed))
seeds_json=$(printf '%s,' "${failing[@]:-}" | sed 's/,$//')
cat >"$BUILD/bench/diff.json" <<JSON
{
  "benchmark": "differential test: random RV32IM programs, node-sim vs qemu",
  "first_seed": $first,
  "count": $count,
  "run": $run,
  "passed": $passed,
  "failed": $failed,
  "failing_seeds": [$seeds_json],
  "length": $DIFF_LENGTH,
  "seconds": $((SECONDS - start))
}
JSON
printf '%-28s %8s %8s %8s\n' "bench-diff" "run" "passed" "failed"
printf '%-28s %8d %8d %8d\n' "seeds $first..$last" "$run" "$passed" "$failed"
echo "bench-diff: wrote $BUILD/bench/diff.json"
