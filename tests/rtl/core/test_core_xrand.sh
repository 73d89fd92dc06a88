#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The core from a random power-on state: node-sim-xrand (Verilator --x-initial unique
# --x-assign unique) starts every register from a random value drawn from --x-seed, so a
# register that reset forgets shows as a failure. First the randomisation itself is checked
# (a program that exits with its registers' power-on values: zero on node-sim, random and
# different per seed on node-sim-xrand); then every self-checking program of the core
# (tests/rtl/core/{asm,c}, tests/firmware/{isa,programs}) runs from three random states and
# must exit 0 with the same console output as on node-sim (cycle counts aside).
set -u
. tests/lib.sh
work="$BUILD/tests/core-xrand"
mkdir -p "$work"
log="$work/make.log"
: >"$log"
make_or_fail core-xrand-build "$log" node-sim node-sim-xrand fw-isa-tests fw-test-programs || exit 1
plain="$BUILD/bin/node-sim"
xrand="$BUILD/bin/node-sim-xrand"

# the randomisation is real: power-on register values differ from zero and between seeds
if build_elf tests/sim/node/progs/uninit_regs.S core-xrand-random "$log"; then
    # eight seeds: each status 0..63 (a harness error is 120 and up), not all the same (one
    # seed may draw 0 or another's value by chance: 1 in 64), and seed 2 again gives its own
    "$plain" --elf "$elf" --quiet; zero=$?
    statuses=()
    for s in 1 2 3 4 5 6 7 8; do
        "$xrand" --elf "$elf" --quiet --x-seed "$s"; statuses+=($?)
    done
    "$xrand" --elf "$elf" --quiet --x-seed 2; r2again=$?
    distinct=$(printf '%s\n' "${statuses[@]}" | sort -u | wc -l)
    small=1
    for r in "${statuses[@]}"; do [ "$r" -lt 64 ] || small=0; done
    if [ "$zero" -eq 0 ] && [ "$small" -eq 1 ] && [ "$distinct" -ge 2 ] && [ "$r2again" -eq "${statuses[1]}" ]; then
        pass "core-xrand-random (power-on registers: 0 on node-sim; seeds 1-8 -> ${statuses[*]}, repeatable)"
    else
        fail core-xrand-random "statuses: node-sim $zero, seeds 1-8 ${statuses[*]}, seed 2 again $r2again (want 0; values below 64, not all equal; repeatable)"
    fi
fi
"$plain" --elf x --x-seed 1 >/dev/null 2>"$work/refuse.err"; rc=$?
if [ "$rc" -eq 120 ] && grep -q "needs a model built with random initial values: make node-sim-xrand" "$work/refuse.err"; then
    pass "core-xrand-refused-on-node-sim"
else
    fail core-xrand-refused-on-node-sim "exit $rc: $(head -c 200 "$work/refuse.err")"
fi

seeds="${XRAND_SEEDS:-1 2 3}"
for src in tests/rtl/core/asm/*.S tests/rtl/core/c/*.c tests/firmware/isa/*.S tests/firmware/programs/*.c; do
    name="core-xrand-$(basename "$(dirname "$src")")-$(basename "${src%.*}")"
    build_elf "$src" "$name" "$log" || continue
    "$plain" --elf "$elf" --max-cycles 50000000 >"$work/$name.plain.out" 2>/dev/null
    sed -E 's/[0-9]+ cycles|cycles [0-9]+/cycles N/g' "$work/$name.plain.out" >"$work/$name.plain.cmp"
    bad=""
    for s in $seeds; do
        "$xrand" --elf "$elf" --max-cycles 50000000 --x-seed "$s" >"$work/$name.$s.out" 2>"$work/$name.$s.err"
        rc=$?
        sed -E 's/[0-9]+ cycles|cycles [0-9]+/cycles N/g' "$work/$name.$s.out" >"$work/$name.$s.cmp"
        if [ "$rc" -ne 0 ]; then bad="$bad seed $s: exit $rc ($(tail_of "$work/$name.$s.err" 1));"
        elif ! cmp -s "$work/$name.$s.cmp" "$work/$name.plain.cmp"; then bad="$bad seed $s: console differs from node-sim;"; fi
    done
    if [ -z "$bad" ]; then pass "$name (seeds $seeds)"; else fail "$name" "$bad"; fi
done
