#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5: the run-time part (partial-MNB rule, dynamic-broadcast rule, allgather/alltoall checker)
# cross-compiles for the core and allocates nothing.
set -u
. tests/lib.sh
coll_tmp="$BUILD/tests/sched-coll-core.tmp"
mkdir -p "$coll_tmp"
. tests/firmware/lib.sh
if make -s sched-rv32 >"$coll_tmp/rv32.log" 2>&1; then
    echo "PASS sched-coll: sched_pmnb.c, sched_dyn.c (firmware/sched) and check/sched_check_coll.c (tools/sched) compile for rv32im/ilp32 -Os picolibc -Wall -Wextra -Werror"
else
    echo "FAIL sched-coll: cross-compile: $(grep -m3 error "$coll_tmp/rv32.log" | tr '\n' ' ')"
    exit 1
fi
for o in sched_pmnb check/sched_check_coll sched_dyn; do
    f="$BUILD/sched/rv32/$o.o"
    no_allocation "sched-coll: $o (portable part)" "$f" || continue
    arch=$(riscv64-unknown-elf-readelf -h "$f" | awk '/Class:/ {print $2}')
    if [ "$arch" = "ELF32" ]; then echo "PASS sched-coll: $o is a 32-bit RISC-V object"
    else echo "FAIL sched-coll: $o is $arch, expected ELF32"; fi
done
