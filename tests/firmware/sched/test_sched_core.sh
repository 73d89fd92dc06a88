#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, node side (firmware/sched) and the checker (tools/sched/check) on the core:
# the cross-compile, no dynamic allocation, and an on-core run of the table reader and checker.
set -u
. tests/firmware/lib.sh
tmp="$BUILD/tests/sched-core.tmp"
mkdir -p "$tmp"
if ! make -s schedgen >"$tmp/build.log" 2>&1; then
    fail "sched core: schedgen builds (it writes the embedded tables)" "$(tail -n 5 "$tmp/build.log" | tr '\n' ' ')"; exit 1
fi

# Cross-compile for the core; the firmware part must not allocate.
if make -s sched-rv32 >"$tmp/rv32.log" 2>&1; then
    pass "sched: library compiles for the core (riscv64-unknown-elf-gcc, rv32im/ilp32, -Os, picolibc, -Werror)"
    for o in sched_shape sched_names sched_table check/sched_check; do
        no_allocation "sched: firmware part or checker $o" "$BUILD/sched/rv32/$o.o"
    done
else
    fail "sched: cross-compile for the core" "$(grep -m3 error "$tmp/rv32.log" | tr '\n' ' ')"
fi
# The firmware part on the core: tables found and validated per node, the schedule rebuilt
# from them and proved by the checker, in a static workspace (qemu and node-sim).
if make -s sched-core-test >"$tmp/core.log" 2>&1; then
    elf="$BUILD/sched/core/sched_core_test.elf"
    for target in qemu node-sim; do
        if [ "$target" = qemu ]; then need_qemu "sched on-core test (qemu)" || continue
            run_qemu "$elf" "$tmp/core.out"; rc=$?
        else build_node_sim "sched on-core test (node-sim)" || continue
            run_node "$elf" "$tmp/core.out"; rc=$?
        fi
        sed -n "s/^core: \(PASS\|FAIL\) \(.*\)/\1 on-core ($target): \2/p" "$tmp/core.out"
        if [ "$rc" -eq 0 ] && [ "$(grep -c '^core: PASS' "$tmp/core.out")" -eq 8 ]; then pass "on-core ($target): exit 0, 8 checks"
        else fail "on-core ($target)" "exit $rc, $(grep -c '^core: PASS' "$tmp/core.out") of 8 checks passed"; fi
    done
else fail "sched on-core test image builds" "$(grep -m3 -i error "$tmp/core.log" | tr '\n' ' ')"; fi

exit 0
