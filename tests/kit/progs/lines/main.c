/* SPDX-License-Identifier: ISC
 * Every collective and reduction of the kit on rows and columns (rvmesh.h: rvm_*_on;
 * tests/kit/test_kit_lines.sh) on a 2-D machine of X x Y nodes, X, Y <= 4 (every root
 * declared). Every node can work out every node's input (in_word), so each checks every word
 * it got against a reference of its own, and that nothing past a result was written. Two rounds
 * with other data and roots: every row allreduces its own vector (a small one: the allgather
 * path; 1 KiB: the alltoall + allgather path) while the columns, between the rows' calls,
 * alltoall, reduce to a root, scatter and gather; every row reduces to a root of its own (the
 * others' recv untouched), scatters, gathers and alltoalls; reduce-scatter on both. Ops: sum,
 * min, max and an op of the program's own that does not commute (affine maps composed in
 * rank order). Then bad input refused with its code, nothing written (a root that is not a
 * rank of the line, for scatter and the reductions; a communicator the machine has none of),
 * and a row allreduce again. Last (-DMEASURE), the cycles of every row's allreduce at once
 * against the machine's allreduce of the same bytes, 1 KiB and 16 KiB, and of every row's
 * alltoall against the machine's with as many bytes a node (a repeated call, after a barrier).
 * Prints "check NAME: ok" for each check that held.
 * Built with -DBAD (COLLECTIVES="row.alltoall col.scatter@0"): each call whose collective or
 * root the line lacks refused with COLL_EUNDECLARED, its message saying what to add. */
#include <stdio.h>
#include <string.h>

#include "rvmesh.h"
#include "../line_ops.h"

#define LINE 4u               /* the most members a line has here */
#define SMALL 14u             /* a small vector (not a multiple of the line: allgather path) */
#define LARGE 256u            /* 1 KiB: a multiple of the line, >= RVM_ALLREDUCE_LARGE_BYTES */
#define BLOCK 32u             /* scatter, gather and alltoall blocks: 128 B */
#define BIG 4096u             /* 16 KiB, for the cycles */

/* the checks use the first OUT_WORDS of out (a result and 16 words past it); the cycles use
 * in and out whole: one pair of buffers leaves the most free RAM for the kept plans (two
 * pairs left too little for both plans of the rows' 16 KiB allreduce beside its blocks) */
#define OUT_WORDS (LINE * LARGE + 16u)
#ifdef MEASURE
#define BUF_WORDS BIG
#else
#define BUF_WORDS OUT_WORDS
#endif
static uint32_t in[BUF_WORDS], out[BUF_WORDS], ref[LINE * LARGE];
static int failures;
static uint32_t X, Y, me_x, me_y;

static void expect(const char *name, int good)
{
    printf("check %s: %s\n", name, good ? "ok" : "FAILED");
    failures += !good;
}

static void expectk(const char *name, uint32_t k, int good)
{
    char text[40];
    snprintf(text, sizeof text, "%s-%lu", name, (unsigned long)k);
    expect(text, good);
}

/* word i of the input of the node at (x, y) in round k (for block t: i = t * BLOCK + j) */
static uint32_t in_word(uint32_t x, uint32_t y, uint32_t k, uint32_t i)
{
    uint32_t h = (x * 73856093u) ^ (y * 19349663u) ^ (k * 83492791u) ^ (i * 2654435761u);
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    return h ^ (h >> 12);
}

/* the input of rank r of this node's row (comm ROW) or column */
static uint32_t member_word(rvm_comm comm, uint32_t r, uint32_t k, uint32_t i)
{
    return comm == RVM_COMM_ROW ? in_word(r, me_y, k, i) : in_word(me_x, r, k, i);
}

static rvm_op affine;   /* compose (line_ops.h), made by rvm_op_create */

/* ref[0..count) = the n members' vectors (element off + i of each) combined in rank order */
static void reference(rvm_comm comm, uint32_t k, uint32_t off, uint32_t count, rvm_op op)
{
    const uint32_t n = rvm_comm_size(comm);
    for (uint32_t i = 0; i < count; ++i)
        ref[i] = member_word(comm, 0, k, off + i);
    for (uint32_t r = 1; r < n; ++r) {
        if (op == affine) {
            uint32_t x[LARGE];
            for (uint32_t i = 0; i < count; ++i)
                x[i] = member_word(comm, r, k, off + i);
            compose(ref, x, count);
        } else {
            for (uint32_t i = 0; i < count; ++i)
                ref[i] = combine(op, ref[i], member_word(comm, r, k, off + i));
        }
    }
}

static void fill_in(uint32_t k, uint32_t words)
{
    for (uint32_t i = 0; i < words; ++i)
        in[i] = in_word(me_x, me_y, k, i);
}

/* out[0..words) == ref[0..words) and out[words..] untouched (0xeeeeeeee) */
static int out_is(const uint32_t *want, uint32_t words)
{
    if (want && memcmp(out, want, 4u * words) != 0)
        return 0;
    for (uint32_t i = want ? words : 0u; i < OUT_WORDS; ++i)
        if (out[i] != 0xeeeeeeeeu)
            return 0;
    return 1;
}

/* the path a line's reduction of count elements by op takes: the NI's rings on a torus whose NI
 * combines (a built-in op, count a multiple of 2n), else `other` */
static const char *line_path(rvm_comm comm, uint32_t count, rvm_op op, const char *other)
{
    const uint32_t n = rvm_comm_size(comm);
    return rvm_shape()->torus && ni_has_combine() && op <= RVM_UMAX && count % (2u * n) == 0 ? "rings" : other;
}

/* rvm_allreduce_on (root ~0u) or rvm_reduce_on(root) of count words; 1 if right on every
 * member, the path the expected one, and nothing written off the root (NULL there in round 1) */
static int reduce_check(rvm_comm comm, uint32_t k, uint32_t count, rvm_op op, uint32_t root, const char *path)
{
    fill_in(k, count);
    memset(out, 0xee, 4u * OUT_WORDS);
    const int all = root == ~0u;
    /* in round 1 the members off the root pass no recv (as MPI_Reduce allows) */
    uint32_t *recv = !all && k == 1u && rvm_comm_rank(comm) != root ? 0 : out;
    const int rc = all ? rvm_allreduce_on(comm, in, recv, count, op) : rvm_reduce_on(comm, in, recv, count, op, root);
    if (rc != COLL_OK || strcmp(rvm_last_reduce_path(), path) != 0)
        return 0;
    if (!all && rvm_comm_rank(comm) != root)
        return out_is(0, 0);
    reference(comm, k, 0, count, op);
    return out_is(ref, count);
}

/* rvm_reduce_scatter_on: block t of every member's n blocks to rank t */
static int reduce_scatter_check(rvm_comm comm, uint32_t k, rvm_op op)
{
    const uint32_t n = rvm_comm_size(comm);
    fill_in(k, n * BLOCK);
    memset(out, 0xee, 4u * OUT_WORDS);
    if (rvm_reduce_scatter_on(comm, in, out, BLOCK, op) != COLL_OK ||
        strcmp(rvm_last_reduce_path(), line_path(comm, n * BLOCK, op, "alltoall")) != 0)
        return 0;
    reference(comm, k, rvm_comm_rank(comm) * BLOCK, BLOCK, op);
    return out_is(ref, BLOCK);
}

/* rvm_scatter_on from root: rank t gets the root's block t */
static int scatter_check(rvm_comm comm, uint32_t k, uint32_t root)
{
    const uint32_t n = rvm_comm_size(comm), me = rvm_comm_rank(comm);
    fill_in(k, n * BLOCK);
    memset(out, 0xee, 4u * OUT_WORDS);
    if (rvm_scatter_on(comm, me == root ? in : 0, out, 4u * BLOCK, root) != COLL_OK)
        return 0;
    for (uint32_t i = 0; i < BLOCK; ++i)
        ref[i] = member_word(comm, root, k, me * BLOCK + i);
    return out_is(ref, BLOCK);
}

/* rvm_gather_on to root: its block r is rank r's; the others' recv untouched */
static int gather_check(rvm_comm comm, uint32_t k, uint32_t root)
{
    const uint32_t n = rvm_comm_size(comm), me = rvm_comm_rank(comm);
    fill_in(k, BLOCK);
    memset(out, 0xee, 4u * OUT_WORDS);
    if (rvm_gather_on(comm, in, me == root ? out : 0, 4u * BLOCK, root) != COLL_OK)
        return 0;
    if (me != root)
        return out_is(0, 0);
    for (uint32_t r = 0; r < n; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            ref[r * BLOCK + i] = member_word(comm, r, k, i);
    return out_is(ref, n * BLOCK);
}

/* rvm_alltoall_on: block r of the result is rank r's block for this rank */
static int alltoall_check(rvm_comm comm, uint32_t k)
{
    const uint32_t n = rvm_comm_size(comm), me = rvm_comm_rank(comm);
    fill_in(k, n * BLOCK);
    memset(out, 0xee, 4u * OUT_WORDS);
    if (rvm_alltoall_on(comm, in, out, 4u * BLOCK) != COLL_OK)
        return 0;
    for (uint32_t r = 0; r < n; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            ref[r * BLOCK + i] = member_word(comm, r, k, me * BLOCK + i);
    return out_is(ref, n * BLOCK);
}

#ifdef MEASURE
/* the most cycles of a repeated call (the third, after a barrier) */
static uint32_t compiled;   /* cycles the timed calls spent compiling plans (0: every plan kept) */
#define TIMED(VAR, CALL)                                 \
    for (uint32_t rep = 0; rep < 3u; ++rep) {            \
        rvm_barrier();                                   \
        const uint64_t t0 = rvm_cycles();                \
        (void)(CALL);                                    \
        VAR = (uint32_t)(rvm_cycles() - t0);             \
        if (rep == 2u)                                   \
            compiled += rvm_last_setup_cycles();         \
    }

static void measure(void)
{
    for (uint32_t i = 0; i < BIG; ++i)
        in[i] = in_word(me_x, me_y, 9u, i);
    static const uint32_t sizes[2] = {1024u, 16384u};
    for (uint32_t s = 0; s < 2u; ++s) {
        uint32_t row = 0, machine = 0;
        const uint32_t count = sizes[s] / 4u;
        TIMED(row, rvm_allreduce_on(RVM_COMM_ROW, in, out, count, RVM_SUM));
        const char *row_path = rvm_last_reduce_path();
        TIMED(machine, rvm_allreduce(in, out, count, RVM_SUM));
        printf("cycles allreduce %lu B: row %lu (%s) machine %lu (%s)\n", (unsigned long)sizes[s], (unsigned long)row,
               row_path, (unsigned long)machine, rvm_last_reduce_path());
    }
    /* alltoall: as many bytes a node on a row (n blocks) as on the machine (N blocks) */
    static const uint32_t totals[2] = {4096u, 16384u};
    for (uint32_t s = 0; s < 2u; ++s) {
        uint32_t row = 0, machine = 0;
        TIMED(row, rvm_alltoall_on(RVM_COMM_ROW, in, out, totals[s] / X));
        TIMED(machine, rvm_alltoall(in, out, totals[s] / rvm_nodes()));
        printf("cycles alltoall %lu B a node: row %lu machine %lu\n", (unsigned long)totals[s], (unsigned long)row,
               (unsigned long)machine);
    }
    printf("cycles compiling in the timed calls: %lu\n", (unsigned long)compiled);
    printf("free RAM for the calls: %lu bytes\n", (unsigned long)rvm_workspace_bytes());
}
#endif

int main(void)
{
    if (rvm_init() != COLL_OK)
        return 1;
    X = rvm_comm_size(RVM_COMM_ROW);
    Y = rvm_comm_size(RVM_COMM_COL);
    me_x = rvm_comm_rank(RVM_COMM_ROW);
    me_y = rvm_comm_rank(RVM_COMM_COL);
    affine = rvm_op_create(compose);
    expect("ranks", X == RVMESH_MESH_X && Y == RVMESH_MESH_Y && X <= LINE && Y <= LINE && me_x + X * me_y == rvm_node());
#ifdef BAD
    /* what the line lacks: each refused on every node, the message saying what to add */
    rvm_errors_return(1);
    fill_in(0, LARGE);
    memset(out, 0xee, 4u * OUT_WORDS);
    /* (counts the NI's rings do not take: they need no declaration) */
    expect("undeclared-row-allreduce", rvm_allreduce_on(RVM_COMM_ROW, in, out, LARGE + X, RVM_SUM) == COLL_EUNDECLARED);
    expect("undeclared-row-reduce", rvm_reduce_on(RVM_COMM_ROW, in, out, SMALL, RVM_SUM, 0) == COLL_EUNDECLARED);
    expect("undeclared-col-reduce-scatter", rvm_reduce_scatter_on(RVM_COMM_COL, in, out, BLOCK + 1u, RVM_SUM) == COLL_EUNDECLARED);
    expect("undeclared-col-alltoall", rvm_alltoall_on(RVM_COMM_COL, in, out, 4u * BLOCK) == COLL_EUNDECLARED);
    expect("undeclared-col-gather", rvm_gather_on(RVM_COMM_COL, in, out, 4u * BLOCK, 0) == COLL_EUNDECLARED);
    expect("undeclared-col-scatter-root", rvm_scatter_on(RVM_COMM_COL, in, out, 4u * BLOCK, 1) == COLL_EUNDECLARED);
    expect("undeclared-row-scatter", rvm_scatter_on(RVM_COMM_ROW, in, out, 4u * BLOCK, 0) == COLL_EUNDECLARED);
    expect("bad-nothing-written", out_is(0, 0));
    /* what is declared still runs */
    expect("bad-col-scatter", scatter_check(RVM_COMM_COL, 0, 0));
    expect("bad-row-alltoall", alltoall_check(RVM_COMM_ROW, 0));
    return failures ? 1 : 0;
#endif
    for (uint32_t k = 0; k < 2u; ++k) {
        const rvm_op op_small = k ? affine : RVM_SUM, op_large = k ? RVM_MAX : affine;
        /* every row its own vector, every column something else in between */
        expectk("row-allreduce-small", k, reduce_check(RVM_COMM_ROW, k, SMALL, op_small, ~0u, "allgather"));
        expectk("col-alltoall", k, alltoall_check(RVM_COMM_COL, k));
        expectk("row-allreduce-large", k, reduce_check(RVM_COMM_ROW, k, LARGE, op_large, ~0u,
                                                       line_path(RVM_COMM_ROW, LARGE, op_large, "alltoall+allgather")));
        expectk("col-reduce-large", k, reduce_check(RVM_COMM_COL, k, LARGE, RVM_MIN, (me_x + k) % Y,
                                                    line_path(RVM_COMM_COL, LARGE, RVM_MIN, "alltoall+allgather")));
        /* not a multiple of 2n: the alltoall + allgather path on every shape */
        expectk("row-allreduce-large-odd", k, reduce_check(RVM_COMM_ROW, k, LARGE + X, RVM_MAX, ~0u, "alltoall+allgather"));
        expectk("row-reduce-small", k, reduce_check(RVM_COMM_ROW, k, SMALL, op_small, (me_y + k) % X, "allgather"));
        expectk("col-scatter", k, scatter_check(RVM_COMM_COL, k, (me_x + k) % Y));
        expectk("row-scatter", k, scatter_check(RVM_COMM_ROW, k, (me_y + k + 1u) % X));
        expectk("row-gather", k, gather_check(RVM_COMM_ROW, k, (me_y + k) % X));
        expectk("col-gather", k, gather_check(RVM_COMM_COL, k, (me_x + k + 2u) % Y));
        expectk("row-alltoall", k, alltoall_check(RVM_COMM_ROW, k));
        expectk("col-allreduce-small", k, reduce_check(RVM_COMM_COL, k, SMALL, RVM_MAX, ~0u, "allgather"));
        expectk("row-reduce-scatter", k, reduce_scatter_check(RVM_COMM_ROW, k, op_small));
        expectk("col-reduce-scatter", k, reduce_scatter_check(RVM_COMM_COL, k, op_large));
    }

    /* bad input: refused on every node alike, nothing written */
    rvm_errors_return(1);
    fill_in(5, LARGE);
    memset(out, 0xee, 4u * OUT_WORDS);
    expect("scatter-root-off-row", rvm_scatter_on(RVM_COMM_ROW, in, out, 4u * BLOCK, X) == COLL_EROOT);
    expect("gather-root-off-column", rvm_gather_on(RVM_COMM_COL, in, out, 4u * BLOCK, Y + 3u) == COLL_EROOT);
    expect("reduce-root-off-column", rvm_reduce_on(RVM_COMM_COL, in, out, SMALL, RVM_SUM, Y) == COLL_EROOT);
    expect("alltoall-bad-communicator", rvm_alltoall_on((rvm_comm)7, in, out, 4u * BLOCK) == COLL_EARG);
    expect("allreduce-bad-communicator", rvm_allreduce_on((rvm_comm)7, in, out, SMALL, RVM_SUM) == COLL_EARG);
    /* a 2-D machine has no pillars (the lines along z) */
    expect("pillar-on-2d", rvm_comm_size(RVM_COMM_PILLAR) == 0 &&
                               rvm_bcast_on(RVM_COMM_PILLAR, out, 4u * BLOCK, 0) == COLL_EARG);
    expect("allreduce-bad-op", rvm_allreduce_on(RVM_COMM_ROW, in, out, SMALL, (rvm_op)99) == COLL_EARG);
    expect("nothing-written", out_is(0, 0));
    rvm_errors_return(0);
    expect("row-allreduce-after", reduce_check(RVM_COMM_ROW, 6, LARGE, RVM_SUM, ~0u,
                                               line_path(RVM_COMM_ROW, LARGE, RVM_SUM, "alltoall+allgather")));
    expect("col-alltoall-after", alltoall_check(RVM_COMM_COL, 6));
#ifdef MEASURE
    measure();
#endif
    return failures ? 1 : 0;
}
