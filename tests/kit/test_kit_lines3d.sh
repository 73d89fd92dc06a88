#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# The three lines of a 3-D machine (rvmesh.h: RVM_COMM_ROW, RVM_COMM_COL, RVM_COMM_PILLAR;
# row., col., pil. in COLLECTIVES; issue 18 item 3) on the 3x3x3 torus and the 3x3x3 mesh
# (tests/kit/progs/lines3d): every call of the kit on rows, columns and pillars in turn (bcast,
# scatter, gather from and to each line's own roots, allgather, alltoall, allreduce on both
# paths, reduce, reduce-scatter) on the torus, on the pillars on the mesh (the simulated time:
# 27 nodes), a round on each with other data, roots and ops, every node checking
# every word it got against its own reference from every node's known input and that nothing
# past a result was written. Refused on every node with its code and message, nothing written:
# a root that is not a rank of the pillar (bcast) or of the row (reduce), a pillar root not
# declared, a communicator the machine has none of, a plane collective the program does not
# declare (the planes' own test: test_kit_planes.sh), a pillar's table compiled on the row.
# With LINES3D_MEASURE=1, prints the cycles (the most any node took, a repeated call after a barrier; 3x3x3 torus) of
# every pillar's and every row's bcast at once against the machine's bcast of the same bytes,
# and of every pillar's allreduce against the machine's. Also schedgen: a pillar root off the
# pillar refused (pil. on a 2-D machine: test_kit_subcomm.sh), and a 4x2x3 package (rows of 4,
# columns of 2, pillars of 3: every line of its own length) built and checked on the torus and
# the mesh.
# make test runs the torus only (the mesh's simulator alone is a minute of building, which
# make test cannot spare), on the torus's X-randomising model (test_coll_shapes.sh's: one
# build for both); LINES3D_SHAPES="3x3x3t 3x3x3m" adds the mesh's round (its pillars' calls
# with other roots and ops); schedgen's mesh tables are checked below either way.
# LINES3D_MEASURE=1 also measures and prints the cycles (25 s more).
set -u
. tests/kit/lib.sh
prog=tests/kit/progs/lines3d
shapes=${LINES3D_SHAPES:-3x3x3t}
measure=${LINES3D_MEASURE:-0}
model_of() { [ "$1" = 3x3x3t ] && echo mesh-sim-3x3x3t-xrand || echo "mesh-sim-$1"; }
# shellcheck disable=SC2046
kit_setup kit-lines3d schedgen $(for s in $shapes; do model_of "$s"; done) || exit 1

checks="ranks strides bcast-root-off-pillar reduce-root-off-row undeclared-pillar-scatter-root alltoall-bad-communicator
undeclared-plane-allgather pillar-table-on-row nothing-written pil-allreduce-after row-bcast-after"
round_checks() {   # round_checks K LINE...: the checks of round K on those lines
    local c l k="$1"
    shift
    for c in bcast allreduce-small scatter allreduce-large gather allgather reduce alltoall reduce-scatter; do
        for l in "$@"; do
            printf ' %s' "$l-$c-$k"
        done
    done
}

for shape in $shapes; do
    out="$work/$shape"
    # one round of the checks on each (the test's time): round 0 (sum, the affine op, max; every
    # member passing recv) on the torus, every line, with the cycles; round 1 (the affine op,
    # max, other roots; NULL recv off a reduction's root) on the mesh, its pillars' calls only
    # (rows and columns there: the refusals and a row bcast)
    flags="-DROUNDS=1u -DFIRST_ROUND=1u -DLINES=4u"
    lines=pil
    round=1
    if [ $shape = 3x3x3t ]; then
        flags="-DROUNDS=1u"
        [ "$measure" = 1 ] && flags="$flags -DMEASURE"
        lines="row col pil"
        round=0
    fi
    if ! kit_make "$shape-build" "$prog" OUT="$root/$out" SHAPE=$shape CFLAGS="$flags"; then
        fail "kit-lines3d-$shape-build" "$(tail_of "$work/$shape-build.log" 4)"
        continue
    fi
    "$BUILD/bin/$(model_of $shape)" --elf "$out/lines3d.elf" --max-cycles 6000000 >"$out/run.out" 2>"$out/run.err"
    rc=$?
    [ $rc -eq 0 ] && pass "kit-lines3d-$shape-run" || fail "kit-lines3d-$shape-run" "exit $rc: $(grep -m 3 FAILED "$out/run.out" | tr '\n' ' ')$(tail_of "$out/run.err" 2)"
    # shellcheck disable=SC2086
    kit_node_checks "kit-lines3d-$shape" "$out/run.out" 27 $checks $(round_checks $round $lines)
    while IFS= read -r message; do
        n=$(grep -cF -- "$message" "$out/run.out")
        [ "$n" -eq 27 ] && pass "kit-lines3d-$shape-message ${message:0:48}" || fail "kit-lines3d-$shape-message" "$n of 27 nodes printed '$message'"
    done <<'MSG'
rvm_bcast_on: root 3 is not a rank of this pillar (ranks 0..2: a root on a pillar is its z)
rvm_reduce_on: root 4 is not a rank of this row (ranks 0..2: a root on a row is its x)
rvm_scatter_on: pil.scatter with root 1 is not declared: add pil.scatter@1 to COLLECTIVES
rvm_alltoall_on: communicator 5: this machine has none such
rvm_allgather_on: pln.allgather is not declared for the planes: add pln.allgather to COLLECTIVES
coll_plan_init_on: a table built for a pillar, run on a row
MSG
    [ $shape = 3x3x3t ] && [ "$measure" = 1 ] || continue
    # the most cycles any node took
    for what in "bcast 1024 B" "bcast 16384 B"; do
        read -r pmax rmax mmax < <(grep "^\[[0-9],[0-9],[0-9]\] cycles $what: " "$out/run.out" |
            sed 's/.* pillar \([0-9]*\) row \([0-9]*\) machine \([0-9]*\).*/\1 \2 \3/' |
            awk 'BEGIN { p = 0; r = 0; m = 0 } { if ($1 > p) p = $1; if ($2 > r) r = $2; if ($3 > m) m = $3 } END { print p, r, m }')
        echo "    $shape $what: every pillar at once $pmax cycles, every row at once $rmax, the whole machine $mmax"
    done
    for what in "allreduce 972 B"; do
        read -r pmax mmax < <(grep "^\[[0-9],[0-9],[0-9]\] cycles $what: " "$out/run.out" |
            sed 's/.* pillar \([0-9]*\).* machine \([0-9]*\).*/\1 \2/' |
            awk 'BEGIN { p = 0; m = 0 } { if ($1 > p) p = $1; if ($2 > m) m = $2 } END { print p, m }')
        echo "    $shape $what: every pillar at once $pmax cycles, the whole machine $mmax"
    done
done

# schedgen: what it refuses on pillars, and every line of a machine whose sides differ
refuse() {   # refuse NAME EXPECTED ARGS...
    kit_schedgen_refuses kit-lines3d-schedgen "$@"
}
refuse root-off-pillar "the root must be a rank 0..2 of a pillar (its z)" --shape 4x2x3 --mesh --coll pil.gather@3
for t in torus mesh; do
    if "$BUILD/bin/schedgen" --shape 4x2x3 --$t --package "$work/ok-$t.pkg" --coll row.allgather --coll col.bcast@1 \
        --coll pil.alltoall --coll pil.scatter@2 --coll pil.allgather >"$work/ok-$t.out" 2>&1 &&
        grep -q "row\.[a-z-]* col\.saf-bcast \(col\.bcast-edst(2 parts) \)\?pil\.te-a2 pil\.scatter pil\.[a-z-]*;" "$work/ok-$t.out"; then
        pass "kit-lines3d-schedgen-4x2x3-$t ($(sed -n 's/.*tables: \(.*\); a node holds.*/\1/p' "$work/ok-$t.out"))"
    else
        fail "kit-lines3d-schedgen-4x2x3-$t" "$(tail_of "$work/ok-$t.out" 2)"
    fi
done
