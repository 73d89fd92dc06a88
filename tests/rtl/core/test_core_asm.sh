#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Directed programs of the core on node-sim: tests/rtl/core/asm/*.S (hazards, traps and
# CSRs, interrupts) and tests/rtl/core/c/*.c (multiplier and divider against a software
# reference). Each is self-checking and must exit 0 (an assembly test exits with the
# number of its failing check).
set -u
BUILD="${BUILD:-build}"
mkdir -p "$BUILD/tests"
log="$BUILD/tests/core-asm-make.log"
if ! make -s node-sim >"$log" 2>&1; then
    echo "FAIL core-asm-build: make node-sim failed (see $log)"
    exit 1
fi
for src in tests/rtl/core/asm/*.S tests/rtl/core/c/*.c; do
    name="core-$(basename "$(dirname "$src")")-$(basename "${src%.*}")"
    elf="$BUILD/fw/${src%.*}.elf"
    if ! make -s "$elf" >>"$log" 2>&1; then
        echo "FAIL $name: cannot build $elf (see $log)"
        continue
    fi
    "$BUILD/bin/node-sim" --elf "$elf" --max-cycles 20000000 >"$BUILD/tests/$name.out" 2>&1
    status=$?
    if [ "$status" -eq 0 ]; then
        echo "PASS $name"
    else
        echo "FAIL $name: exit status $status (failing check number): $(tail -n 1 "$BUILD/tests/$name.out")"
    fi
done
