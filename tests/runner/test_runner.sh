#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The test runner (tests/run.sh) and the shared helpers (tests/lib.sh, tests/firmware/lib.sh)
# tested with planted failures: each kind of failure the suite once swallowed (a program that
# no longer builds, a test driver that crashes, a missing simulator, a missing tool, a script
# that prints nothing, one that exits non-zero after its checks, one that hangs) is planted in
# a test tree of its own, and the runner's summary must turn red, name it, and exit non-zero.
# A clean tree with a skipped check must stay green and count the skip. A filter that matches
# no script must fail.
set -u
. tests/lib.sh
work="$BUILD/tests/runner-selftest"
rm -rf "$work"
mkdir -p "$work"
# the planted scripts build into a build folder of their own (no node-sim there)
pbuild="$work/build"

# plant NAME: a test tree $work/NAME with one script, test_planted.sh, read from stdin
plant() {
    mkdir -p "$work/$1"
    cat >"$work/$1/test_planted.sh"
}

# runner NAME [FILTER]: runs the runner on tree NAME; sets out (its output) and rc
runner() {
    TESTS_DIR="$work/$1" BUILD="$pbuild" TEST_JOBS=2 env -u TEST_TIMEOUT tests/run.sh "${2:-}" >"$work/$1.out" 2>&1
    rc=$?
    out="$work/$1.out"
}

# expect_red NAME SUMMARY_REGEX WHY_REGEX: the runner must exit non-zero, end with a summary
# matching SUMMARY_REGEX and say WHY_REGEX somewhere in its output
expect_red() {
    local name="$1" summary="$2" why="$3"
    runner "$name"
    if [ "$rc" -eq 0 ]; then
        fail "runner-red-$name" "the runner exited 0 on a planted failure: $(tail_of "$out" 2)"
    elif ! tail -n 1 "$out" | grep -Eq "^$summary\$"; then
        fail "runner-red-$name" "last line '$(tail -n 1 "$out")' does not match /$summary/"
    elif ! grep -Eq -- "$why" "$out"; then
        fail "runner-red-$name" "the output does not say /$why/: $(grep -m 3 FAIL "$out" | tr '\n' ' ')"
    else
        pass "runner-red-$name"
    fi
}

# --- a program that no longer compiles, built with build_elf (tests/lib.sh)
mkdir -p "$work/src"
printf 'int main(void) { return this is not C; }\n' >"$work/src/broken.c"
plant build-break <<EOF
. tests/lib.sh
if build_elf $work/src/broken.c broken-program "\$BUILD/planted.log"; then
    pass "a check on the program that must not run"
fi
EOF
expect_red build-break "0 passed, 1 failed, 0 skipped" "FAIL broken-program: cannot build $work/src/broken.c"

# --- a C test driver that prints a PASS line and then crashes (run_driver, tests/lib.sh)
printf '#include <stdio.h>\n#include <signal.h>\nint main(void){ printf("PASS before the crash\\n"); raise(SIGSEGV); return 0; }\n' \
    >"$work/src/crash.c"
if ! cc -o "$work/crash" "$work/src/crash.c" 2>"$work/crash.log"; then
    fail "runner-red-driver-crash" "cannot build the planted driver: $(tail_of "$work/crash.log")"
else
    plant driver-crash <<EOF
. tests/lib.sh
run_driver planted-driver "\$BUILD/driver.out" $work/crash
EOF
    # (the PASS line sat in stdio's buffer when the signal came: lost, as a real crash loses it)
    expect_red driver-crash "0 passed, 1 failed, 0 skipped" "FAIL planted-driver: .*killed by signal 11"
fi

# --- a driver that exits 0 but prints no check
plant driver-silent <<'EOF'
. tests/lib.sh
run_driver silent-driver "$BUILD/silent.out" true
EOF
expect_red driver-silent "0 passed, 1 failed, 0 skipped" "FAIL silent-driver: true ran no check"

# --- a script that is itself killed by a signal after a PASS line
plant script-crash <<'EOF'
echo "PASS before the signal"
kill -SEGV $$
EOF
expect_red script-crash "1 passed, 1 failed, 0 skipped" "killed by signal 11"

# --- a missing simulator: the firmware tests' helper (tests/firmware/lib.sh) in a build
# folder with no node-sim; and need_exe
plant missing-sim <<'EOF'
. tests/lib.sh
. tests/firmware/lib.sh
NODE_SIM="$BUILD/bin/no-node-sim-here"
if need_node_sim isa-on-node-sim; then pass "a node-sim check that must not run"; fi
if need_exe mesh-check "$BUILD/bin/mesh-sim" "mesh-sim (make mesh-sim)"; then pass "a mesh-sim check that must not run"; fi
EOF
expect_red missing-sim "0 passed, 2 failed, 0 skipped" "FAIL isa-on-node-sim: node-sim not built"

# --- a missing tool: a FAIL, never a pass or a note
plant missing-tool <<'EOF'
. tests/lib.sh
if need_tool synth rvmesh-no-such-tool; then pass "a check that needs the tool"; fi
EOF
expect_red missing-tool "0 passed, 1 failed, 0 skipped" "FAIL synth: rvmesh-no-such-tool is not installed"

# --- empty output and exit 0: ran no check
plant empty <<'EOF'
exit 0
EOF
expect_red empty "0 passed, 1 failed, 0 skipped" "ran no check"

# --- only a note, exit 0 (the old way of skipping): ran no check
plant note-only <<'EOF'
echo "note: yosys not installed; check skipped"
EOF
expect_red note-only "0 passed, 1 failed, 0 skipped" "ran no check"

# --- PASS lines, then a non-zero exit without a FAIL line
plant exit-after-pass <<'EOF'
echo "PASS one"
echo "PASS two"
exit 3
EOF
expect_red exit-after-pass "2 passed, 1 failed, 0 skipped" "exited with status 3 after its checks"

# --- a script that hangs: killed at its limit, named
plant hang <<'EOF'
# test-timeout: 2
echo "PASS before hanging"
sleep 60
EOF
start=$SECONDS
expect_red hang "1 passed, 1 failed, 0 skipped" "FAIL $work/hang/test_planted.sh: timed out after 2 s"
if [ $((SECONDS - start)) -lt 30 ]; then pass "runner-timeout-stops-the-script ($((SECONDS - start)) s)"
else fail "runner-timeout-stops-the-script" "took $((SECONDS - start)) s for a 2 s limit"; fi

# --- a green tree: a pass and a skip; the skip is counted and listed, the summary green
plant green <<'EOF'
. tests/lib.sh
end=$((SECONDS + 2)); while [ "$SECONDS" -lt "$end" ]; do :; done   # CPU seconds to count
pass "the one check"
skip "a check that does not apply" "only on a mesh"
EOF
runner green
if [ "$rc" -eq 0 ] && [ "$(tail -n 1 "$out")" = "1 passed, 0 failed, 1 skipped" ] &&
        grep -q "test_planted.sh: a check that does not apply: only on a mesh" "$out" &&
        grep -q "^slowest scripts" "$out"; then
    pass "runner-green-with-skip"
else
    fail "runner-green-with-skip" "exit $rc: $(tail -n 3 "$out" | tr '\n' ' ')"
fi

# the script's CPU seconds beside its wall seconds (a busy loop of 1-2 s: at least 1 CPU second)
cpu=$(sed -n 's/.*(\([0-9]*\)s, \([0-9]*\)s CPU, log .*/\2/p' "$out")
if [ -n "$cpu" ] && [ "$cpu" -ge 1 ] && grep -qE '^ +[0-9]+ s +[0-9]+ s CPU  .*test_planted.sh$' "$out"; then
    pass "runner-reports-cpu-seconds ($cpu s of a busy loop)"
else
    fail "runner-reports-cpu-seconds" "$(grep -E 'CPU|slowest' "$out" | tr '\n' ' ')"
fi

# --- two lanes: a script marked "# test-lane: beside" runs at the same time as the others
# (each of the two waits for a file the other writes: run one after the other, the first
# would wait its 10 s out and fail); its checks, its FAIL and its skip are counted and named
mkdir -p "$work/lanes"
cat >"$work/lanes/test_a_main.sh" <<EOF
. tests/lib.sh
: >"$work/lanes/main.here"
for _ in \$(seq 100); do [ -e "$work/lanes/beside.here" ] && break; sleep 0.1; done
[ -e "$work/lanes/beside.here" ] && pass "main saw beside" || fail "main saw beside" "the beside script never ran"
EOF
cat >"$work/lanes/test_b_beside.sh" <<EOF
# test-lane: beside
. tests/lib.sh
: >"$work/lanes/beside.here"
for _ in \$(seq 100); do [ -e "$work/lanes/main.here" ] && break; sleep 0.1; done
[ -e "$work/lanes/main.here" ] && pass "beside saw main" || fail "beside saw main" "not run beside the main lane"
fail "a planted failure beside" "planted"
skip "a planted skip beside" "planted"
EOF
rm -f "$work"/lanes/*.here
runner lanes
if [ "$rc" -ne 0 ] && [ "$(tail -n 1 "$out")" = "2 passed, 1 failed, 1 skipped" ] &&
        grep -q "^== .*test_b_beside.sh (beside)" "$out" && grep -q "FAIL a planted failure beside: planted" "$out" &&
        grep -q "test_b_beside.sh: a planted skip beside: planted" "$out" &&
        grep -A3 "^failing scripts" "$out" | grep -q "test_b_beside.sh"; then
    pass "runner-second-lane (a beside script ran at the same time; its fail and skip counted and named)"
else
    fail "runner-second-lane" "exit $rc: $(grep -E 'FAIL|passed' "$out" | tr '\n' ' ')"
fi
# TEST_JOBS=1: every script in turn (the main one, first in sorted order, waits its 10 s out)
rm -f "$work"/lanes/*.here
TESTS_DIR="$work/lanes" BUILD="$pbuild" TEST_JOBS=1 tests/run.sh >"$work/lanes1.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q "FAIL main saw beside: the beside script never ran" "$work/lanes1.out" &&
        ! grep -q "(beside)" "$work/lanes1.out"; then
    pass "runner-test-jobs-1-runs-in-turn"
else
    fail "runner-test-jobs-1-runs-in-turn" "exit $rc: $(grep -E 'FAIL|passed' "$work/lanes1.out" | tr '\n' ' ')"
fi
if TESTS_DIR="$work/lanes" BUILD="$pbuild" TEST_JOBS=3 tests/run.sh >"$work/lanes3.out" 2>&1; then
    fail "runner-refuses-bad-test-jobs" "TEST_JOBS=3 accepted"
elif grep -q "TEST_JOBS wants 1 or 2, got '3'" "$work/lanes3.out"; then
    pass "runner-refuses-bad-test-jobs"
else
    fail "runner-refuses-bad-test-jobs" "$(tail_of "$work/lanes3.out")"
fi

# --- a filter that matches nothing: an error that lists the scripts, not "0 passed"
runner green no-such-script
if [ "$rc" -ne 0 ] && grep -q "no test script matches 'no-such-script'" "$out" &&
        grep -q "test_planted.sh" "$out" && [ "$(tail -n 1 "$out")" = "0 passed, 1 failed, 0 skipped" ]; then
    pass "runner-filter-matches-nothing"
else
    fail "runner-filter-matches-nothing" "exit $rc: $(tail -n 3 "$out" | tr '\n' ' ')"
fi
# and make test T=... goes through the same runner
if grep -q 'tests/run.sh $(T)' Makefile; then pass "make-test-uses-the-runner"
else fail "make-test-uses-the-runner" "the Makefile's test target does not run tests/run.sh \$(T)"; fi
