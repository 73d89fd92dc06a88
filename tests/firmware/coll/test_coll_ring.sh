#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 300
# The ring allreduce plans of firmware/coll/coll_ring.c, on the host: ring_check.c compiles the
# real coll_ring.c (and coll_dbl.c, below) and coll_barrier.c, compiles every node's plan for every 2-D torus from 3x3
# to 10x10 (and 16x16, 4x16, 32x3, ...), and every row's and every column's rings at once
# (coll_ring_line_compile: tori 3x3 to 9x9, 32x3, 16x4), several counts, in place and apart, a few buffer
# alignments, RAM lines of 16 words (counted by lines, paced relays), of 4 and of 1 (by worms),
# and runs them on an abstract machine with random scheduling (line-by-line transfers,
# staggered starts, bounded links), 10 seeds a configuration (fewer for the larger): no
# deadlock, no data before every node has started (the barrier), nothing reaches a node after
# it is done, the counters reach the plans' targets, the paced thresholds are exact, every node
# ends with every node's element exactly once. Planted faults (a paced threshold lowered, two
# descriptors swapped, a combining put made plain, a target one short, the phase-B and barrier
# waits lowered; the rows' too) must be caught. The short allreduce's plans of coll_dbl.c
# (recursive doubling) too: every power-of-two shape of 2 to 64 nodes, torus and mesh, counts
# of 1 to 37 words, the same checks (the result in the plan's last block; send never written);
# planted: a block's "whole" signal sent early, a round's put before its block is whole, the local
# target one short, the local combine made plain, the barrier wait lowered. The reduce-scatter
# (coll_ring_reduce_scatter_compile: every torus 3x3 to 8x8, apart, lines of 1 and 16 words):
# every node's block in its window 1 holds its elements of the sum exactly once, nothing past it
# written, send unchanged; in place refused), and every row's and column's at once
# (coll_ring_line_reduce_scatter_compile: tori 3x3 to 8x8, 16x4, in place and apart); planted:
# a piece sent to its owner one count early, an owner's target one short, the node's own part
# made plain (the machine's, the rows', the columns'). About 20 s on one
# core (ring_check 100 1: 100 seeds).
set -u
. tests/lib.sh
work="$BUILD/tests/coll-ring"
mkdir -p "$work"
src=tests/firmware/coll/ring_check.c
if ! cc -std=c11 -O2 -Wall -Wextra -Werror -Ifirmware/coll -Ifirmware/drivers -Ifirmware/rt -Ifirmware/sched \
        "$src" -o "$work/ring_check" >"$work/build.log" 2>&1; then
    fail coll-ring-build "cc $src failed: $(tail_of "$work/build.log" 4)"
    exit 0
fi
pass "coll-ring-build (host cc -Wall -Wextra -Werror, the real coll_ring.c, coll_dbl.c and coll_barrier.c)"
"$work/ring_check" 10 1 >"$work/run.out" 2>&1
rc=$?
while IFS= read -r line; do
    case "$line" in
        "ok "*) pass "${line#ok }" ;;
        "bad "*) rest="${line#bad }"; fail "${rest%%: *}" "${rest#*: }" ;;
    esac
done <"$work/run.out"
if [ "$rc" -ne 0 ] || ! grep -q '^ok coll-ring-shapes' "$work/run.out"; then
    fail coll-ring-run "ring_check exited $rc ($(tail_of "$work/run.out" 2))"
fi
exit 0
