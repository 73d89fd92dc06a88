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
 * Prints "check NAME: ok" for each check that held. */
#include <stdio.h>
#include <string.h>

#include "rvmesh.h"
#include "../line_ops.h"

#define PLANE 16u             /* the most members a plane has */
#define SMALL 14u             /* a small vector (< 256 B: the allgather path) */
#define LARGE 80u             /* the most words of `large` (below) */
#define BLOCK 8u              /* scatter, gather, allgather and alltoall blocks: 32 B */
#define BIG 4096u             /* 16 KiB, for the cycles */

#define OUT_WORDS (PLANE * LARGE + 16u)
#ifdef MEASURE
#define BUF_WORDS (OUT_WORDS > BIG ? OUT_WORDS : BIG)
#else
#define BUF_WORDS OUT_WORDS
#endif
static uint32_t in[BUF_WORDS], out[BUF_WORDS], ref[PLANE * LARGE];
static int failures;
static uint32_t n, me, X, z;
static uint32_t large;        /* a multiple of n, >= 256 B (RVM_ALLREDUCE_LARGE_BYTES): 72 words on 9 */
/* the roots the planes declare (Makefile): bcast, scatter, gather */
static const uint32_t roots[3][2] = {{0u, 4u}, {0u, 8u}, {4u, 8u}};

static void expect(const char *name, int good)
{
    printf("check %s: %s\n", name, good ? "ok" : "FAILED");
    failures += !good;
}

/* word i of the input of the node (x, y, z) in round k: its seed (three xorshift rounds of
 * its coordinates and k side by side: no two alike) xor i times an odd constant */
static uint32_t in_word(uint32_t x, uint32_t y, uint32_t k, uint32_t i)
{
    static uint32_t last_key = ~0u, last_seed;
    const uint32_t key = x | y << 4 | z << 8 | k << 12;
    if (key != last_key) {
        uint32_t h = key ^ 0x9e3779b9u;
        for (uint32_t r = 0; r < 3u; ++r) {
            h ^= h << 13;
            h ^= h >> 17;
            h ^= h << 5;
        }
        last_key = key;
        last_seed = h;
    }
    return last_seed ^ (i * 0x9e3779b1u);
}

/* the input of rank r of this node's plane */
static uint32_t member_word(uint32_t r, uint32_t k, uint32_t i) { return in_word(r % X, r / X, k, i); }

/* this plane's root of collective c (0 bcast, 1 scatter, 2 gather): by its z */
static uint32_t root_of(uint32_t c) { return roots[c][z % 2u]; }

static rvm_op affine;   /* compose (line_ops.h), made by rvm_op_create */

/* ref[0..count) = the plane's members' vectors (element off + i of each) combined in rank order */
static void reference(uint32_t k, uint32_t off, uint32_t count, rvm_op op)
{
    for (uint32_t i = 0; i < count; ++i)
        ref[i] = member_word(0, k, off + i);
    for (uint32_t r = 1; r < n; ++r) {
        if (op == affine) {
            static uint32_t x[LARGE];
            for (uint32_t i = 0; i < count; ++i)
                x[i] = member_word(r, k, off + i);
            compose(ref, x, count);
        } else {
            for (uint32_t i = 0; i < count; ++i)
                ref[i] = combine(op, ref[i], member_word(r, k, off + i));
        }
    }
}

static void fill_in(uint32_t k, uint32_t words)
{
    for (uint32_t i = 0; i < words; ++i)
        in[i] = member_word(me, k, i);
}

/* the words of out the checks look at: the largest result (n blocks of `large`) and 16 past it */
static uint32_t out_words;

/* out[0..words) == want[0..words) and out[words..out_words) untouched (0xeeeeeeee), by words */
static int out_is(const uint32_t *want, uint32_t words)
{
    uint32_t differ = 0;
    for (uint32_t i = 0; i < out_words; ++i)
        differ |= out[i] ^ (want && i < words ? want[i] : 0xeeeeeeeeu);
    return differ == 0;
}

__attribute__((optimize("no-tree-loop-distribute-patterns"))) static void clear_out(void)
{
    for (uint32_t i = 0; i < out_words; ++i)
        out[i] = 0xeeeeeeeeu;
}

/* rvm_bcast_on of `words` words from root */
static int bcast_check(uint32_t k, uint32_t root, uint32_t words)
{
    clear_out();
    if (me == root)
        for (uint32_t i = 0; i < words; ++i)
            out[i] = member_word(me, k, i);
    if (rvm_bcast_on(RVM_COMM_PLANE, out, 4u * words, root) != COLL_OK)
        return 0;
    for (uint32_t i = 0; i < words; ++i)
        ref[i] = member_word(root, k, i);
    return out_is(ref, words);
}

/* rvm_allreduce_on (root ~0u) or rvm_reduce_on(root) of count words: right on every member,
 * by the expected path, nothing written off the root (NULL recv there) */
static int reduce_check(uint32_t k, uint32_t count, rvm_op op, uint32_t root, const char *path)
{
    fill_in(k, count);
    clear_out();
    const int all = root == ~0u;
    uint32_t *recv = !all && me != root ? 0 : out;
    const int rc = all ? rvm_allreduce_on(RVM_COMM_PLANE, in, recv, count, op)
                       : rvm_reduce_on(RVM_COMM_PLANE, in, recv, count, op, root);
    if (rc != COLL_OK || strcmp(rvm_last_reduce_path(), path) != 0)
        return 0;
    if (!all && me != root)
        return out_is(0, 0);
    reference(k, 0, count, op);
    return out_is(ref, count);
}

/* rvm_reduce_scatter_on: block t of every member's n blocks to rank t */
static int reduce_scatter_check(uint32_t k, rvm_op op)
{
    fill_in(k, n * BLOCK);
    clear_out();
    if (rvm_reduce_scatter_on(RVM_COMM_PLANE, in, out, BLOCK, op) != COLL_OK)
        return 0;
    reference(k, me * BLOCK, BLOCK, op);
    return out_is(ref, BLOCK);
}

/* rvm_scatter_on from root: rank t gets the root's block t */
static int scatter_check(uint32_t k, uint32_t root)
{
    fill_in(k, n * BLOCK);
    clear_out();
    if (rvm_scatter_on(RVM_COMM_PLANE, me == root ? in : 0, out, 4u * BLOCK, root) != COLL_OK)
        return 0;
    for (uint32_t i = 0; i < BLOCK; ++i)
        ref[i] = member_word(root, k, me * BLOCK + i);
    return out_is(ref, BLOCK);
}

/* rvm_gather_on to root: its block r is rank r's; the others' recv untouched */
static int gather_check(uint32_t k, uint32_t root)
{
    fill_in(k, BLOCK);
    clear_out();
    if (rvm_gather_on(RVM_COMM_PLANE, in, me == root ? out : 0, 4u * BLOCK, root) != COLL_OK)
        return 0;
    if (me != root)
        return out_is(0, 0);
    for (uint32_t r = 0; r < n; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            ref[r * BLOCK + i] = member_word(r, k, i);
    return out_is(ref, n * BLOCK);
}

/* rvm_allgather_on: block r of the result is rank r's */
static int allgather_check(uint32_t k)
{
    fill_in(k, BLOCK);
    clear_out();
    if (rvm_allgather_on(RVM_COMM_PLANE, in, out, 4u * BLOCK) != COLL_OK)
        return 0;
    for (uint32_t r = 0; r < n; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            ref[r * BLOCK + i] = member_word(r, k, i);
    return out_is(ref, n * BLOCK);
}

/* rvm_alltoall_on: block r of the result is rank r's block for this rank */
static int alltoall_check(uint32_t k)
{
    fill_in(k, n * BLOCK);
    clear_out();
    if (rvm_alltoall_on(RVM_COMM_PLANE, in, out, 4u * BLOCK) != COLL_OK)
        return 0;
    for (uint32_t r = 0; r < n; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            ref[r * BLOCK + i] = member_word(r, k, me * BLOCK + i);
    return out_is(ref, n * BLOCK);
}

#ifdef MEASURE
/* the cycles of a repeated call (the third, after a barrier) */
#define TIMED(VAR, CALL)                                 \
    for (uint32_t rep = 0; rep < 3u; ++rep) {            \
        rvm_barrier();                                   \
        const uint64_t t0 = rvm_cycles();                \
        (void)(CALL);                                    \
        VAR = (uint32_t)(rvm_cycles() - t0);             \
    }

static void measure(void)
{
    for (uint32_t i = 0; i < BIG; ++i)
        in[i] = member_word(me, 9u, i);
    static const uint32_t bytes[2] = {1024u, 16384u};
    for (uint32_t s = 0; s < 2u; ++s) {
        uint32_t plane = 0, machine = 0;
        TIMED(plane, rvm_bcast_on(RVM_COMM_PLANE, in, bytes[s], 0));
        TIMED(machine, rvm_bcast(in, bytes[s], 0));
        printf("cycles bcast %lu B: plane %lu machine %lu\n", (unsigned long)bytes[s], (unsigned long)plane,
               (unsigned long)machine);
    }
}
#endif

int main(void)
{
    if (rvm_init() != COLL_OK)
        return 1;
    n = rvm_comm_size(RVM_COMM_PLANE);
    me = rvm_comm_rank(RVM_COMM_PLANE);
    X = rvm_comm_size(RVM_COMM_ROW);
    z = rvm_comm_rank(RVM_COMM_PILLAR);
    affine = rvm_op_create(compose);
    large = n ? n * ((64u + n - 1u) / n) : 0u;
    out_words = n * large + 16u <= OUT_WORDS ? n * large + 16u : OUT_WORDS;   /* (the ranks check fails past it) */
    expect("ranks", n == RVMESH_MESH_X * RVMESH_MESH_Y && n <= PLANE && large <= LARGE &&
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
