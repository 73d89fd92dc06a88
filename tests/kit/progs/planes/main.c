/* SPDX-License-Identifier: ISC
 * Every call of the kit on the XY planes of a 3-D machine (rvmesh.h: rvm_*_on on
 * RVM_COMM_PLANE, pln. in COLLECTIVES; tests/kit/test_kit_planes.sh): each plane (the X*Y
 * nodes of one z, rank x + X*y) runs the call at the same time as the others, with a root of
 * its own (the planes of even z one, those of odd z the other): bcast, scatter, gather,
 * allgather, alltoall, allreduce (the allgather path and the alltoall + allgather path, checked
 * by rvm_last_reduce_path), reduce to a root, reduce-scatter; sum, min, max and an op of the
 * program's own that does not commute. Every node can work out every node's input (in_word),
 * so each checks every word it got against a reference of its own, and that nothing past a
 * result (or off a gather's or reduction's root) was written. Then bad input refused with its
 * code, nothing written: a root that is not a rank of the plane, a plane root not declared, a
 * plane's table run on the row's communicator; then a plane allgather again. Last (-DMEASURE),
 * the cycles of every plane's bcast at once against the machine's bcast of the same bytes
 * (1 KiB and 16 KiB; a repeated call after a barrier, the most any node took is the test's).
 * Prints "check NAME: ok" for each check that held. The checks themselves are
 * ../comm_checks.h (shared with the blocks' program). */
#define MEMBERS 16u           /* the most members a plane has */
#define COMM RVM_COMM_PLANE
#define COMM_NAME "plane"
#include "../comm_checks.h"

static uint32_t X, z;
/* the roots the planes declare (Makefile): bcast, scatter, gather */
static const uint32_t roots[3][2] = {{0u, 4u}, {0u, 8u}, {4u, 8u}};

/* the input of rank r of this node's plane */
static uint32_t member_word(uint32_t r, uint32_t k, uint32_t i) { return in_word(r % X, r / X, k, i); }

/* this plane's root of collective c (0 bcast, 1 scatter, 2 gather): by its z */
static uint32_t root_of(uint32_t c) { return roots[c][z % 2u]; }

int main(void)
{
    if (rvm_init() != COLL_OK)
        return 1;
    n = rvm_comm_size(RVM_COMM_PLANE);
    me = rvm_comm_rank(RVM_COMM_PLANE);
    X = rvm_comm_size(RVM_COMM_ROW);
    z = rvm_comm_rank(RVM_COMM_PILLAR);
    key_z = z;
    affine = rvm_op_create(compose);
    large = n ? n * ((64u + n - 1u) / n) : 0u;
    out_words = n * large + 16u <= OUT_WORDS ? n * large + 16u : OUT_WORDS;   /* (the ranks check fails past it) */
    expect("ranks", n == RVMESH_MESH_X * RVMESH_MESH_Y && n <= MEMBERS && large <= LARGE &&
                        me == rvm_comm_rank(RVM_COMM_ROW) + X * rvm_comm_rank(RVM_COMM_COL) &&
                        me + n * z == rvm_node());
    const uint32_t k = 0;
    expect("pln-bcast", bcast_check(k, root_of(0), large));
    expect("pln-allreduce-small", reduce_check(k, SMALL, RVM_SUM, ~0u, "allgather"));
    expect("pln-scatter", scatter_check(k, root_of(1)));
    expect("pln-allreduce-large", reduce_check(k, large, affine, ~0u, "alltoall+allgather"));
    expect("pln-gather", gather_check(k, root_of(2)));
    expect("pln-allgather", allgather_check(k));
    expect("pln-reduce", reduce_check(k, large, RVM_MIN, (z + 1u) % n, "alltoall+allgather"));
    expect("pln-alltoall", alltoall_check(k));
    expect("pln-reduce-scatter", reduce_scatter_check(k, RVM_MAX));
    /* the other roots, other data: the planes' roots swapped */
    expect("pln-bcast-other-root", bcast_check(1u, roots[0][(z + 1u) % 2u], SMALL));
    expect("pln-allreduce-small-affine", reduce_check(1u, SMALL, affine, ~0u, "allgather"));

    /* bad input: refused on every node alike, nothing written */
    rvm_errors_return(1);
    fill_in(5, large);
    clear_out();
    expect("bcast-root-off-plane", rvm_bcast_on(RVM_COMM_PLANE, out, 4u * BLOCK, n) == COLL_EROOT);
    expect("undeclared-plane-bcast-root", rvm_bcast_on(RVM_COMM_PLANE, out, 4u * BLOCK, 3) == COLL_EUNDECLARED);
    /* a plane's table on the row's communicator */
    const sched_table *pln_table = rvm_comm_table(RVM_COMM_PLANE, RVM_BCAST, 0, 4u * BLOCK);
    static uint8_t ws[4096] __attribute__((aligned(16)));
    coll_plan plan;
    expect("plane-table-on-row", pln_table && rvm_comm_of(RVM_COMM_ROW) &&
                                     coll_plan_init_on(&plan, rvm_ctx(), rvm_comm_of(RVM_COMM_ROW), pln_table, 0, 0,
                                                       out, 4u * BLOCK, 4u * BLOCK, ws, sizeof ws) == COLL_ESHAPE);
    expect("nothing-written", out_is(0, 0));
    rvm_errors_return(0);
    expect("pln-allgather-after", allgather_check(6u));
#ifdef MEASURE
    measure();
#endif
    return failures ? 1 : 0;
}
