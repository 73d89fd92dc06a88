/* SPDX-License-Identifier: ISC
 * Every call of the kit on the three lines of a 3-D machine (rvmesh.h: rvm_*_on on
 * RVM_COMM_ROW, RVM_COMM_COL and RVM_COMM_PILLAR; tests/kit/test_kit_lines3d.sh) of X x Y x Z
 * nodes, every side 3 or 4. Every node can work out every node's input (in_word), so each
 * checks every word it got against a reference of its own, and that nothing past a result (or
 * off a gather's or reduction's root) was written. Two rounds with other data and roots, each
 * call made on the rows, then the columns, then the pillars, so that every line's calls run
 * between the others': bcast, scatter, gather (from and to each line's own roots: rows 0 and
 * 1, columns 1 and 2, pillars 0 and 2, the one by the node's other coordinates), allgather,
 * alltoall, allreduce (the allgather path and the alltoall + allgather path, checked by
 * rvm_last_reduce_path), reduce to a root, reduce-scatter; sum, min, max and an op of the
 * program's own that does not commute. Then bad input refused with its code, nothing written:
 * a root that is not a rank of the pillar or of the row, a pillar root not declared, a
 * communicator the machine has none of, a plane collective not declared, a pillar's table on a row; then a pillar allreduce and
 * a row bcast again. Last (-DMEASURE), the cycles of every pillar's (and row's) bcast at once
 * against the machine's, and of every pillar's allreduce against the machine's, about 1 KiB
 * and 16 KiB (a repeated call after a barrier, the most any node took is the test's).
 * Prints "check NAME: ok" for each check that held. */
#include <stdio.h>
#include <string.h>

#include "rvmesh.h"
#include "../line_ops.h"

#define LINE 4u               /* the most members a line has here */
#define SMALL 14u             /* a small vector (< 256 B: the allgather path) */
#define LARGE 192u            /* 768 B: a multiple of 2, 3 and 4, >= RVM_ALLREDUCE_LARGE_BYTES */
#define BLOCK 32u             /* scatter, gather, allgather and alltoall blocks: 128 B */
#define BIG 4096u             /* 16 KiB, for the cycles */
#ifndef ROUNDS
#define ROUNDS 2u             /* rounds of the checks, from round FIRST_ROUND (the test runs */
#endif                        /* round 0 on the torus, round 1 on the mesh: its time) */
#ifndef FIRST_ROUND
#define FIRST_ROUND 0u
#endif
#ifndef LINES
#define LINES 7u              /* the lines whose calls are checked: bit g, the line along g */
#endif

#define OUT_WORDS (LINE * LARGE + 16u)
#ifdef MEASURE
#define BUF_WORDS BIG
#else
#define BUF_WORDS OUT_WORDS
#endif
static uint32_t in[BUF_WORDS], out[BUF_WORDS], ref[LINE * LARGE];
static int failures;
static uint32_t side[3], me[3];
static const rvm_comm lines[3] = {RVM_COMM_ROW, RVM_COMM_COL, RVM_COMM_PILLAR};
static const char *const line_text[3] = {"row", "col", "pil"};
/* the roots each line declares (Makefile) */
static const uint32_t roots[3][2] = {{0u, 1u}, {1u, 2u}, {0u, 2u}};

static void expect(const char *name, int good)
{
    printf("check %s: %s\n", name, good ? "ok" : "FAILED");
    failures += !good;
}

/* "pil-bcast-1" */
static void expect_line(uint32_t g, const char *what, uint32_t k, int good)
{
    char text[48];
    snprintf(text, sizeof text, "%s-%s-%lu", line_text[g], what, (unsigned long)k);
    expect(text, good);
}

/* word i of the input of the node at c in round k (for block t: i = t * BLOCK + j): the node's
 * and round's seed (its fields side by side, a coordinate in 2 bits and k in 4, through three
 * xorshift rounds: a bijection, no two seeds alike) xor i times an odd constant (no two words
 * of a node alike). The last seed is kept: the references of 27 nodes are most of the test's
 * simulated time. */
static uint32_t in_word(const uint32_t c[3], uint32_t k, uint32_t i)
{
    static uint32_t last_key = ~0u, last_seed;
    const uint32_t key = c[0] | c[1] << 2 | c[2] << 4 | k << 6;
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

/* the input of rank r of this node's line along dimension g */
static uint32_t member_word(uint32_t g, uint32_t r, uint32_t k, uint32_t i)
{
    uint32_t c[3] = {me[0], me[1], me[2]};
    c[g] = r;
    return in_word(c, k, i);
}

/* a root of line g's own for round k: one it declared, by the node's other coordinates (so
 * the lines of one direction do not all share it) */
static uint32_t root_of(uint32_t g, uint32_t k)
{
    return roots[g][(k + me[(g + 1u) % 3u] + me[(g + 2u) % 3u]) % 2u];
}

static rvm_op affine;   /* compose (line_ops.h), made by rvm_op_create */

/* ref[0..count) = line g's members' vectors (element off + i of each) combined in rank order */
static void reference(uint32_t g, uint32_t k, uint32_t off, uint32_t count, rvm_op op)
{
    for (uint32_t i = 0; i < count; ++i)
        ref[i] = member_word(g, 0, k, off + i);
    for (uint32_t r = 1; r < side[g]; ++r) {
        if (op == affine) {
            static uint32_t x[LARGE];
            for (uint32_t i = 0; i < count; ++i)
                x[i] = member_word(g, r, k, off + i);
            compose(ref, x, count);
        } else {
            for (uint32_t i = 0; i < count; ++i)
                ref[i] = combine(op, ref[i], member_word(g, r, k, off + i));
        }
    }
}

static void fill_in(uint32_t k, uint32_t words)
{
    for (uint32_t i = 0; i < words; ++i)
        in[i] = in_word(me, k, i);
}

/* out[0..words) == want[0..words) and out[words..] untouched (0xeeeeeeee); by words, not
 * picolibc's memcmp and memset, which go by bytes (27 nodes' checks are the test's time) */
static int out_is(const uint32_t *want, uint32_t words)
{
    uint32_t differ = 0;
    for (uint32_t i = 0; i < OUT_WORDS; ++i)
        differ |= out[i] ^ (want && i < words ? want[i] : 0xeeeeeeeeu);
    return differ == 0;
}

__attribute__((optimize("no-tree-loop-distribute-patterns"))) static void clear_out(void)
{
    for (uint32_t i = 0; i < OUT_WORDS; ++i)
        out[i] = 0xeeeeeeeeu;
}

/* rvm_bcast_on of LARGE words from root (this node's own input of round k) */
static int bcast_check(uint32_t g, uint32_t k, uint32_t root)
{
    clear_out();
    if (me[g] == root)
        for (uint32_t i = 0; i < LARGE; ++i)
            out[i] = in_word(me, k, i);
    if (rvm_bcast_on(lines[g], out, 4u * LARGE, root) != COLL_OK)
        return 0;
    for (uint32_t i = 0; i < LARGE; ++i)
        ref[i] = member_word(g, root, k, i);
    return out_is(ref, LARGE);
}

/* the path line g's reduction of count elements by op takes: the NI's rings on a torus whose NI
 * combines (a built-in op, count a multiple of 2n), else `other` */
static const char *line_path(uint32_t g, uint32_t count, rvm_op op, const char *other)
{
    const uint32_t n = rvm_comm_size(lines[g]);
    return rvm_shape()->torus && ni_has_combine() && op <= RVM_UMAX && count % (2u * n) == 0 ? "rings" : other;
}

/* rvm_allreduce_on (root ~0u) or rvm_reduce_on(root) of count words; right on every member,
 * the path the expected one, nothing written off the root (NULL there in round 1) */
static int reduce_check(uint32_t g, uint32_t k, uint32_t count, rvm_op op, uint32_t root, const char *path)
{
    fill_in(k, count);
    clear_out();
    const int all = root == ~0u;
    uint32_t *recv = !all && k == 1u && me[g] != root ? 0 : out;
    const int rc = all ? rvm_allreduce_on(lines[g], in, recv, count, op)
                       : rvm_reduce_on(lines[g], in, recv, count, op, root);
    if (rc != COLL_OK || strcmp(rvm_last_reduce_path(), path) != 0)
        return 0;
    if (!all && me[g] != root)
        return out_is(0, 0);
    reference(g, k, 0, count, op);
    return out_is(ref, count);
}

/* rvm_reduce_scatter_on: block t of every member's n blocks to rank t */
static int reduce_scatter_check(uint32_t g, uint32_t k, rvm_op op)
{
    fill_in(k, side[g] * BLOCK);
    clear_out();
    if (rvm_reduce_scatter_on(lines[g], in, out, BLOCK, op) != COLL_OK ||
        strcmp(rvm_last_reduce_path(), line_path(g, rvm_comm_size(lines[g]) * BLOCK, op, "alltoall")) != 0)
        return 0;
    reference(g, k, me[g] * BLOCK, BLOCK, op);
    return out_is(ref, BLOCK);
}

/* rvm_scatter_on from root: rank t gets the root's block t */
static int scatter_check(uint32_t g, uint32_t k, uint32_t root)
{
    fill_in(k, side[g] * BLOCK);
    clear_out();
    if (rvm_scatter_on(lines[g], me[g] == root ? in : 0, out, 4u * BLOCK, root) != COLL_OK)
        return 0;
    for (uint32_t i = 0; i < BLOCK; ++i)
        ref[i] = member_word(g, root, k, me[g] * BLOCK + i);
    return out_is(ref, BLOCK);
}

/* rvm_gather_on to root: its block r is rank r's; the others' recv untouched */
static int gather_check(uint32_t g, uint32_t k, uint32_t root)
{
    fill_in(k, BLOCK);
    clear_out();
    if (rvm_gather_on(lines[g], in, me[g] == root ? out : 0, 4u * BLOCK, root) != COLL_OK)
        return 0;
    if (me[g] != root)
        return out_is(0, 0);
    for (uint32_t r = 0; r < side[g]; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            ref[r * BLOCK + i] = member_word(g, r, k, i);
    return out_is(ref, side[g] * BLOCK);
}

/* rvm_allgather_on: block r of the result is rank r's */
static int allgather_check(uint32_t g, uint32_t k)
{
    fill_in(k, BLOCK);
    clear_out();
    if (rvm_allgather_on(lines[g], in, out, 4u * BLOCK) != COLL_OK)
        return 0;
    for (uint32_t r = 0; r < side[g]; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            ref[r * BLOCK + i] = member_word(g, r, k, i);
    return out_is(ref, side[g] * BLOCK);
}

/* rvm_alltoall_on: block r of the result is rank r's block for this rank */
static int alltoall_check(uint32_t g, uint32_t k)
{
    fill_in(k, side[g] * BLOCK);
    clear_out();
    if (rvm_alltoall_on(lines[g], in, out, 4u * BLOCK) != COLL_OK)
        return 0;
    for (uint32_t r = 0; r < side[g]; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            ref[r * BLOCK + i] = member_word(g, r, k, me[g] * BLOCK + i);
    return out_is(ref, side[g] * BLOCK);
}

#ifdef MEASURE
#ifndef MEASURE_ALLREDUCE
#define MEASURE_ALLREDUCE 1u   /* about 1 KiB; 2: and 16 KiB (270,000 cycles more of the test) */
#endif
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
        in[i] = in_word(me, 9u, i);
    static const uint32_t bytes[2] = {1024u, 16384u};
    for (uint32_t s = 0; s < 2u; ++s) {
        uint32_t pil = 0, row = 0, machine = 0;
        TIMED(pil, rvm_bcast_on(RVM_COMM_PILLAR, in, bytes[s], 0));
        TIMED(row, rvm_bcast_on(RVM_COMM_ROW, in, bytes[s], 0));
        TIMED(machine, rvm_bcast(in, bytes[s], 0));
        printf("cycles bcast %lu B: pillar %lu row %lu machine %lu\n", (unsigned long)bytes[s], (unsigned long)pil,
               (unsigned long)row, (unsigned long)machine);
    }
    /* a multiple of the machine's nodes (the alltoall + allgather path on both) */
    const uint32_t nodes = rvm_nodes();
    const uint32_t counts[2] = {1024u / 4u / nodes * nodes, BIG / nodes * nodes};
    for (uint32_t s = 0; s < MEASURE_ALLREDUCE; ++s) {
        uint32_t pil = 0, machine = 0;
        TIMED(pil, rvm_allreduce_on(RVM_COMM_PILLAR, in, out, counts[s], RVM_SUM));
        const char *pil_path = rvm_last_reduce_path();
        TIMED(machine, rvm_allreduce(in, out, counts[s], RVM_SUM));
        printf("cycles allreduce %lu B: pillar %lu (%s) machine %lu (%s)\n", (unsigned long)(4u * counts[s]),
               (unsigned long)pil, pil_path, (unsigned long)machine, rvm_last_reduce_path());
    }
}
#endif

int main(void)
{
    if (rvm_init() != COLL_OK)
        return 1;
    for (uint32_t g = 0; g < 3u; ++g) {
        side[g] = rvm_comm_size(lines[g]);
        me[g] = rvm_comm_rank(lines[g]);
    }
    affine = rvm_op_create(compose);
    expect("ranks", side[0] == RVMESH_MESH_X && side[1] == RVMESH_MESH_Y && side[2] == RVMESH_MESH_Z &&
                        side[0] >= 3u && side[1] >= 3u && side[2] >= 3u && side[0] <= LINE && side[1] <= LINE &&
                        side[2] <= LINE && me[0] + side[0] * (me[1] + side[1] * me[2]) == rvm_node());
    /* rank r of a line is machine node first + r * stride (coll.h): 1, X, X*Y apart */
    int strides = 1;
    for (uint32_t g = 0; g < 3u; ++g) {
        const coll_comm *c = rvm_comm_of(lines[g]);
        strides &= c && c->stride == (g == 0u ? 1u : g == 1u ? side[0] : side[0] * side[1]) &&
                   c->first + me[g] * c->stride == rvm_node();
    }
    expect("strides", strides);
    for (uint32_t k = FIRST_ROUND; k < FIRST_ROUND + ROUNDS; ++k) {
        const rvm_op op_small = k ? affine : RVM_SUM, op_large = k ? RVM_MAX : affine;
        /* each call on the rows, the columns, the pillars in turn */
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "bcast", k, bcast_check(g, k, root_of(g, k)));
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "allreduce-small", k, reduce_check(g, k, SMALL, op_small, ~0u, "allgather"));
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "scatter", k, scatter_check(g, k, root_of(g, k + 1u)));
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "allreduce-large", k, reduce_check(g, k, LARGE, op_large, ~0u,
                                                                         line_path(g, LARGE, op_large, "alltoall+allgather")));
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "gather", k, gather_check(g, k, root_of(g, k)));
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "allgather", k, allgather_check(g, k));
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "reduce", k, reduce_check(g, k, g == 1u ? SMALL : LARGE, RVM_MIN,
                                                         (me[(g + 1u) % 3u] + k) % side[g],
                                                         g == 1u ? "allgather" : line_path(g, LARGE, RVM_MIN, "alltoall+allgather")));
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "alltoall", k, alltoall_check(g, k));
        for (uint32_t g = 0; g < 3u; ++g)
            if (LINES >> g & 1u)
                expect_line(g, "reduce-scatter", k, reduce_scatter_check(g, k, g == 2u ? op_small : op_large));
    }

    /* bad input: refused on every node alike, nothing written */
    rvm_errors_return(1);
    fill_in(5, LARGE);
    clear_out();
    expect("bcast-root-off-pillar", rvm_bcast_on(RVM_COMM_PILLAR, out, 4u * BLOCK, side[2]) == COLL_EROOT);
    expect("reduce-root-off-row", rvm_reduce_on(RVM_COMM_ROW, in, out, SMALL, RVM_SUM, side[0] + 1u) == COLL_EROOT);
    expect("undeclared-pillar-scatter-root", rvm_scatter_on(RVM_COMM_PILLAR, in, out, 4u * BLOCK, 1) == COLL_EUNDECLARED);
    expect("alltoall-bad-communicator", rvm_alltoall_on((rvm_comm)5, in, out, 4u * BLOCK) == COLL_EARG);
    /* the XY plane: a communicator of this machine, whose collectives this program does not declare */
    expect("undeclared-plane-allgather", rvm_comm_size(RVM_COMM_PLANE) == side[0] * side[1] &&
                                             rvm_allgather_on(RVM_COMM_PLANE, in, out, 4u * BLOCK) == COLL_EUNDECLARED);
    /* a pillar's table on the row's communicator */
    const sched_table *pil_table = rvm_comm_table(RVM_COMM_PILLAR, RVM_BCAST, 0, 4u * BLOCK);
    static uint8_t ws[4096] __attribute__((aligned(16)));
    coll_plan plan;
    expect("pillar-table-on-row", pil_table && rvm_comm_of(RVM_COMM_ROW) &&
                                      coll_plan_init_on(&plan, rvm_ctx(), rvm_comm_of(RVM_COMM_ROW), pil_table, 0, 0,
                                                        out, 4u * BLOCK, 4u * BLOCK, ws, sizeof ws) == COLL_ESHAPE);
    expect("nothing-written", out_is(0, 0));
    rvm_errors_return(0);
    expect("pil-allreduce-after", reduce_check(2u, 6u, LARGE, RVM_SUM, ~0u, line_path(2u, LARGE, RVM_SUM, "alltoall+allgather")));
    expect("row-bcast-after", bcast_check(0u, 6u, 1u));
#ifdef MEASURE
    measure();
#endif
    return failures ? 1 : 0;
}
