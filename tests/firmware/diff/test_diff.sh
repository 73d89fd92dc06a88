#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
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
need_qemu "diff qemu" || exit 1
build_node_sim "diff node-sim" || exit 1
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

# run_seeds LABEL FIRST COUNT: the seeds on $NODE_SIM, two at a time; every seed must report
# (a PASS or FAIL line of its own), or the missing ones are named
run_seeds() {
    local label="$1" first="$2" n="$3" lines
    lines="$BUILD/tests/$label.lines"
    seq "$first" $((first + n - 1)) | DIFF_LABEL="$label" xargs -P 2 -n 1 tests/firmware/diff/diff_one.sh \
        | tee "$lines"
    local missing=""
    for s in $(seq "$first" $((first + n - 1))); do
        grep -qE "^(PASS|FAIL) $label/seed_$s(:|\$)" "$lines" || missing="$missing $s"
    done
    if [ -z "$missing" ]; then echo "PASS $label: all $n seeds reported"
    else echo "FAIL $label: no result for seeds$(echo "$missing" | cut -c1-200)"; fi
}
run_seeds diff 1 "$count"

# the first DIFF_STRESS_COUNT (40) seeds again on node-sim-stress (iterative multiplier,
# random data-bus wait states)
stress_count="${DIFF_STRESS_COUNT:-40}"
if make -s node-sim-stress >"$BUILD/tests/diff-stress-build.log" 2>&1 &&
        [ -x "$BUILD/bin/node-sim-stress" ]; then
    NODE_SIM="$BUILD/bin/node-sim-stress" run_seeds diff-stress 1 "$stress_count"
else
    echo "FAIL diff-stress: make node-sim-stress failed: $(tail_of "$BUILD/tests/diff-stress-build.log" 3)"
fi
exit 0
