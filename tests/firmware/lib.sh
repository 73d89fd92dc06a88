# SPDX-License-Identifier: ISC
# Shared by the tests/firmware/**/test_*.sh scripts (sourced, not run).
#
# Runs a firmware ELF on node-sim or on qemu-system-riscv32 and leaves its console output
# in a file; the exit status is the program's status.

. tests/lib.sh
NODE_SIM="${NODE_SIM:-$BUILD/bin/node-sim}"
# Per-run cycle limit on node-sim (a hung program ends with status 125-ish instead of
# hanging the test run).
NODE_SIM_MAX_CYCLES="${NODE_SIM_MAX_CYCLES:-200000000}"
# qemu as an RV32IM machine-mode-only hart (no C, so misaligned jump targets trap as on
# the core); -icount makes minstret/mcycle count instructions exactly.
QEMU_BIN="${QEMU_BIN:-qemu-system-riscv32}"
QEMU_CPU="rv32,c=false,a=false,f=false,d=false,h=false,s=false,u=false"
QEMU_TIMEOUT="${QEMU_TIMEOUT:-30}"

have_qemu() { command -v "$QEMU_BIN" >/dev/null 2>&1; }
have_node_sim() { [ -x "$NODE_SIM" ]; }

# The reason every script gives when the simulator is missing (never a silent pass).
node_sim_missing_reason() { echo "node-sim not built: run make node-sim ($NODE_SIM missing)"; }

# need_node_sim CHECK: 0 when $NODE_SIM is there; otherwise "FAIL CHECK: node-sim not built" and 1.
need_node_sim() {
    have_node_sim && return 0
    echo "FAIL $1: $(node_sim_missing_reason)"
    return 1
}

# need_qemu CHECK: 0 when qemu-system-riscv32 is installed; otherwise a FAIL line and 1
# (make test installs it: a missing reference is a failure, not a note).
need_qemu() {
    have_qemu && return 0
    echo "FAIL $1: $QEMU_BIN not installed (make deps installs qemu-system-misc)"
    return 1
}

# build_node_sim CHECK: make node-sim; a failed build is "FAIL CHECK: ..." and 1, so that no
# script runs against a stale simulator.
build_node_sim() {
    mkdir -p "$BUILD/tests"
    make -s node-sim >"$BUILD/tests/node-sim-build.log" 2>&1 && have_node_sim && return 0
    echo "FAIL $1: make node-sim failed: $(tail -n 3 "$BUILD/tests/node-sim-build.log" | tr '\n' ' ' | cut -c1-240)"
    return 1
}

# run_qemu ELF OUTFILE [extra qemu args...]: console -> OUTFILE, returns program status.
run_qemu() {
    local elf="$1" out="$2"
    shift 2
    timeout "$QEMU_TIMEOUT" "$QEMU_BIN" -machine virt -cpu "$QEMU_CPU" -bios none \
        -nographic -monitor none -serial stdio "$@" -kernel "$elf" </dev/null >"$out" 2>"$out.err"
}

# run_node ELF OUTFILE: console -> OUTFILE, simulator summary -> OUTFILE.err.
run_node() {
    local elf="$1" out="$2"
    "$NODE_SIM" --elf "$elf" --max-cycles "$NODE_SIM_MAX_CYCLES" </dev/null >"$out" 2>"$out.err"
}


# no_allocation CHECK OBJECT: PASS when the RV32 object file exists, nm reads it and finds its
# own symbols, and it calls none of malloc, calloc, realloc, free; a FAIL otherwise (an nm that
# prints nothing proves nothing).
no_allocation() {
    local check="$1" obj="$2" defined undefined
    if [ ! -f "$obj" ]; then fail "$check" "$obj was not built"; return 1; fi
    if ! defined=$(riscv64-unknown-elf-nm --defined-only "$obj" 2>&1) || [ -z "$defined" ]; then
        fail "$check" "nm finds no symbols in $obj: $defined"; return 1
    fi
    if ! undefined=$(riscv64-unknown-elf-nm -u "$obj" 2>&1); then
        fail "$check" "nm -u $obj failed: $undefined"; return 1
    fi
    local allocs
    allocs=$(grep -Ew 'malloc|calloc|realloc|free' <<<"$undefined" | awk '{print $NF}' | tr '\n' ' ')
    if [ -n "$allocs" ]; then fail "$check" "calls $allocs"; return 1; fi
    pass "$check: no dynamic allocation ($(wc -l <<<"$defined") symbols of its own, none of malloc/calloc/realloc/free called)"
}
