#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# node-sim's command line, ELF loader, exit statuses, console, trace and summary line.
set -u
. tests/lib.sh
sim="$BUILD/bin/node-sim"
work="$BUILD/tests/sim-node"
progs=tests/sim/node/progs
mkdir -p "$work"

if ! make -s node-sim >"$work/make.log" 2>&1; then
    echo "FAIL node-sim-build: make node-sim failed (see $work/make.log)"
    exit 1
fi
echo "PASS node-sim-build"

# run NAME EXPECTED_STATUS STDERR_PATTERN ARGS...: runs node-sim, checks status and stderr
run() {
    local name="$1" want="$2" pattern="$3"
    shift 3
    "$sim" "$@" >"$work/$name.out" 2>"$work/$name.err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL $name: exit status $got, expected $want ($(head -c 300 "$work/$name.err"))"
    elif ! grep -Eq -- "$pattern" "$work/$name.err"; then
        echo "FAIL $name: stderr does not match /$pattern/: $(head -c 300 "$work/$name.err")"
    else
        echo "PASS $name"
    fi
}

# --- command line (120) ---
run cli-unknown-flag 120 "unknown argument '--bogus'.*|usage: node-sim --elf FILE" --bogus
run cli-missing-value 120 "--elf needs a file name" --elf
run cli-no-elf 120 "--elf FILE is required"
run cli-bad-max-cycles 120 "--max-cycles takes a positive decimal number" --elf x --max-cycles 12abc
"$sim" --help >"$work/help.out" 2>&1
if [ $? -eq 0 ] && grep -q "^  126 " "$work/help.out" && grep -q -- "--max-cycles N" "$work/help.out"; then
    echo "PASS cli-help"
else
    echo "FAIL cli-help: --help must exit 0 and list the options and exit statuses"
fi

# --- files (121, 122, 123, 124) ---
run file-missing 121 "cannot open '$work/does-not-exist.elf'" --elf "$work/does-not-exist.elf"
printf 'this is not an ELF file\n' >"$work/not-elf.txt"
run file-not-elf 122 "is not an ELF file" --elf "$work/not-elf.txt"

# a 64-bit RISC-V ELF and a 32-bit ELF of another machine (e_machine patched to EM_386)
if riscv64-unknown-elf-gcc -march=rv64i -mabi=lp64 -nostdlib -Ttext=0x80000000 \
       -o "$work/rv64.elf" "$progs/spin.S" 2>"$work/rv64.log"; then
    run file-rv64 123 "64-bit ELF" --elf "$work/rv64.elf"
else
    echo "FAIL file-rv64: cannot build an rv64 ELF: $(head -c 200 "$work/rv64.log")"
fi
if build_elf "$progs/spin.S" file-other-machine "$work/make.log" && spin_elf=$elf; then
    cp "$spin_elf" "$work/em386.elf"
    printf '\003\000' | dd of="$work/em386.elf" bs=1 seek=18 conv=notrunc status=none
    run file-other-machine 123 "machine 3, not RISC-V" --elf "$work/em386.elf"
fi

# a segment one word larger than the RAM (RAM size and base from --help)
ram_line=$("$sim" --help | grep -o '[0-9]* bytes of RAM at 0x[0-9a-f]*')
ram_bytes=$(echo "$ram_line" | awk '{print $1}')
ram_base=$(echo "$ram_line" | awk '{print $6}')
if riscv64-unknown-elf-gcc -march=rv32i -mabi=ilp32 -nostdlib -Ttext="$ram_base" \
       -DTOO_BIG_BYTES="$ram_bytes" -o "$work/too-big.elf" "$progs/too_big.S" 2>"$work/too-big.log"; then
    run file-too-big 124 "segment 0 \[0x[0-9a-f]+, 0x[0-9a-f]+\) .* does not fit in RAM \[$ram_base, 0x" \
        --elf "$work/too-big.elf"
else
    echo "FAIL file-too-big: cannot build the test ELF: $(head -c 200 "$work/too-big.log")"
fi

# --- runs (program status, 125, 126) ---
if build_elf "$progs/console_exit3.S" run-console "$work/make.log"; then
    run run-exit-status 3 "^node-sim: exit=3 cycles=[0-9]+ instret=[0-9]+ cpi=[0-9]+\.[0-9]{3}$" --elf "$elf"
    if [ "$(cat "$work/run-exit-status.out")" = "node-sim console ok" ]; then
        echo "PASS run-console"
    else
        echo "FAIL run-console: stdout was '$(head -c 200 "$work/run-exit-status.out")'"
    fi
    "$sim" --quiet --elf "$elf" >/dev/null 2>"$work/quiet.err"
    if [ $? -eq 3 ] && [ ! -s "$work/quiet.err" ]; then
        echo "PASS run-quiet"
    else
        echo "FAIL run-quiet: --quiet must keep stderr empty and the status 3"
    fi
    rm -f "$work/trace.fst"
    run run-trace 3 "exit=3" --elf "$elf" --trace "$work/trace.fst"
    if [ -s "$work/trace.fst" ] && [ "$(stat -c %s "$work/trace.fst")" -gt 200 ]; then
        echo "PASS trace-fst-written"
    else
        echo "FAIL trace-fst-written: $work/trace.fst missing or nearly empty"
    fi
fi
if build_elf "$progs/spin.S" run-max-cycles "$work/make.log"; then
    run run-max-cycles 125 "exit=125 cycles=1000 .*ran past --max-cycles 1000 \(pc 0x" \
        --elf "$elf" --max-cycles 1000
    run run-max-cycles-inline 125 "cycles=77 " --elf="$elf" --max-cycles=77
fi
if build_elf "$progs/no_handler.S" run-core-halted "$work/make.log"; then
    run run-core-halted 126 "core halted: .*mcause 1 \(instruction access fault" \
        --elf "$elf" --max-cycles 1000
fi
exit 0
