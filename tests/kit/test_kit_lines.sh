#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# Every collective and reduction of the kit on rows and columns (rvmesh.h: rvm_scatter_on,
# rvm_gather_on, rvm_alltoall_on, rvm_allreduce_on, rvm_reduce_on, rvm_reduce_scatter_on;
# issue 18 item 3) on the 4x4 torus and the 4x4 mesh (tests/kit/progs/lines), every node
# checking every word it got against its own reference from every node's known input, and
# that nothing past a result (or off a reduction's or gather's root) was written: every row
# allreduces its own vector (the allgather path, the alltoall + allgather path, and on the torus
# the lines' NI rings for built-in ops and counts a multiple of 2n, each checked by
# rvm_last_reduce_path, a reduce-scatter's too) with the columns' calls in between; reductions to a root of each row's
# and column's own; scatter, gather, alltoall and reduce-scatter on rows and on columns; sum,
# min, max and an op of the program's own that does not commute; two rounds with other data
# and roots. Refused with their code and message, nothing written: a root that is not a rank
# of the line (scatter, gather, reduce), a communicator the machine has none of (7, and
# RVM_COMM_PILLAR here: a 2-D machine has no pillars), an unknown op.
# Built with COLLECTIVES="row.alltoall col.scatter@0" -DBAD: each call whose collective (or
# root) the line lacks refused (COLL_EUNDECLARED) with what to add, the declared ones still
# delivering. Prints the cycles (the most any node took, a repeated call after a barrier) of
# every row allreducing at once against one allreduce of the machine, 1 KiB and 16 KiB, and of
# every row's alltoall against the machine's with as many bytes a node (4x4 torus).
set -u
. tests/kit/lib.sh
prog=tests/kit/progs/lines
kit_setup kit-lines schedgen mesh-sim-4x4t mesh-sim-4x4m || exit 1

checks="ranks scatter-root-off-row gather-root-off-column reduce-root-off-column alltoall-bad-communicator
allreduce-bad-communicator pillar-on-2d allreduce-bad-op nothing-written row-allreduce-after col-alltoall-after"
for k in 0 1; do
    for c in row-allreduce-small col-alltoall row-allreduce-large col-reduce-large row-allreduce-large-odd row-reduce-small col-scatter \
        row-scatter row-gather col-gather row-alltoall col-allreduce-small row-reduce-scatter col-reduce-scatter; do
        checks="$checks $c-$k"
    done
done

# both shapes built (one after the other: they share the kit's objects' rules), then run side
# by side, each on a core
declare -A built pid
for shape in 4x4t 4x4m; do
    out="$work/$shape"
    flags=""
    [ $shape = 4x4t ] && flags=-DMEASURE
    if kit_make "$shape-build" "$prog" OUT="$root/$out" SHAPE=$shape CFLAGS="$flags"; then
        built[$shape]=1
        "$BUILD/bin/mesh-sim-$shape" --elf "$out/lines.elf" --max-cycles 4000000 >"$out/run.out" 2>"$out/run.err" &
        pid[$shape]=$!
    else
        fail "kit-lines-$shape-build" "$(tail_of "$work/$shape-build.log" 4)"
    fi
done
for shape in 4x4t 4x4m; do
    out="$work/$shape"
    [ -n "${built[$shape]:-}" ] || continue
    wait "${pid[$shape]}"
    rc=$?
    [ $rc -eq 0 ] && pass "kit-lines-$shape-run" || fail "kit-lines-$shape-run" "exit $rc: $(grep -m 3 FAILED "$out/run.out" | tr '\n' ' ')$(tail_of "$out/run.err" 2)"
    # shellcheck disable=SC2086
    kit_node_checks "kit-lines-$shape" "$out/run.out" 16 $checks
    while IFS= read -r message; do
        n=$(grep -cF -- "$message" "$out/run.out")
        [ "$n" -eq 16 ] && pass "kit-lines-$shape-message ${message:0:48}" || fail "kit-lines-$shape-message" "$n of 16 nodes printed '$message'"
    done <<'MSG'
rvm_scatter_on: root 4 is not a rank of this row (ranks 0..3: a root on a row is its x)
rvm_gather_on: root 7 is not a rank of this column (ranks 0..3: a root on a column is its y)
rvm_reduce_on: root 4 is not a rank of this column (ranks 0..3: a root on a column is its y)
rvm_alltoall_on: communicator 7: this machine has none such
rvm_allreduce_on: communicator 7: this machine has none such
rvm_bcast_on: communicator 3: this machine has none such
rvm_allreduce_on: op 99 is not an operation
MSG
    [ $shape = 4x4t ] || continue
    # the most cycles any node took
    for what in "allreduce 1024 B" "allreduce 16384 B" "alltoall 4096 B a node" "alltoall 16384 B a node"; do
        read -r rowmax machmax < <(grep "^\[[0-9],[0-9]\] cycles $what: " "$out/run.out" |
            sed 's/.* row \([0-9]*\).* machine \([0-9]*\).*/\1 \2/' |
            awk 'BEGIN { r = 0; m = 0 } { if ($1 > r) r = $1; if ($2 > m) m = $2 } END { print r, m }')
        echo "    $shape $what: every row at once $rowmax cycles, the whole machine $machmax"
    done
    compiled=$(sed -n 's/^\[[0-9],[0-9]\] cycles compiling in the timed calls: \([0-9]*\)$/\1/p' "$out/run.out" | sort -n | tail -n 1)
    [ "$compiled" = 0 ] && pass "kit-lines-$shape-timed-calls-kept (no plan compiled in a timed call)" ||
        fail "kit-lines-$shape-timed-calls-kept" "a timed call compiled plans: ${compiled:-no figure} cycles"
done

# what a line lacks: refused with what to add, on every node; what it declares still delivers
if kit_make bad-build "$prog" OUT="$root/$work/bad" COLLECTIVES="row.alltoall col.scatter@0" CFLAGS=-DBAD; then
    "$BUILD/bin/mesh-sim-4x4t" --elf "$work/bad/lines.elf" --max-cycles 2000000 >"$work/bad.out" 2>"$work/bad.err"
    rc=$?
    [ $rc -eq 0 ] && pass kit-lines-bad-run || fail kit-lines-bad-run "exit $rc: $(tail_of "$work/bad.err" 2)"
    kit_node_checks kit-lines-bad "$work/bad.out" 16 ranks undeclared-row-allreduce undeclared-row-reduce \
        undeclared-col-reduce-scatter undeclared-col-alltoall undeclared-col-gather undeclared-col-scatter-root \
        undeclared-row-scatter bad-nothing-written bad-col-scatter bad-row-alltoall
    while IFS= read -r message; do
        n=$(grep -cF -- "$message" "$work/bad.out")
        [ "$n" -eq 16 ] && pass "kit-lines-bad-message ${message:0:48}" || fail "kit-lines-bad-message" "$n of 16 nodes printed '$message'"
    done <<'MSG'
rvm_allreduce_on: row.allgather is not declared for the rows: add row.allgather to COLLECTIVES in the program's Makefile (it declares: row.alltoall col.scatter@0)
rvm_reduce_on: row.allgather is not declared for the rows: add row.allgather to COLLECTIVES
rvm_reduce_scatter_on: col.alltoall is not declared for the columns: add col.alltoall to COLLECTIVES
rvm_alltoall_on: col.alltoall is not declared for the columns: add col.alltoall to COLLECTIVES
rvm_gather_on: col.gather is not declared for the columns: add col.gather to COLLECTIVES
rvm_scatter_on: col.scatter with root 1 is not declared: add col.scatter@1 to COLLECTIVES
rvm_scatter_on: row.scatter is not declared for the rows: add row.scatter to COLLECTIVES
MSG
else
    fail kit-lines-bad-build "$(tail_of "$work/bad-build.log" 4)"
fi
