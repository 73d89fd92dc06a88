# SPDX-License-Identifier: ISC
# Shared by every tests/**/test_*.sh (sourced, not run): the check lines tests/run.sh counts,
# and helpers built so that a failure can never vanish.
#
# A check is one line on stdout:
#     PASS <name>                  the check ran and held
#     FAIL <name>: <why>           the check ran and failed, or could not run
#     SKIP <name>: <why>           the check does not apply here (never for a missing tool:
#                                  make test installs every tool, so that is a FAIL)
# Helpers that build or run something print their FAIL line themselves and return 1; call
# them in the current shell (`if build_elf ...; then`), never inside $(...), where a FAIL
# line would become a value instead of a check.

BUILD="${BUILD:-build}"

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# tail_of FILE [N]: the last N (3) lines of FILE on one line, for a FAIL reason.
tail_of() { tail -n "${2:-3}" "$1" 2>/dev/null | tr '\n' '|' | cut -c1-300; }

# need_tool CHECK TOOL...: returns 0 when every TOOL is on PATH; otherwise prints
# "FAIL CHECK: TOOL is not installed" and returns 1.
need_tool() {
    local check="$1" tool
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 && continue
        fail "$check" "$tool is not installed (make deps installs it)"
        return 1
    done
}

# need_exe CHECK FILE [WHAT]: returns 0 when FILE is an executable file; otherwise
# "FAIL CHECK: WHAT missing (...)" and 1.
need_exe() {
    [ -x "$2" ] && return 0
    fail "$1" "${3:-$2} missing ($2 is not an executable file)"
    return 1
}

# make_or_fail CHECK LOG TARGET...: `make -s TARGET...` with its output appended to LOG;
# on failure "FAIL CHECK: make TARGET failed: <last lines>" and 1.
make_or_fail() {
    local check="$1" log="$2"
    shift 2
    mkdir -p "$(dirname "$log")"
    make -s "$@" >>"$log" 2>&1 && return 0
    fail "$check" "make $* failed: $(tail_of "$log" 4) (log $log)"
    return 1
}

# build_elf SOURCE CHECK LOG: builds SOURCE (a .c or .S file of the tree) into
# $BUILD/fw/<path>.elf through the firmware rules and sets `elf` to that path; on failure
# "FAIL CHECK: cannot build SOURCE" and 1.
build_elf() {
    elf="$BUILD/fw/${1%.*}.elf"
    mkdir -p "$(dirname "$3")"
    make -s "$elf" >>"$3" 2>&1 && [ -f "$elf" ] && return 0
    fail "$2" "cannot build $1: $(grep -m 2 -E 'error|Error' "$3" | tr '\n' ' ' | cut -c1-240) (log $3)"
    return 1
}

# verilator_testbench NAME TOP SPEED SOURCE...: builds the Verilog testbench TOP with
# `verilator --binary --timing` in $BUILD/tests/NAME (SPEED: o0 compiles the C++ at -O0,
# which suits a run of under a second; opt keeps Verilator's optimisation and builds on 2
# jobs), runs it, passes on its PASS/FAIL lines, and adds "FAIL NAME-done" unless the run
# ends with "DONE 0 failed checks" (a testbench that stopped early cannot pass); a failed
# build is "FAIL NAME-build" and 1.
verilator_testbench() {
    local name="$1" top="$2" speed="$3" work="$BUILD/tests/$1"
    shift 3
    mkdir -p "$work"
    local opt=(-j 2)
    [ "$speed" = o0 ] && opt=(-MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0")
    if ! verilator --binary --timing -Wno-fatal -Wno-lint -Wno-style --top-module "$top" "${opt[@]}" \
            -Mdir "$work/obj" "$@" >"$work/build.log" 2>&1; then
        fail "$name-build" "verilator failed ($(grep -m 3 -i error "$work/build.log" | tr '\n' ' '))"
        return 1
    fi
    "$work/obj/V$top" >"$work/run.log" 2>&1
    grep -E '^(PASS|FAIL) ' "$work/run.log"
    grep -q '^DONE 0 failed checks' "$work/run.log" ||
        fail "$name-done" "the testbench did not finish cleanly ($(tail -n 2 "$work/run.log" | tr '\n' ' '))"
}

# run_driver NAME OUT CMD [ARGS...]: runs a test driver (a program that prints its own
# PASS/FAIL/SKIP lines), its output kept in OUT and its check lines passed on. A driver
# that exits non-zero (a crash: a signal, an abort) or prints no check at all adds
# "FAIL NAME: ..." naming how it ended, so the lines a crash cut short cannot hide it.
run_driver() {
    local name="$1" out="$2" rc
    shift 2
    mkdir -p "$(dirname "$out")"
    "$@" >"$out" 2>&1
    rc=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$out"
    if [ "$rc" -gt 128 ]; then
        fail "$name" "$1 was killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null)) after $(grep -c '^PASS ' "$out") passing checks: $(tail_of "$out" 2)"
        return 1
    elif [ "$rc" -ne 0 ]; then
        grep -q '^FAIL ' "$out" ||
            fail "$name" "$1 exited with status $rc without a FAIL line: $(tail_of "$out" 2)"
        return 1
    elif ! grep -qE '^(PASS|FAIL|SKIP) ' "$out"; then
        fail "$name" "$1 ran no check (no PASS/FAIL line in $out)"
        return 1
    fi
}
