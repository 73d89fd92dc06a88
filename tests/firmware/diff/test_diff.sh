#!/usr/bin/env bash
# Differential test of the core against qemu: DIFF_TEST_COUNT (100) random RV32IM programs
# from fixed seeds 1..100, each about DIFF_LENGTH (3000) random items, run on qemu and on
# node-sim; their console outputs (all 31 registers and the scratch memory words) must be
# identical. One PASS/FAIL line per seed, plus checks that the generator is deterministic
# and uses every instruction; seeds 1..40 also run on node-sim-stress.
set -u
cd "$(dirname "$0")/../../.." || exit 2
. tests/firmware/lib.sh

count="${DIFF_TEST_COUNT:-100}"
export DIFF_LENGTH="${DIFF_LENGTH:-3000}"
mkdir -p "$BUILD/tests"
if ! have_qemu; then
    echo "FAIL diff qemu: $QEMU_BIN not installed (make deps): the differential test needs it"
    exit 1
fi
try_build_node_sim
if ! have_node_sim; then
    echo "FAIL diff node-sim: $(node_sim_missing_reason)"
    exit 1
fi
if ! make -s -j2 diff-elfs DIFF_FIRST=1 DIFF_COUNT="$count" DIFF_LENGTH="$DIFF_LENGTH" \
        >"$BUILD/tests/diff-build.log" 2>&1; then
    echo "FAIL diff build: $(tail_of "$BUILD/tests/diff-build.log" 5)"
    exit 1
fi

# the generator: same seed, same program; another seed, another program
gen="$BUILD/bin/rvdiff-gen"
if cmp -s <("$gen" --seed 7 --length 200) <("$gen" --seed 7 --length 200) &&
   ! cmp -s <("$gen" --seed 7 --length 200) <("$gen" --seed 8 --length 200); then
    echo "PASS diff generator deterministic per seed"
else
    echo "FAIL diff generator: output not a function of the seed"
fi

# the generated programs use every RV32IM instruction
missing=""
for mnemonic in lui auipc jal jalr beq bne blt bge bltu bgeu lb lh lw lbu lhu sb sh sw \
        addi slti sltiu xori ori andi slli srli srai add sub sll slt sltu xor srl sra or and \
        mul mulh mulhsu mulhu div divu rem remu ecall ebreak; do
    grep -q -m 1 "^    $mnemonic " "$BUILD/diff/len$DIFF_LENGTH"/seed_[0-9]*.S 2>/dev/null ||
        grep -q -m 1 "^    $mnemonic\$" "$BUILD/diff/len$DIFF_LENGTH"/seed_[0-9]*.S 2>/dev/null ||
        missing="$missing $mnemonic"
done
if [ -z "$missing" ]; then
    echo "PASS diff generator covers all RV32IM instructions"
else
    echo "FAIL diff generator: no program uses:$missing"
fi

seq 1 "$count" | xargs -P 2 -n 1 tests/firmware/diff/diff_one.sh

# the first DIFF_STRESS_COUNT (40) seeds again on node-sim-stress (iterative multiplier,
# random data-bus wait states), where that simulator exists
stress_count="${DIFF_STRESS_COUNT:-40}"
if make -s node-sim-stress >"$BUILD/tests/diff-stress-build.log" 2>&1 &&
        [ -x "$BUILD/bin/node-sim-stress" ]; then
    seq 1 "$stress_count" | NODE_SIM="$BUILD/bin/node-sim-stress" DIFF_LABEL=diff-stress \
        xargs -P 2 -n 1 tests/firmware/diff/diff_one.sh
else
    echo "NOTE: node-sim-stress not available: the stress variant of the differential test is skipped"
fi
exit 0
