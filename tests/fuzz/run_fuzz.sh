#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make fuzz: runs each libFuzzer harness (built by tests/fuzz/fuzz.mk) for FUZZ_RUNS
# executions from its seeds (tests/fuzz/seeds/<harness>) and the kept crash inputs
# (tests/fuzz/crashes/<harness>), prints a table and writes $BUILD/bench/fuzz.json.
# A crash, sanitizer report, leak or timeout stops that harness: its input is left in
# $BUILD/fuzz/artifacts/<harness>/ (fix the code, then keep the input in
# tests/fuzz/crashes/<harness>/ as a regression case) and the run exits 1.
# Usage: tests/fuzz/run_fuzz.sh HARNESS...   (FUZZ_RUNS, FUZZ_SEED: 1, BUILD)
set -u
B=${BUILD:-build}
RUNS=${FUZZ_RUNS:-1000000}
SEED=${FUZZ_SEED:-1}
JSON=$B/bench/fuzz.json
mkdir -p "$B/bench"
rows=()
json_rows=()
failed=0
for h in "$@"; do
  bin=$B/fuzz/bin/fuzz-$h
  [ -x "$bin" ] || { echo "run_fuzz: $bin not built (make fuzz-build)" >&2; exit 1; }
  corpus=$B/fuzz/corpus/$h
  art=$B/fuzz/artifacts/$h
  log=$B/fuzz/$h.log
  mkdir -p "$corpus" "$art"
  seeds=(tests/fuzz/seeds/$h)
  [ -d tests/fuzz/crashes/$h ] && seeds+=(tests/fuzz/crashes/$h)
  before=$(ls "$art" | wc -l)
  echo "fuzz-$h: $RUNS executions (log: $log)"
  t0=$(date +%s.%N)
  # -close_fd_mask=2: the loaders' own messages are dropped; libFuzzer's lines and any
  # sanitizer report still reach the log
  nice -n 10 "$bin" -runs="$RUNS" -seed="$SEED" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 \
    -print_final_stats=1 -artifact_prefix="$art/" "$corpus" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  [ -n "$execs" ] || execs=$(grep -o '#[0-9]*' "$log" | tail -n 1 | tr -d '#')
  [ -n "$execs" ] || execs=0
  crashes=$(( $(ls "$art" | wc -l) - before ))
  if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes=1; fi
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  rate=$(awk -v n="$execs" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')
  ncorpus=$(ls "$corpus" | wc -l)
  if [ "$crashes" -ne 0 ]; then
    failed=1
    echo "fuzz-$h: CRASH (exit $rc) after $execs executions; inputs in $art/, report in $log:" >&2
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -n 8 >&2
  fi
  rows+=("$(printf '%-16s %12s %10.0f %8s %8s %9.1f' "$h" "$execs" "$rate" "$crashes" "$ncorpus" "$secs")")
  json_rows+=("$(printf '{"harness": "%s", "executions": %s, "exec_per_s": %.0f, "crashes": %s, "corpus": %s, "seconds": %.1f}' \
               "$h" "$execs" "$rate" "$crashes" "$ncorpus" "$secs")")
done
echo
printf '%-16s %12s %10s %8s %8s %9s\n' harness executions exec/s crashes corpus seconds
printf '%s\n' "${rows[@]}"
{
  printf '{\n  "runs_requested": %s,\n  "seed": %s,\n  "harnesses": [\n' "$RUNS" "$SEED"
  for i in "${!json_rows[@]}"; do
    printf '    %s%s\n' "${json_rows[$i]}" "$([ "$i" -lt $((${#json_rows[@]} - 1)) ] && echo ,)"
  done
  printf '  ]\n}\n'
} >"$JSON"
echo "fuzz: $JSON"
exit "$failed"
