#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# mnb-opt (allgather by one translated tree on a torus), bcast-edst (broadcast over arc-disjoint
# spanning trees, chunked), and the baselines bcast-binomial, allgather-ring, alltoall-pairwise:
# the C driver build/sched/opt_test (opt_test.c) generates them on a spread of shapes, proves
# them with the checker, verifies the trees on its own, asserts the slot counts, rebuilds
# schedules from their tables and breaks schedules on purpose; then schedgen: slot counts,
# tables written and verified, and refusals (exit 2, a message, nothing on stdout).
# The figures README.md quotes are the "table ..." lines of the driver, kept in this log.
set -u
. "$(dirname "$0")/coll_lib.sh"
if make -s sched-opt-test-bin schedgen >"$coll_tmp/opt-build.log" 2>&1; then
    pass "sched-opt: opt_test driver and schedgen build (-Wall -Wextra -Werror)"
else
    fail "sched-opt: build" "$(tail_of "$coll_tmp/opt-build.log" 5)"
    exit 1
fi
for part in mnb edst base neg tables; do
    run_driver "opt_test $part" "$coll_tmp/opt-$part.out" "$BUILD/sched/opt_test" "$part"
    grep '^table ' "$coll_tmp/opt-$part.out"   # the figures, for the log (not checks)
done

gen="$BUILD/bin/schedgen"
ok() {  # name, expected text in stdout, args...
    local name="$1" want="$2"; shift 2
    if "$gen" "$@" --check >"$coll_tmp/opt.out" 2>&1 && grep -q -- "$want" "$coll_tmp/opt.out"; then
        pass "schedgen $name"
    else
        fail "schedgen $name" "$(head -c 300 "$coll_tmp/opt.out" | tr '\n' ' ')"
    fi
}
ok "mnb-opt 4x4 torus: 4 slots, checked" "check: PASS steps 4 " --shape 4x4 --torus --algo mnb-opt
ok "mnb-opt 8x8 torus: 16 slots, checked" "check: PASS steps 16 " --shape 8x8 --torus --algo mnb-opt
ok "mnb-opt 5x5 torus: 6 slots, checked" "check: PASS steps 6 " --shape 5x5 --torus --algo mnb-opt
ok "mnb-opt 7x7 torus: 12 slots, checked" "check: PASS steps 12 " --shape 7x7 --torus --algo mnb-opt
ok "mnb-opt 4x4x4 torus: 11 slots, checked" "check: PASS steps 11 " --shape 4x4x4 --torus --algo mnb-opt
ok "mnb-opt prints its bound next to the slots" "16 steps (bound 16, " --shape 8x8 --torus --algo mnb-opt
ok "bcast-edst 8x8 torus: depth 9, checked" "check: PASS steps 9 " --shape 8x8 --torus --algo bcast-edst
ok "bcast-edst 8x8 torus, 4 chunks: 12 slots, 16 parts" "12 steps (bound 12, paper -, lower bound 12), 1008 messages, 16 parts per block" \
    --shape 8x8 --torus --algo bcast-edst --chunks 4
ok "bcast-edst 4x4 mesh from (1,2): checked" "check: PASS" --shape 4x4 --mesh --algo bcast-edst --root 1,2
# on lines (a row, column or pillar as a shape of its own): a ring's two ways round, X - 1 slots
# (+ chunks - 1), an array's tree both ways from the root (its eccentricity)
ok "bcast-edst 7x1 ring from 3: 6 slots, 2 parts, checked" "check: PASS steps 6 messages 12 " --shape 7x1 --torus --algo bcast-edst --root 3,0
ok "bcast-edst 1x8 ring from 5, 2 chunks: 8 slots, 4 parts, checked" "check: PASS steps 8 messages 28 " --shape 1x8 --torus --algo bcast-edst --root 0,5 --chunks 2
ok "bcast-edst 1x1x4 ring from 2: 3 slots, checked" "check: PASS steps 3 messages 6 " --shape 1x1x4 --torus --algo bcast-edst --root 0,0,2
ok "bcast-edst 1x2 ring: 1 slot over both links, checked" "check: PASS steps 1 messages 2 .* links_used 2 " --shape 1x2 --torus --algo bcast-edst
ok "bcast-edst 6x1 array from 1: 4 slots, checked" "check: PASS steps 4 messages 5 " --shape 6x1 --mesh --algo bcast-edst --root 1,0
ok "bcast-edst 5x1 array from 4, 3 chunks: 6 slots, checked" "check: PASS steps 6 messages 12 " --shape 5x1 --mesh --algo bcast-edst --root 4,0 --chunks 3
ok "saf-bcast 9x1 ring from 2: 4 slots, checked" "check: PASS steps 4 messages 8 " --shape 9x1 --torus --algo saf-bcast --root 2,0
if "$gen" --shape 5x3 --torus --package "$coll_tmp/lines.pkg" --coll row.bcast:bcast-edst@3 --coll col.bcast:bcast-edst/2@1 \
        --coll row.bcast@1 >"$coll_tmp/opt.out" 2>&1 &&
        grep -q "row.bcast-edst(2 parts) col.bcast-edst(4 parts)" "$coll_tmp/opt.out"; then
    pass "schedgen --package 5x3 torus: row.bcast:bcast-edst, col.bcast:bcast-edst/2 built and checked"
else
    fail "schedgen --package row.bcast:bcast-edst" "$(head -c 300 "$coll_tmp/opt.out" | tr '\n' ' ')"
fi
ok "bcast-binomial 8x8 torus from (3,5): 6 rounds, checked" "check: PASS steps 6 " --shape 8x8 --torus --algo bcast-binomial --root 3,5
ok "allgather-ring 4x6 mesh: 23 slots, checked" "check: PASS steps 23 " --shape 4x6 --mesh --algo allgather-ring
ok "alltoall-pairwise 4x4x4 torus: 63 rounds, checked" "check: PASS steps 63 " --shape 4x4x4 --torus --algo alltoall-pairwise

# Tables of every new algorithm: written, then verified as a tables file of the shape.
tables_ok() {  # name, args...
    local name="$1"; shift
    rm -f "$coll_tmp/opt.tbl"
    if "$gen" "$@" --quiet --tables "$coll_tmp/opt.tbl" >"$coll_tmp/opt.out" 2>&1 &&
            "$gen" "${@:1:3}" --verify-tables "$coll_tmp/opt.tbl" >>"$coll_tmp/opt.out" 2>&1 &&
            grep -q "node tables valid for this shape" "$coll_tmp/opt.out"; then
        pass "schedgen $name: tables written and verified"
    else
        fail "schedgen $name: tables" "$(head -c 300 "$coll_tmp/opt.out" | tr '\n' ' ')"
    fi
}
tables_ok "mnb-opt 6x4 torus" --shape 6x4 --torus --algo mnb-opt
tables_ok "bcast-edst 4x4x4 torus, 2 chunks" --shape 4x4x4 --torus --algo bcast-edst --chunks 2
tables_ok "bcast-edst 5x5 mesh" --shape 5x5 --mesh --algo bcast-edst --root 2,2
tables_ok "bcast-binomial 5x5 mesh" --shape 5x5 --mesh --algo bcast-binomial
tables_ok "allgather-ring 3x3x3 torus" --shape 3x3x3 --torus --algo allgather-ring
tables_ok "alltoall-pairwise 4x4 mesh" --shape 4x4 --mesh --algo alltoall-pairwise
# A chunked broadcast's dump names each message's part.
if "$gen" --shape 4x4 --torus --algo bcast-edst --chunks 2 --quiet --dump "$coll_tmp/edst.txt" &&
        grep -q '^# step src dst start_dim dir piece$' "$coll_tmp/edst.txt" &&
        [ "$(grep -vc '^#' "$coll_tmp/edst.txt")" -eq 120 ] && grep -q '^6 .* [0-7]$' "$coll_tmp/edst.txt"; then
    pass "schedgen bcast-edst 4x4, 2 chunks: dump of 120 hops with their parts 0..7, the last in slot 6"
else
    fail "schedgen bcast-edst dump" "$(head -c 300 "$coll_tmp/edst.txt" | tr '\n' ' ')"
fi

# Refusals: exit 2, the reason on stderr, nothing on stdout.
refuse() {  # name, expected text, args...
    local name="$1" want="$2"; shift 2
    "$gen" "$@" >"$coll_tmp/opt.out" 2>"$coll_tmp/opt.err"; local rc=$?
    if [ "$rc" -eq 2 ] && grep -q -- "$want" "$coll_tmp/opt.err" && [ ! -s "$coll_tmp/opt.out" ]; then
        pass "schedgen refuses $name"
    else
        fail "schedgen refuses $name" "exit $rc, stderr: $(head -c 200 "$coll_tmp/opt.err"), stdout: $(head -c 100 "$coll_tmp/opt.out")"
    fi
}
refuse "mnb-opt on a mesh" "mnb-opt needs a torus" --shape 4x4 --mesh --algo mnb-opt
refuse "mnb-opt on 65x64 (N(N-1) messages)" "limited to 4096 nodes" --shape 65x64 --torus --algo mnb-opt
refuse "bcast-edst on 65x64" "bcast-edst is limited to 4096 nodes" --shape 65x64 --torus --algo bcast-edst
refuse "allgather-ring on 65x64" "allgather-ring is limited to 4096 nodes" --shape 65x64 --torus --algo allgather-ring
refuse "alltoall-pairwise on 65x64" "alltoall-pairwise is limited to 4096 nodes" --shape 65x64 --torus --algo alltoall-pairwise
refuse "allgather-ring on the 5x5 mesh" "no Hamiltonian cycle" --shape 5x5 --mesh --algo allgather-ring
refuse "allgather-ring on the 3x3x3 mesh" "needs a torus, or a mesh with an even side" --shape 3x3x3 --mesh --algo allgather-ring
refuse "a line with an algorithm of 2 or 3 dimensions" "a line such as 8x1 goes with --algo saf-bcast or bcast-edst" --shape 8x1 --torus --algo mnb-opt
refuse "a line's tables (--package builds them)" "at least 2" --shape 8x1 --torus --verify-tables "$coll_tmp/lines.pkg"
refuse "--chunks with mnb" "--chunks applies to bcast-edst only" --shape 4x4 --torus --algo mnb --chunks 2
refuse "--chunks 0" "bad --chunks '0': chunks per tree must be a decimal number 1 .. 1024" --shape 4x4 --torus --algo bcast-edst --chunks 0
refuse "--chunks 1025" "bad --chunks '1025'" --shape 4x4 --torus --algo bcast-edst --chunks 1025
refuse "--chunks +3" "bad --chunks '+3'" --shape 4x4 --torus --algo bcast-edst --chunks +3
refuse "an unknown algorithm, listing every one" "mnb-opt, allgather-ring, alltoall-pairwise" --shape 4x4 --torus --algo nope
refuse "a missing --algo, listing every one" "bcast-edst, bcast-binomial" --shape 4x4 --torus
