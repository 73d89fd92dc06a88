#!/usr/bin/env bash
# Directed bring-up programs of the core (tests/rtl/core/asm/*.S) on node-sim: each is
# self-checking and must exit 0 (a failing check exits with its check number).
set -u
BUILD="${BUILD:-build}"
mkdir -p "$BUILD/tests"
log="$BUILD/tests/core-asm-make.log"
if ! make -s node-sim >"$log" 2>&1; then
    echo "FAIL core-asm-build: make node-sim failed (see $log)"
    exit 1
fi
for src in tests/rtl/core/asm/*.S; do
    name="core-asm-$(basename "$src" .S)"
    elf="$BUILD/fw/${src%.S}.elf"
    if ! make -s "$elf" >>"$log" 2>&1; then
        echo "FAIL $name: cannot build $elf (see $log)"
        continue
    fi
    "$BUILD/bin/node-sim" --elf "$elf" --max-cycles 100000 >"$BUILD/tests/$name.out" 2>&1
    status=$?
    if [ "$status" -eq 0 ]; then
        echo "PASS $name"
    else
        echo "FAIL $name: exit status $status (failing check number): $(tail -n 1 "$BUILD/tests/$name.out")"
    fi
done
