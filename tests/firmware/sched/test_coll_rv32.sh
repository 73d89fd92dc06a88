#!/usr/bin/env bash
# Schedule library, issue 5: the run-time part (partial-MNB rule, dynamic-broadcast rule, allgather/alltoall checker)
# cross-compiles for the core and allocates nothing.
set -u
. "$(dirname "$0")/coll_lib.sh"
if make -s sched-rv32 >"$coll_tmp/rv32.log" 2>&1; then
    echo "PASS sched-coll: sched_pmnb.c, sched_dyn.c and sched_check_coll.c compile for rv32im/ilp32 -Os picolibc -Wall -Wextra -Werror"
else
    echo "FAIL sched-coll: cross-compile: $(grep -m3 error "$coll_tmp/rv32.log" | tr '\n' ' ')"
    exit 0
fi
for o in sched_pmnb sched_check_coll sched_dyn; do
    f="$BUILD/sched/rv32/$o.o"
    if [ ! -f "$f" ]; then echo "FAIL sched-coll: $o.o not built for the core"; continue; fi
    allocs=$(riscv64-unknown-elf-nm -u "$f" | grep -Ew 'malloc|calloc|realloc|free' | tr '\n' ' ' || true)
    if [ -z "$allocs" ]; then echo "PASS sched-coll: $o (firmware side) uses no dynamic allocation"
    else echo "FAIL sched-coll: $o allocates: $allocs"; fi
    arch=$(riscv64-unknown-elf-readelf -h "$f" | awk '/Class:/ {print $2}')
    if [ "$arch" = "ELF32" ]; then echo "PASS sched-coll: $o is a 32-bit RISC-V object"
    else echo "FAIL sched-coll: $o is $arch, expected ELF32"; fi
done
