# Shared by the tests/firmware/**/test_*.sh scripts (sourced, not run).
#
# Runs a firmware ELF on node-sim or on qemu-system-riscv32 and leaves its console output
# in a file; the exit status is the program's status.

BUILD="${BUILD:-build}"
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

# The line every script prints when the simulator is missing (never a silent pass).
node_sim_missing_reason() { echo "node-sim not built: run make node-sim ($NODE_SIM missing)"; }

# Build node-sim when its make target exists; quiet if it does not (yet).
try_build_node_sim() {
    make -s node-sim >/dev/null 2>&1 || true
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

# Last few lines of a file, joined, for a FAIL reason.
tail_of() { tail -n "${2:-3}" "$1" 2>/dev/null | tr '\n' '|' | cut -c1-300; }

# make with this fragment, whether or not the top-level Makefile includes it yet.
fw_make() {
    if grep -q 'tests/firmware/firmware-tests.mk' Makefile 2>/dev/null; then
        make -s "$@"
    else
        make -s -f Makefile -f tests/firmware/firmware-tests.mk "$@"
    fi
}
