#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 400
# The XY planes of a 3-D machine (rvmesh.h: RVM_COMM_PLANE; pln. in COLLECTIVES; issue 18 item
# 3) on the 3x3x3 torus (tests/kit/progs/planes): the three planes each run every call of the
# kit at once, each from a root of its own (bcast, scatter, gather; allgather, alltoall,
# allreduce on both paths, reduce, reduce-scatter), every node checking every word it got
# against its own reference from every node's known input and that nothing past a result was
# written. Refused on every node with its code and message, nothing written: a root that is
# not a rank of the plane, a plane root not declared, a plane's table compiled on the row
# (a collective not declared for the planes: test_kit_lines3d.sh, whose program declares none;
# RVM_COMM_PLANE on a 2-D machine: test_kit_subcomm.sh). Also schedgen: pln. on a 2-D machine
# refused, a plane root off the plane refused, a 4x2x3 package (planes of 4x2) built and
# checked on the torus and the mesh.
# On the torus's X-randomising model (test_coll_shapes.sh's and test_kit_lines3d.sh's: no
# build of its own). PLANES_SHAPES="3x3x3t 3x3x3m" adds the mesh (a minute of building its
# simulator). PLANES_MEASURE=1 also prints the cycles of every plane's bcast at once against
# the machine's bcast of the same bytes (1 KiB and 16 KiB; the most any node took).
set -u
. tests/kit/lib.sh
prog=tests/kit/progs/planes
shapes=${PLANES_SHAPES:-3x3x3t}
measure=${PLANES_MEASURE:-0}
model_of() { [ "$1" = 3x3x3t ] && echo mesh-sim-3x3x3t-xrand || echo "mesh-sim-$1"; }
# shellcheck disable=SC2046
kit_setup kit-planes schedgen $(for s in $shapes; do model_of "$s"; done) || exit 1

checks="ranks pln-bcast pln-allreduce-small pln-scatter pln-allreduce-large pln-gather pln-allgather pln-reduce
pln-alltoall pln-reduce-scatter pln-bcast-other-root pln-allreduce-small-affine bcast-root-off-plane
undeclared-plane-bcast-root plane-table-on-row nothing-written pln-allgather-after"

for shape in $shapes; do
    out="$work/$shape"
    flags=""
    [ "$measure" = 1 ] && flags="-DMEASURE"
    if ! kit_make "$shape-build" "$prog" OUT="$root/$out" SHAPE=$shape CFLAGS="$flags"; then
        fail "kit-planes-$shape-build" "$(tail_of "$work/$shape-build.log" 4)"
        continue
    fi
    "$BUILD/bin/$(model_of $shape)" --elf "$out/planes.elf" --max-cycles 6000000 >"$out/run.out" 2>"$out/run.err"
    rc=$?
    [ $rc -eq 0 ] && pass "kit-planes-$shape-run" || fail "kit-planes-$shape-run" "exit $rc: $(grep -m 3 FAILED "$out/run.out" | tr '\n' ' ')$(tail_of "$out/run.err" 2)"
    # shellcheck disable=SC2086
    kit_node_checks "kit-planes-$shape" "$out/run.out" 27 $checks
    while IFS= read -r message; do
        n=$(grep -cF -- "$message" "$out/run.out")
        [ "$n" -eq 27 ] && pass "kit-planes-$shape-message ${message:0:48}" || fail "kit-planes-$shape-message" "$n of 27 nodes printed '$message'"
    done <<'MSG'
rvm_bcast_on: root 9 is not a rank of this plane (ranks 0..8: a root on a plane is its x + X*y)
rvm_bcast_on: pln.bcast with root 3 is not declared: add pln.bcast@3 to COLLECTIVES
coll_plan_init_on: a table built for a plane, run on a row
MSG
    [ "$measure" = 1 ] || continue
    for what in "bcast 1024 B" "bcast 16384 B"; do
        read -r pmax mmax < <(grep "^\[[0-9],[0-9],[0-9]\] cycles $what: " "$out/run.out" |
            sed 's/.* plane \([0-9]*\) machine \([0-9]*\).*/\1 \2/' |
            awk 'BEGIN { p = 0; m = 0 } { if ($1 > p) p = $1; if ($2 > m) m = $2 } END { print p, m }')
        echo "    $shape $what: every plane at once $pmax cycles, the whole machine $mmax"
    done
done

# schedgen: what it refuses on planes, and planes of a machine whose sides differ
refuse() {   # refuse NAME EXPECTED ARGS...
    kit_schedgen_refuses kit-planes-schedgen "$@"
}
refuse plane-on-2d "plane collectives (pln., the XY plane of each z) need a 3-D machine" --shape 4x4 --torus --coll pln.bcast
refuse root-off-plane "the root must be a rank 0..7 of a plane (its x + X*y)" --shape 4x2x3 --mesh --coll pln.gather@8
for t in torus mesh; do
    if "$BUILD/bin/schedgen" --shape 4x2x3 --$t --package "$work/ok-$t.pkg" --coll pln.allgather --coll pln.bcast@5 \
        --coll pln.alltoall --coll pln.scatter@7 --coll pln.gather@1 --coll row.bcast@1 >"$work/ok-$t.out" 2>&1 &&
        grep -qE "pln\.[a-z-]* .*pln\.scatter pln\.gather row\.saf-bcast( row\.bcast-edst[^;]*)?;" "$work/ok-$t.out"; then
        pass "kit-planes-schedgen-4x2x3-$t ($(sed -n 's/.*tables: \(.*\); a node holds.*/\1/p' "$work/ok-$t.out"))"
    else
        fail "kit-planes-schedgen-4x2x3-$t" "$(tail_of "$work/ok-$t.out" 2)"
    fi
done
