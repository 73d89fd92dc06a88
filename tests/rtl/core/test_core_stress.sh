#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The core's stalls and its small configuration: every self-checking program
# (tests/rtl/core/asm/*.S, tests/rtl/core/c/*.c, tests/firmware/isa/*.S,
# tests/firmware/programs/*.c) on
# node-sim-stress: the core with the iterative multiplier (MUL_KIND=0) on a data bus that
# holds dmem_req_ready low on pseudo-random cycles (node_top BUS_WAIT_TEST=1). Each must
# exit 0 as on the plain node-sim, and print the same console output apart from cycle counts.
set -u
BUILD="${BUILD:-build}"
work="$BUILD/tests/core-stress"
mkdir -p "$work"
log="$work/make.log"
if ! make -s node-sim node-sim-stress >"$log" 2>&1; then
    echo "FAIL core-stress-build: make node-sim node-sim-stress failed (see $log)"
    exit 1
fi
for src in tests/rtl/core/asm/*.S tests/rtl/core/c/*.c tests/firmware/isa/*.S tests/firmware/programs/*.c; do
    [ -e "$src" ] || continue
    elf="$BUILD/fw/${src%.*}.elf"
    name="core-stress-$(basename "${src%.*}")"
    if ! make -s "$elf" >>"$log" 2>&1; then
        echo "FAIL $name: cannot build $elf (see $log)"
        continue
    fi
    "$BUILD/bin/node-sim-stress" --elf "$elf" --max-cycles 50000000 >"$work/$name.wait.out" 2>"$work/$name.wait.err"
    status=$?
    "$BUILD/bin/node-sim" --elf "$elf" --max-cycles 50000000 >"$work/$name.plain.out" 2>/dev/null
    # cycle counts printed by the program itself differ; everything else must not
    sed -E 's/[0-9]+ cycles|cycles [0-9]+/cycles N/g' "$work/$name.wait.out" >"$work/$name.wait.cmp"
    sed -E 's/[0-9]+ cycles|cycles [0-9]+/cycles N/g' "$work/$name.plain.out" >"$work/$name.plain.cmp"
    if [ "$status" -ne 0 ]; then
        echo "FAIL $name: exit status $status with bus wait states and MUL_KIND=0: $(tail -n 1 "$work/$name.wait.err")"
    elif ! cmp -s "$work/$name.wait.cmp" "$work/$name.plain.cmp"; then
        echo "FAIL $name: console output differs from node-sim (see $work/$name.*.out)"
    else
        echo "PASS $name"
    fi
done
