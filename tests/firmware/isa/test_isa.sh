#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Runs every tests/firmware/isa/*.S on qemu (proves the test itself right) and on
# node-sim (tests the core). One check per program and platform:
#   PASS isa/<name> qemu | PASS isa/<name> node-sim | FAIL ...: <first console line>
# A test file containing "QEMU-SKIP: <reason>" is not run on qemu (qemu does not model
# what it checks, e.g. traps on misaligned loads): a SKIP line with the reason. A missing
# qemu or node-sim is a FAIL.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/firmware/lib.sh

mkdir -p "$BUILD/tests"
if ! make -s fw-isa-tests >"$BUILD/tests/isa-build.log" 2>&1; then
    echo "FAIL isa build: $(tail_of "$BUILD/tests/isa-build.log" 5)"
    exit 1
fi
outdir="$BUILD/tests/isa"
mkdir -p "$outdir"
# both platforms are required: make test installs qemu and builds node-sim
node_ok=0 qemu_ok=0
build_node_sim "isa node-sim" && node_ok=1
need_qemu "isa qemu" && qemu_ok=1

for src in tests/firmware/isa/*.S; do
    name=$(basename "$src" .S)
    elf="$BUILD/fw/tests/firmware/isa/$name.elf"
    if [ "$qemu_ok" -eq 1 ]; then
        skip=$(sed -n 's/.*QEMU-SKIP: *//p' "$src" | head -n 1)
        if [ -n "$skip" ]; then
            echo "SKIP isa/$name qemu: $skip"
        else
            run_qemu "$elf" "$outdir/$name.qemu.out" -icount shift=0
            rc=$?
            if [ "$rc" -eq 0 ]; then
                echo "PASS isa/$name qemu"
            else
                echo "FAIL isa/$name qemu: status $rc: $(tail_of "$outdir/$name.qemu.out" 2)"
            fi
        fi
    fi
    if [ "$node_ok" -eq 1 ]; then
        run_node "$elf" "$outdir/$name.node.out"
        rc=$?
        if [ "$rc" -eq 0 ]; then
            echo "PASS isa/$name node-sim"
        elif [ "$rc" -ge 120 ] && [ "$rc" -le 126 ]; then
            echo "FAIL isa/$name node-sim: simulator error $rc: $(tail_of "$outdir/$name.node.out.err" 2) console: $(tail_of "$outdir/$name.node.out" 2)"
        else
            echo "FAIL isa/$name node-sim: status $rc (= failing test number): $(tail_of "$outdir/$name.node.out" 2)"
        fi
    fi
done
exit 0
