#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# diff_one.sh SEED: runs the generated program of SEED ($DIFF_DIR/seed_SEED.elf, built
# beforehand) on qemu and on node-sim and compares their console outputs exactly.
# Prints one line: PASS diff/seed_<n>  or  FAIL diff/seed_<n>: <first difference>; reproduce: ...
# Exit status 0 on PASS, 1 on FAIL.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/firmware/lib.sh
seed="$1"
# DIFF_LABEL names the checks (default "diff"; "diff-stress" when NODE_SIM is node-sim-stress)
label="${DIFF_LABEL:-diff}"
dir="${DIFF_DIR:-$BUILD/diff/len${DIFF_LENGTH:-3000}}"
elf="$dir/seed_$seed.elf"
out="$dir/seed_$seed.$label"
repro="reproduce: ${NODE_SIM:+NODE_SIM=$NODE_SIM }tests/firmware/diff/diff_run.sh $seed${DIFF_LENGTH:+ (DIFF_LENGTH=$DIFF_LENGTH)}"

if [ ! -f "$elf" ]; then
    echo "FAIL $label/seed_$seed: $elf not built; $repro"
    exit 1
fi
run_qemu "$elf" "$out.qemu.out"
qemu_rc=$?
run_node "$elf" "$out.node.out"
node_rc=$?

if [ "$qemu_rc" -ne 0 ] || ! grep -qx END "$out.qemu.out"; then
    echo "FAIL $label/seed_$seed: the program failed on qemu itself (status $qemu_rc: $(tail_of "$out.qemu.out" 4)): generator bug; $repro"
    exit 1
fi
if cmp -s "$out.qemu.out" "$out.node.out" && [ "$node_rc" -eq 0 ]; then
    echo "PASS $label/seed_$seed"
    rm -f "$out.qemu.out" "$out.qemu.out.err" "$out.node.out" "$out.node.out.err"
    exit 0
fi
# first differing line: "x05 0000abcd" (a final register), "c03.x05 ..." (a register at
# checkpoint 3), "m1f ..." (a scratch word), END, TRAP
line_no=$(cmp "$out.qemu.out" "$out.node.out" 2>/dev/null | sed -n 's/.* line \([0-9]*\).*/\1/p')
if [ -n "$line_no" ]; then
    qemu_line=$(sed -n "${line_no}p" "$out.qemu.out")
    node_line=$(sed -n "${line_no}p" "$out.node.out")
    what="first difference at line $line_no: qemu '$qemu_line' node-sim '${node_line:-<missing>}'"
    case "$qemu_line" in
        x[0-9][0-9]\ *) what="register ${qemu_line%% *}: qemu ${qemu_line#* } node-sim ${node_line#* } (line $line_no)" ;;
        c[0-9][0-9].x[0-9][0-9]\ *) what="register ${qemu_line:4:3} at checkpoint $((10#${qemu_line:1:2})) (see '/* checkpoint $((10#${qemu_line:1:2})) */' in the .S; earlier checkpoints agree): qemu ${qemu_line#* } node-sim ${node_line#* }" ;;
        m[0-9a-f][0-9a-f]\ *) what="scratch word ${qemu_line%% *} (byte offset $((16#${qemu_line:1:2} * 4))): qemu ${qemu_line#* } node-sim ${node_line#* }" ;;
    esac
elif [ "$(wc -l <"$out.node.out")" -lt "$(wc -l <"$out.qemu.out")" ]; then
    what="node-sim output ends early after $(wc -l <"$out.node.out") lines"
else
    what="same console output but node-sim status $node_rc ($(tail_of "$out.node.out.err" 1))"
fi
echo "FAIL $label/seed_$seed: $what; node-sim status $node_rc; $repro"
exit 1
