#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The core in the iCE40 board's configuration (config.mk's CORE_BOARD_*: DSP multiplier,
# short divider steps, load-use wait, registered redirect) on node-sim-board: every
# self-checking program -- tests/firmware/isa/*.S, tests/rtl/core/asm/*.S and c/*.c,
# tests/firmware/programs/*.c -- must exit 0 and print what it prints on the plain
# node-sim (cycle counts aside). Correctness only; timing and size are make core-pnr's.
set -u
. tests/lib.sh
work="$BUILD/tests/core-board"
mkdir -p "$work"
log="$work/make.log"
if ! make -s node-sim node-sim-board >"$log" 2>&1; then
    fail core-board-build "make node-sim node-sim-board failed: $(tail_of "$log" 4)"
    exit 1
fi
for src in tests/firmware/isa/*.S tests/rtl/core/asm/*.S tests/rtl/core/c/*.c tests/firmware/programs/*.c; do
    [ -e "$src" ] || continue
    elf="$BUILD/fw/${src%.*}.elf"
    name="core-board-$(basename "$(dirname "$src")")-$(basename "${src%.*}")"
    if ! make -s "$elf" >>"$log" 2>&1; then
        fail "$name" "cannot build $elf (see $log)"
        continue
    fi
    "$BUILD/bin/node-sim-board" --elf "$elf" --max-cycles 50000000 >"$work/$name.board.out" 2>"$work/$name.board.err"
    status=$?
    "$BUILD/bin/node-sim" --elf "$elf" --max-cycles 50000000 >"$work/$name.plain.out" 2>/dev/null
    sed -E 's/[0-9]+ cycles|cycles [0-9]+/cycles N/g' "$work/$name.board.out" >"$work/$name.board.cmp"
    sed -E 's/[0-9]+ cycles|cycles [0-9]+/cycles N/g' "$work/$name.plain.out" >"$work/$name.plain.cmp"
    if [ "$status" -ne 0 ]; then
        fail "$name" "exit status $status in the board configuration: $(tail_of "$work/$name.board.out" 2) $(tail_of "$work/$name.board.err" 1)"
    elif ! cmp -s "$work/$name.board.cmp" "$work/$name.plain.cmp"; then
        fail "$name" "console output differs from node-sim (see $work/$name.*.out)"
    else
        pass "$name"
    fi
done
