#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Runs every tests/firmware/programs/*.c (built -O2 with the runtime) on qemu and on
# node-sim. Each program checks its own results, prints one result line
#   <name>: <results>: ok; cycles <C> instret <I>
# and exits 0 on success. Checks per program: it passes on qemu, it passes on node-sim,
# and both print the same results (the line up to "; cycles").
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/firmware/lib.sh

mkdir -p "$BUILD/tests"
if ! make -s fw-test-programs >"$BUILD/tests/programs-build.log" 2>&1; then
    echo "FAIL programs build: $(tail_of "$BUILD/tests/programs-build.log" 5)"
    exit 1
fi
outdir="$BUILD/tests/programs"
mkdir -p "$outdir"
# both platforms are required: make test installs qemu and builds node-sim
node_ok=0 qemu_ok=0
build_node_sim "programs node-sim" && node_ok=1
need_qemu "programs qemu" && qemu_ok=1

# result_of FILE NAME: the program's result line without its timing part
result_of() { grep "^$2: " "$1" | tail -n 1 | sed 's/; cycles .*//'; }

for src in tests/firmware/programs/*.c; do
    name=$(basename "$src" .c)
    elf="$BUILD/fw/tests/firmware/programs/$name.elf"
    qemu_result="" node_result=""
    if [ "$qemu_ok" -eq 1 ]; then
        run_qemu "$elf" "$outdir/$name.qemu.out"
        rc=$?
        qemu_result=$(result_of "$outdir/$name.qemu.out" "$name")
        if [ "$rc" -eq 0 ] && grep -q ": ok; cycles" "$outdir/$name.qemu.out"; then
            echo "PASS programs/$name qemu"
        else
            echo "FAIL programs/$name qemu: status $rc: $(tail_of "$outdir/$name.qemu.out" 3)"
        fi
    fi
    if [ "$node_ok" -eq 1 ]; then
        run_node "$elf" "$outdir/$name.node.out"
        rc=$?
        node_result=$(result_of "$outdir/$name.node.out" "$name")
        if [ "$rc" -eq 0 ] && grep -q ": ok; cycles" "$outdir/$name.node.out"; then
            echo "PASS programs/$name node-sim ($(grep -o 'cycles [0-9]* instret [0-9]*' "$outdir/$name.node.out" | tail -n 1))"
        else
            echo "FAIL programs/$name node-sim: status $rc: $(tail_of "$outdir/$name.node.out" 3) $(tail_of "$outdir/$name.node.out.err" 1)"
        fi
        if [ "$qemu_ok" -eq 1 ]; then
            if [ -n "$node_result" ] && [ "$node_result" = "$qemu_result" ]; then
                echo "PASS programs/$name same results on qemu and node-sim"
            else
                echo "FAIL programs/$name results differ: qemu '$qemu_result' node-sim '$node_result'"
            fi
        fi
    fi
done
exit 0
