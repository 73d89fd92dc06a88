#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 400
# Blocks (sub-rectangles) of a 2-D machine (rvmesh.h: RVM_COMM_BLOCK; blkBXxBY. in COLLECTIVES;
# issue 18 item 3) on the 4x4 torus cut into four 2x2 blocks (tests/kit/progs/blocks): the four
# blocks each run every call of the kit at once, each from a root of its own (bcast, scatter,
# gather; allgather, alltoall, allreduce on both paths, reduce, reduce-scatter), every node
# checking every word it got against its own reference from every node's known input and that
# nothing past a result was written. Refused on every node with its code and message, nothing
# written: a root that is not a rank of the block, a block root not declared, a block's table
# compiled on the row and on the whole machine, the machine's on the block. Also schedgen:
# blocks that do not divide the machine, blocks on a 3-D machine, blocks of two shapes in one
# program, a root off the block refused; 4x2 blocks of the 8x4 torus and 2x4 of the 8x8 mesh
# built and checked. On mesh-sim-4x4t (make test builds it anyway); BLOCKS_SHAPES="4x4t 4x4m"
# adds the mesh. BLOCKS_MEASURE=1 also prints the cycles of every block's bcast at once against
# the machine's bcast of the same bytes (1 KiB and 16 KiB; the most any node took).
set -u
. tests/kit/lib.sh
prog=tests/kit/progs/blocks
shapes=${BLOCKS_SHAPES:-4x4t}
measure=${BLOCKS_MEASURE:-0}
# shellcheck disable=SC2046
kit_setup kit-blocks schedgen $(for s in $shapes; do echo "mesh-sim-$s"; done) || exit 1

checks="ranks blk-bcast blk-allreduce-small blk-scatter blk-allreduce-large blk-gather blk-allgather blk-reduce
blk-alltoall blk-reduce-scatter blk-bcast-other-root blk-allreduce-small-affine bcast-root-off-block
undeclared-block-bcast-root block-table-on-row block-table-on-machine machine-table-on-block nothing-written
blk-allgather-after"

for shape in $shapes; do
    out="$work/$shape"
    flags=""
    [ "$measure" = 1 ] && flags="-DMEASURE"
    if ! kit_make "$shape-build" "$prog" OUT="$root/$out" SHAPE=$shape CFLAGS="$flags"; then
        fail "kit-blocks-$shape-build" "$(tail_of "$work/$shape-build.log" 4)"
        continue
    fi
    "$BUILD/bin/mesh-sim-$shape" --elf "$out/blocks.elf" --max-cycles 6000000 >"$out/run.out" 2>"$out/run.err"
    rc=$?
    [ $rc -eq 0 ] && pass "kit-blocks-$shape-run" || fail "kit-blocks-$shape-run" "exit $rc: $(grep -m 3 FAILED "$out/run.out" | tr '\n' ' ')$(tail_of "$out/run.err" 2)"
    # shellcheck disable=SC2086
    kit_node_checks "kit-blocks-$shape" "$out/run.out" 16 $checks
    while IFS= read -r message; do
        n=$(grep -cF -- "$message" "$out/run.out")
        [ "$n" -eq 16 ] && pass "kit-blocks-$shape-message ${message:0:48}" || fail "kit-blocks-$shape-message" "$n of 16 nodes printed '$message'"
    done <<'MSG'
rvm_bcast_on: root 4 is not a rank of this block (ranks 0..3: a root on a 2x2 block is its x % 2 + 2*(y % 2))
rvm_bcast_on: blk2x2.bcast with root 1 is not declared: add blk2x2.bcast@1 to COLLECTIVES
coll_plan_init_on: a table built for a 2x2 block, run on a row
coll_plan_init: a table built for a 2x2 block, run on the whole machine
coll_plan_init_on: a table built for the whole machine, run on a 2x2 block
MSG
    [ "$measure" = 1 ] || continue
    for what in "bcast 1024 B" "bcast 16384 B"; do
        read -r bmax mmax < <(grep "^\[[0-9],[0-9]\] cycles $what: " "$out/run.out" |
            sed 's/.* block \([0-9]*\) machine \([0-9]*\).*/\1 \2/' |
            awk 'BEGIN { b = 0; m = 0 } { if ($1 > b) b = $1; if ($2 > m) m = $2 } END { print b, m }')
        echo "    $shape $what: every block at once $bmax cycles, the whole machine $mmax"
    done
done

# schedgen: what it refuses on blocks, and blocks that are not square
refuse() {   # refuse NAME EXPECTED ARGS...
    kit_schedgen_refuses kit-blocks-schedgen "$@"
}
refuse not-dividing "blocks are of a 2-D machine, sides 2 .. 8 that divide the machine's, at most 16 nodes (this is the 4x4 torus)" \
    --shape 4x4 --torus --coll blk3x2.bcast
refuse on-3d "blocks are of a 2-D machine" --shape 3x3x3 --torus --coll blk3x3.bcast
refuse too-large "at most 16 nodes" --shape 8x8 --mesh --coll blk8x4.allgather
refuse two-shapes "blocks of one shape a program" --shape 4x4 --mesh --coll blk2x2.bcast --coll blk4x2.allgather
refuse root-off-block "the root must be a rank 0..3 of a block" --shape 4x4 --torus --coll blk2x2.gather@4
refuse syntax "a block's collective is blkBXxBY.COLL" --shape 4x4 --torus --coll blk2.bcast
for spec in "8x4 torus 4x2" "8x8 mesh 2x4"; do
    read -r s t b <<<"$spec"
    if "$BUILD/bin/schedgen" --shape "$s" --$t --package "$work/ok-$s.pkg" --coll "blk$b.allgather" --coll "blk$b.bcast@5" \
        --coll "blk$b.alltoall" --coll "blk$b.scatter@7" --coll "blk$b.gather@1" >"$work/ok-$s.out" 2>&1 &&
        grep -q "blk$b\.scatter blk$b\.gather;" "$work/ok-$s.out"; then
        pass "kit-blocks-schedgen-$s-$t-$b ($(sed -n 's/.*tables: \(.*\); a node holds.*/\1/p' "$work/ok-$s.out"))"
    else
        fail "kit-blocks-schedgen-$s-$t-$b" "$(tail_of "$work/ok-$s.out" 2)"
    fi
done
