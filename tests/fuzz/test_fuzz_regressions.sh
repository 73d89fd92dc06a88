#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The fuzz harnesses' inputs replayed without libFuzzer (tests/fuzz/README.md): every seed
# (tests/fuzz/seeds/<harness>/) and every input that once crashed a loader
# (tests/fuzz/crashes/<harness>/) through the same code built with AddressSanitizer and
# UndefinedBehaviorSanitizer and a plain main (replay_main.c); any crash or report fails.
# Needs clang (make deps installs it); without it every check is a SKIP, never a pass.
# test-timeout: 300
source tests/lib.sh
HARNESSES="sched_table elf job_spec schedgen_args"
OUT=$BUILD/tests/fuzz
mkdir -p "$OUT"

if ! command -v clang >/dev/null 2>&1; then
  for h in $HARNESSES; do
    skip "fuzz-replay/$h" "clang is not installed: the harnesses need Debian's clang (make deps installs clang, libclang-rt-dev)"
  done
  exit 0
fi

# the sanitizers are live: an out-of-bounds read through the same driver must stop it
cat >"$OUT/planted.c" <<'C'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    volatile uint8_t x = size ? data[size] : 0;   /* one past the end */
    (void)x;
    return 0;
}
C
printf 'abc' >"$OUT/planted.in"
if ! clang -g -fsanitize=address,undefined -fno-sanitize-recover=all "$OUT/planted.c" tests/fuzz/replay_main.c \
     -o "$OUT/planted" >"$OUT/planted.log" 2>&1; then
  fail fuzz-replay/sanitizers-live "clang cannot build with -fsanitize=address,undefined: $(tail_of "$OUT/planted.log")"
elif "$OUT/planted" "$OUT/planted.in" >"$OUT/planted.out" 2>&1; then
  fail fuzz-replay/sanitizers-live "a read past the input went unnoticed by the replay driver"
elif grep -q 'heap-buffer-overflow' "$OUT/planted.out"; then
  pass fuzz-replay/sanitizers-live
else
  fail fuzz-replay/sanitizers-live "the planted read failed without an AddressSanitizer report: $(tail_of "$OUT/planted.out")"
fi

make_or_fail fuzz-replay/build "$OUT/build.log" fuzz-replay-build || exit 0

for h in $HARNESSES; do
  dirs=(tests/fuzz/seeds/$h)
  [ -d tests/fuzz/crashes/$h ] && dirs+=(tests/fuzz/crashes/$h)
  nseeds=$(find tests/fuzz/seeds/$h -type f | wc -l)
  ncrash=$( [ -d tests/fuzz/crashes/$h ] && find tests/fuzz/crashes/$h -type f | wc -l || echo 0)
  if [ "$nseeds" -eq 0 ]; then
    fail "fuzz-replay/$h" "no seeds in tests/fuzz/seeds/$h (make fuzz-seeds)"
    continue
  fi
  log=$OUT/$h.log
  # the loaders' messages about the bad inputs go to the log
  if ! timeout 120 "$BUILD/fuzz/bin/replay-$h" "${dirs[@]}" >"$log.out" 2>"$log"; then
    fail "fuzz-replay/$h" "crashed or a sanitizer report on $(grep '^replay: ' "$log" | tail -n 1 | cut -c9-): $(grep -m1 -E 'ERROR|runtime error' "$log")"
  elif ! grep -qx "replayed $((nseeds + ncrash)) inputs" "$log.out"; then
    fail "fuzz-replay/$h" "expected $((nseeds + ncrash)) inputs replayed, got: $(cat "$log.out")"
  else
    pass "fuzz-replay/$h ($nseeds seeds, $ncrash kept crash inputs)"
  fi
done
