#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# diff_run.sh SEED [SEED...]: builds the random program of each seed and compares qemu
# with node-sim (the reproduction command printed by a failing differential test).
# Keeps both outputs in build/diff/len<L>/seed_<n>.{qemu,node}.out on a mismatch and
# shows their diff. DIFF_LENGTH (default 3000) must match the failing run.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/firmware/lib.sh
[ $# -ge 1 ] || { echo "usage: $0 SEED [SEED...]" >&2; exit 2; }
export DIFF_LENGTH="${DIFF_LENGTH:-3000}"
have_node_sim || make -s node-sim || { node_sim_missing_reason; exit 1; }
status=0
for seed in "$@"; do
    make -s diff-elfs DIFF_FIRST="$seed" DIFF_COUNT=1 DIFF_LENGTH="$DIFF_LENGTH" || exit 1
    if ! tests/firmware/diff/diff_one.sh "$seed"; then
        status=1
        out="$BUILD/diff/len$DIFF_LENGTH/seed_$seed.${DIFF_LABEL:-diff}"
        echo "program: $BUILD/diff/len$DIFF_LENGTH/seed_$seed.S   disassembly: riscv64-unknown-elf-objdump -d $BUILD/diff/len$DIFF_LENGTH/seed_$seed.elf"
        diff "$out.qemu.out" "$out.node.out" | head -n 20
    fi
done
exit $status
