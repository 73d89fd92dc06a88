#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5, on the core: the partial-MNB rule (prefix, packing, broadcast,
# with and without splitting), the STAR dynamic-broadcast rule (also from the machine's wire
# header: the paper's classes) and the allgather checker path
# run on RV32IM with static buffers (qemu and node-sim).
set -u
. tests/lib.sh
coll_tmp="$BUILD/tests/sched-coll-core.tmp"
mkdir -p "$coll_tmp"
. tests/firmware/lib.sh
want=6
if make -s sched-coll-core-test >"$coll_tmp/core.log" 2>&1; then
    echo "PASS sched-coll: on-core image builds and fits RAM_BYTES (no allocation)"
else
    echo "FAIL sched-coll: on-core image: $(grep -m3 -iE 'error|overflow' "$coll_tmp/core.log" | tr '\n' ' ')"
    exit 1
fi
elf="$BUILD/sched/core/coll_core_test.elf"
for target in qemu node-sim; do
    if [ "$target" = qemu ]; then
        need_qemu "sched-coll on-core (qemu)" || continue
        run_qemu "$elf" "$coll_tmp/core.out"; rc=$?
    else
        build_node_sim "sched-coll on-core (node-sim)" || continue
        run_node "$elf" "$coll_tmp/core.out"; rc=$?
    fi
    sed -n "s/^core: \(PASS\|FAIL\) \(.*\)/\1 sched-coll on-core ($target): \2/p" "$coll_tmp/core.out"
    got=$(grep -c '^core: PASS' "$coll_tmp/core.out")
    if [ "$rc" -eq 0 ] && [ "$got" -eq "$want" ]; then echo "PASS sched-coll on-core ($target): exit 0, $want checks"
    else echo "FAIL sched-coll on-core ($target): exit $rc, $got of $want checks passed"; fi
done
