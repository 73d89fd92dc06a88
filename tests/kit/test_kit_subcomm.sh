#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 900
# Row and column communicators (rvmesh.h: rvm_bcast_on, rvm_allgather_on; issue 18 item 3) on
# the 4x4 torus and the 4x4 mesh (tests/kit/progs/subcomm): every row broadcasts its own 1 KiB
# vector from its own root (row y from rank y) at the same time as the others, then every
# column gathers a 256-byte block from each member, three rounds with other data, every node
# checking every byte; bad input refused on every node with its code and message and nothing
# written (a root that is not a rank of the row, row.allgather and col.bcast not declared, a
# row's table compiled on the column and on the whole machine, a communicator that does not
# exist, RVM_COMM_PLANE on this 2-D machine, RVM_COMM_BLOCK in a program that declares no block), then the row broadcast and the column allgather again; bcast-edst on every row and
# column (-DLINE_BCAST: the rings' two ways round on the torus, the arrays' tree in 2 chunks on
# the mesh), byte-exact from every root at 8 B, 1,032 B and 16 KiB; one node that skips its row's
# broadcast leaves its row in a timeout naming the row (80), the other rows deliver. Prints the cycles of the rows'
# broadcasts (all at once) against the whole machine's of the same bytes, 1 KiB and 16 KiB
# (the most any node took). Also: the torus build refused by the mesh's mesh-sim before reset
# (120), and schedgen's refusals of row and column specs it cannot build.
set -u
. tests/kit/lib.sh
prog=tests/kit/progs/subcomm
kit_setup kit-subcomm schedgen mesh-sim-4x4t mesh-sim-4x4m || exit 1

checks="ranks row-bcast-0 col-allgather-0 row-bcast-1 col-allgather-1 row-bcast-2 col-allgather-2 root-off-row
undeclared-row-allgather undeclared-col-bcast bad-communicator no-plane no-block row-table-found row-table-on-column row-table-on-machine
nothing-written row-bcast-after col-allgather-after"

for shape in 4x4t 4x4m; do
    out="$work/$shape"
    if ! kit_make "$shape-build" "$prog" OUT="$root/$out" SHAPE=$shape; then
        fail "kit-subcomm-$shape-build" "$(tail_of "$work/$shape-build.log" 4)"
        continue
    fi
    "$BUILD/bin/mesh-sim-$shape" --elf "$out/subcomm.elf" --max-cycles 5000000 >"$out/run.out" 2>"$out/run.err"
    rc=$?
    [ $rc -eq 0 ] && pass "kit-subcomm-$shape-run" || fail "kit-subcomm-$shape-run" "exit $rc: $(grep -m 3 FAILED "$out/run.out" | tr '\n' ' ')$(tail_of "$out/run.err" 2)"
    # shellcheck disable=SC2086
    kit_node_checks "kit-subcomm-$shape" "$out/run.out" 16 $checks
    while IFS= read -r message; do
        n=$(grep -cF -- "$message" "$out/run.out")
        [ "$n" -eq 16 ] && pass "kit-subcomm-$shape-message ${message:0:48}" || fail "kit-subcomm-$shape-message" "$n of 16 nodes printed '$message'"
    done <<'MSG'
rvm_bcast_on: root 4 is not a rank of this row (ranks 0..3: a root on a row is its x)
rvm_allgather_on: row.allgather is not declared for the rows: add row.allgather to COLLECTIVES in the program's Makefile (it declares: bcast@0 row.bcast@0 row.bcast@1 row.bcast@2 row.bcast@3 col.allgather)
rvm_bcast_on: col.bcast is not declared for the columns: add col.bcast to COLLECTIVES
rvm_bcast_on: communicator 7: this machine has none such
rvm_bcast_on: communicator 4: this machine has none such
rvm_allgather_on: communicator 5: this machine has none such
coll_plan_init_on: a table built for a row, run on a column
coll_plan_init: a table built for a row, run on the whole machine (give it the communicator of its line: coll_plan_init_on)
MSG
    for bytes in 1024 16384; do
        # the most cycles any node took: the rows' broadcasts, the machine's
        read -r rowmax machmax < <(sed -n "s/^\[[0-9],[0-9]\] cycles bcast $bytes B: row \([0-9]*\) machine \([0-9]*\)$/\1 \2/p" "$out/run.out" |
            awk 'BEGIN { r = 0; m = 0 } { if ($1 > r) r = $1; if ($2 > m) m = $2 } END { print r, m }')
        echo "    $shape bcast of $bytes B: every row at once (its own root) $rowmax cycles, the whole machine $machmax"
    done
done

# bcast-edst on rows and columns (the torus's rings: the two ways round, half the message each;
# the mesh's arrays: its one tree in 2 chunks), every line at once, roots at every rank, 8 B,
# 1,032 B, 16 KiB, byte-exact on every node; the rows' cycles from 16 B to 16 KiB
for shape in 4x4t 4x4m; do
    algo=bcast-edst
    [ $shape = 4x4m ] && algo=bcast-edst/2
    colls=""
    for line in row col; do for r in 0 1 2 3; do colls="$colls $line.bcast:$algo@$r"; done; done
    out="$work/$shape-edst"
    if ! kit_make "$shape-edst-build" "$prog" OUT="$root/$out" SHAPE=$shape COLLECTIVES="$colls" CFLAGS=-DLINE_BCAST; then
        fail "kit-subcomm-$shape-edst-build" "$(tail_of "$work/$shape-edst-build.log" 4)"
        continue
    fi
    "$BUILD/bin/mesh-sim-$shape" --elf "$out/subcomm.elf" --max-cycles 2000000 >"$out/run.out" 2>"$out/run.err"
    rc=$?
    [ $rc -eq 0 ] && pass "kit-subcomm-$shape-edst-run ($algo on every row and column)" ||
        fail "kit-subcomm-$shape-edst-run" "exit $rc: $(grep -m 3 "FAILED\|rvm_" "$out/run.out" | tr '\n' ' ')$(tail_of "$out/run.err" 2)"
    kit_node_checks "kit-subcomm-$shape-edst" "$out/run.out" 16 ranks row-bcast-8 row-bcast-1032 row-bcast-16384 \
        col-bcast-8 col-bcast-1032 col-bcast-16384
    figures=""
    for bytes in 16 64 256 512 1024 4096 16384; do
        most=$(sed -n "s/^\[[0-9],[0-9]\] cycles row bcast $bytes B: \([0-9]*\)$/\1/p" "$out/run.out" | sort -n | tail -n 1)
        figures="$figures $bytes B ${most:-?},"
    done
    echo "    $shape every row at once by $algo (the most cycles of any node):${figures%,}"
done

# SUBCOMM_LONG=1 (not in make test: the 32x2 torus's model is about 4 minutes of building, then a
# minute of simulation): lines of 32, the longest a communicator takes (COLL_COMM_MAX_SIZE):
# every row of 32 and column of 2 broadcasting by default (rows: saf-bcast below 4 KiB,
# bcast-edst/8 from it; columns: bcast-edst at every size), byte-exact on every node
if [ "${SUBCOMM_LONG:-0}" = 1 ] && make_or_fail kit-subcomm-32x2t-model "$work/model32.log" mesh-sim-32x2t MESH_SIM_EXTRA=32x2t; then
    out="$work/32x2t"
    if kit_make 32x2t-build "$prog" OUT="$root/$out" SHAPE=32x2t \
        COLLECTIVES="row.bcast@0 row.bcast@1 row.bcast@2 col.bcast@0 col.bcast@1" CFLAGS=-DLINE_BCAST; then
        "$BUILD/bin/mesh-sim-32x2t" --elf "$out/subcomm.elf" --max-cycles 3000000 >"$out/run.out" 2>"$out/run.err"
        rc=$?
        [ $rc -eq 0 ] && pass "kit-subcomm-32x2t-run (rows of 32)" || fail kit-subcomm-32x2t-run "exit $rc: $(tail_of "$out/run.err" 2)"
        kit_node_checks kit-subcomm-32x2t "$out/run.out" 64 ranks row-bcast-8 row-bcast-1032 row-bcast-16384 \
            col-bcast-8 col-bcast-1032 col-bcast-16384
    else
        fail kit-subcomm-32x2t-build "$(tail_of "$work/32x2t-build.log" 4)"
    fi
fi

# the lines' default broadcast by size: on a ring of up to 8 bcast-edst from 512 B a hop it adds
# over saf-bcast's (a ring of 8: 3 hops, 1,536 B; of 4: 512 B), on a longer ring bcast-edst/8
# from 4 KiB, saf-bcast alone on a linear array
if "$BUILD/bin/schedgen" --shape 8x4 --torus --package "$work/default.pkg" --coll row.bcast@7 --coll col.bcast@1 \
    >"$work/default-pkg.out" 2>&1 &&
    grep -qF "row.saf-bcast row.bcast-edst(2 parts)>=1536B col.saf-bcast col.bcast-edst(2 parts)>=512B;" "$work/default-pkg.out" &&
    "$BUILD/bin/schedgen" --shape 9x4 --torus --package "$work/default.pkg" --coll row.bcast@7 \
    >>"$work/default-pkg.out" 2>&1 && grep -qF "2 tables: row.saf-bcast row.bcast-edst(16 parts)>=4096B;" "$work/default-pkg.out" &&
    "$BUILD/bin/schedgen" --shape 8x4 --mesh --package "$work/default.pkg" --coll row.bcast@7 --coll col.bcast@1 \
    >>"$work/default-pkg.out" 2>&1 && grep -qF "2 tables: row.saf-bcast col.saf-bcast;" "$work/default-pkg.out"; then
    pass "kit-subcomm-schedgen-line-default (rings of up to 8: saf-bcast, bcast-edst from 512 B a further hop; longer: bcast-edst/8 from 4 KiB; arrays: saf-bcast)"
else
    fail kit-subcomm-schedgen-line-default "$(tail_of "$work/default-pkg.out" 2)"
fi

# node (1,2) skips its row's broadcast: row 2's other three time out in the row's start barrier
# (status 80), the twelve nodes of the other rows deliver and exit 0
if kit_make skip-build "$prog" OUT="$root/$work/skip" CFLAGS=-DSKIP TIMEOUT=20000; then
    "$BUILD/bin/mesh-sim-4x4t" --elf "$work/skip/subcomm.elf" --max-cycles 3000000 >"$work/skip.out" 2>"$work/skip.err"
    rc=$?
    t=$(grep -c "^\[[0-3],2\] node ([0-3],2): rvm_bcast_on: timeout in the start barrier: 2 of the other 3 members' signals came (has every member of this row made this call?)" "$work/skip.out")
    ok=$(grep -c "^\[[0-3],[013]\] check row-bcast-skip: ok$" "$work/skip.out")
    [ $rc -eq 80 ] && [ "$t" -eq 3 ] && [ "$ok" -eq 12 ] && ! grep -q FAILED "$work/skip.out" &&
        pass "kit-subcomm-row-skipped (row 2 times out naming its row, status 80; the 12 nodes of the other rows deliver)" ||
        fail kit-subcomm-row-skipped "exit $rc, $t timeouts in row 2, $ok nodes of other rows ok"
else
    fail kit-subcomm-skip-build "$(tail_of "$work/skip-build.log" 4)"
fi

# the torus's image on the mesh: refused before reset, as any program built for another shape
if [ -f "$work/4x4t/subcomm.elf" ]; then
    "$BUILD/bin/mesh-sim-4x4m" --elf "$work/4x4t/subcomm.elf" --max-cycles 100000 >"$work/wrong.out" 2>"$work/wrong.err"
    rc=$?
    [ $rc -eq 120 ] && grep -q "the program was built for the 4x4 torus" "$work/wrong.err" &&
        pass "kit-subcomm-wrong-shape (120: built for the 4x4 torus)" || fail kit-subcomm-wrong-shape "exit $rc: $(tail_of "$work/wrong.err" 2)"
fi

# schedgen: what it cannot build for rows and columns, said before any work (exit 2)
refuse() {   # refuse NAME EXPECTED ARGS...
    kit_schedgen_refuses kit-subcomm-schedgen "$@"
}
refuse root-off-row "the root must be a rank 0..3 of a row (its x)" --shape 4x4 --torus --coll row.bcast@4
refuse algo-off-line "mnb-diag does not run on a row" --shape 4x4 --mesh --coll row.allgather:mnb-diag
refuse pil-on-2d "pillar collectives (pil., the lines along z) need a 3-D machine" --shape 4x4 --mesh --coll pil.bcast
refuse twice "is declared twice" --shape 4x4 --torus --coll row.bcast --coll row.bcast:bcast-binomial
if "$BUILD/bin/schedgen" --shape 8x4 --mesh --package "$work/ok.pkg" --coll row.allgather --coll col.bcast@3 \
    --coll allgather >"$work/ok-pkg.out" 2>&1 &&
    grep -q "row.allgather-ring col.saf-bcast mnb-diag" "$work/ok-pkg.out"; then
    pass "kit-subcomm-schedgen-8x4-mesh (rows of 8, columns of 4: $(sed -n 's/.*\(a node holds[^,]*\).*/\1/p' "$work/ok-pkg.out"))"
else
    fail kit-subcomm-schedgen-8x4-mesh "$(tail_of "$work/ok-pkg.out" 2)"
fi
