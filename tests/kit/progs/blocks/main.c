/* SPDX-License-Identifier: ISC
 * Every call of the kit on the blocks of a 2-D machine cut into equal 2x2 blocks (rvmesh.h:
 * rvm_*_on on RVM_COMM_BLOCK, blk2x2. in COLLECTIVES; tests/kit/test_kit_blocks.sh): each
 * block (rank x % 2 + 2 * (y % 2)) runs the call at the same time as the others, with a root
 * of its own (by the block's place), on its own links: bcast, scatter, gather, allgather,
 * alltoall, allreduce (the allgather path and the alltoall + allgather path, checked by
 * rvm_last_reduce_path), reduce to a root, reduce-scatter; sum, min, max and an op of the
 * program's own that does not commute. Every node can work out every node's input (in_word),
 * so each checks every word it got against a reference of its own, and that nothing past a
 * result (or off a gather's or reduction's root) was written. Then bad input refused with its
 * code, nothing written: a root that is not a rank of the block, a block root not declared, a
 * block's table run on the row's communicator and on the whole machine; then a block
 * allgather again. Last (-DMEASURE), the cycles of every block's bcast at once against the
 * machine's bcast of the same bytes (1 KiB and 16 KiB; a repeated call after a barrier, the
 * most any node took is the test's). Prints "check NAME: ok" for each check that held. The
 * checks themselves are ../comm_checks.h (shared with the planes' program). */
#define MEMBERS 16u           /* the most members a block has */
#define COMM RVM_COMM_BLOCK
#define COMM_NAME "block"
#include "../comm_checks.h"

static uint32_t x0, y0, blk;  /* the block's corner, its place (x / 2 + y / 2) */
#define BX 2u
/* the roots the blocks declare (Makefile): bcast, scatter, gather */
static const uint32_t roots[3][2] = {{0u, 3u}, {0u, 1u}, {2u, 3u}};

/* the input of rank r of this node's block */
static uint32_t member_word(uint32_t r, uint32_t k, uint32_t i) { return in_word(x0 + r % BX, y0 + r / BX, k, i); }

/* this block's root of collective c (0 bcast, 1 scatter, 2 gather): by its place */
static uint32_t root_of(uint32_t c) { return roots[c][blk % 2u]; }

int main(void)
{
    if (rvm_init() != COLL_OK)
        return 1;
    n = rvm_comm_size(RVM_COMM_BLOCK);
    me = rvm_comm_rank(RVM_COMM_BLOCK);
    const uint32_t x = rvm_comm_rank(RVM_COMM_ROW), y = rvm_comm_rank(RVM_COMM_COL);
    x0 = x - x % BX;
    y0 = y - y % BX;
    blk = x / BX + y / BX;
    affine = rvm_op_create(compose);
    large = n ? n * ((64u + n - 1u) / n) : 0u;
    out_words = n * large + 16u <= OUT_WORDS ? n * large + 16u : OUT_WORDS;   /* (the ranks check fails past it) */
    expect("ranks", n == BX * BX && large <= LARGE && me == x % BX + BX * (y % BX) &&
                        x + rvm_comm_size(RVM_COMM_ROW) * y == rvm_node() && rvm_comm_size(RVM_COMM_PLANE) == 0);
    const uint32_t k = 0;
    expect("blk-bcast", bcast_check(k, root_of(0), large));
    expect("blk-allreduce-small", reduce_check(k, SMALL, RVM_SUM, ~0u, "allgather"));
    expect("blk-scatter", scatter_check(k, root_of(1)));
    expect("blk-allreduce-large", reduce_check(k, large, affine, ~0u, "alltoall+allgather"));
    expect("blk-gather", gather_check(k, root_of(2)));
    expect("blk-allgather", allgather_check(k));
    expect("blk-reduce", reduce_check(k, large, RVM_MIN, (blk + 1u) % n, "alltoall+allgather"));
    expect("blk-alltoall", alltoall_check(k));
    expect("blk-reduce-scatter", reduce_scatter_check(k, RVM_MAX));
    /* the other roots, other data: the blocks' roots swapped */
    expect("blk-bcast-other-root", bcast_check(1u, roots[0][(blk + 1u) % 2u], SMALL));
    expect("blk-allreduce-small-affine", reduce_check(1u, SMALL, affine, ~0u, "allgather"));

    /* bad input: refused on every node alike, nothing written */
    rvm_errors_return(1);
    fill_in(5, large);
    clear_out();
    expect("bcast-root-off-block", rvm_bcast_on(RVM_COMM_BLOCK, out, 4u * BLOCK, n) == COLL_EROOT);
    expect("undeclared-block-bcast-root", rvm_bcast_on(RVM_COMM_BLOCK, out, 4u * BLOCK, 1) == COLL_EUNDECLARED);
    /* a block's table on the row's communicator and on the whole machine; the machine's on the block */
    const sched_table *blk_table = rvm_comm_table(RVM_COMM_BLOCK, RVM_BCAST, 0, 4u * BLOCK);
    const sched_table *machine_table = rvm_comm_table(RVM_COMM_WORLD, RVM_BCAST, 0, 4u * BLOCK);
    static uint8_t ws[4096] __attribute__((aligned(16)));
    coll_plan plan;
    expect("block-table-on-row", blk_table && rvm_comm_of(RVM_COMM_ROW) &&
                                     coll_plan_init_on(&plan, rvm_ctx(), rvm_comm_of(RVM_COMM_ROW), blk_table, 0, 0,
                                                       out, 4u * BLOCK, 4u * BLOCK, ws, sizeof ws) == COLL_ESHAPE);
    expect("block-table-on-machine", blk_table && coll_plan_init(&plan, rvm_ctx(), blk_table, 0, 0, out, 4u * BLOCK,
                                                                 4u * BLOCK, ws, sizeof ws) == COLL_ESHAPE);
    expect("machine-table-on-block", machine_table &&
                                         coll_plan_init_on(&plan, rvm_ctx(), rvm_comm_of(RVM_COMM_BLOCK), machine_table,
                                                           0, 0, out, 4u * BLOCK, 4u * BLOCK, ws, sizeof ws) ==
                                             COLL_ESHAPE);
    expect("nothing-written", out_is(0, 0));
    rvm_errors_return(0);
    expect("blk-allgather-after", allgather_check(6u));
#ifdef MEASURE
    measure();
#endif
    return failures ? 1 : 0;
}
