/* SPDX-License-Identifier: ISC
 * The checks of every kit call on a communicator of many lines' size (tests/kit/progs/planes
 * and blocks: the XY planes of a 3-D machine, the blocks of a 2-D one): each call on the
 * program's COMM, its result compared word for word with what the members' inputs make, and
 * the words past it untouched; -DMEASURE adds measure(). The program defines, before it
 * includes this: MEMBERS (the most members), COMM (RVM_COMM_PLANE, ...), COMM_NAME (its name
 * in the measured line); after: member_word(r, k, i), the input of rank r. It sets n, me,
 * large, out_words and key_z (a coordinate the inputs depend on besides x and y). */
#ifndef RVMESH_TEST_COMM_CHECKS_H
#define RVMESH_TEST_COMM_CHECKS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rvmesh.h"
#include "line_ops.h"

#define SMALL 14u             /* a small vector (< 256 B: the allgather path) */
#define LARGE 80u             /* the most words of `large` (below) */
#define BLOCK 8u              /* scatter, gather, allgather and alltoall blocks: 32 B */
#define BIG 4096u             /* 16 KiB, for the cycles */

#define OUT_WORDS (MEMBERS * LARGE + 16u)
#ifdef MEASURE
#define BUF_WORDS (OUT_WORDS > BIG ? OUT_WORDS : BIG)
#else
#define BUF_WORDS OUT_WORDS
#endif
static uint32_t in[BUF_WORDS], out[BUF_WORDS], ref[MEMBERS * LARGE];
static int failures;
static uint32_t n, me, key_z;
static uint32_t large;        /* a multiple of n, >= 256 B (RVM_ALLREDUCE_LARGE_BYTES) */

static void expect(const char *name, int good)
{
    printf("check %s: %s\n", name, good ? "ok" : "FAILED");
    failures += !good;
}

/* word i of the input of the node (x, y, key_z) in round k: its seed (three xorshift rounds
 * of its coordinates and k side by side: no two alike) xor i times an odd constant */
static uint32_t in_word(uint32_t x, uint32_t y, uint32_t k, uint32_t i)
{
    static uint32_t last_key = ~0u, last_seed;
    const uint32_t key = x | y << 4 | key_z << 8 | k << 12;
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

/* the input of rank r of this node's communicator (the program's) */
static uint32_t member_word(uint32_t r, uint32_t k, uint32_t i);

static rvm_op affine;   /* compose (line_ops.h), made by rvm_op_create */

/* ref[0..count) = the communicator's members' vectors (element off + i of each) combined in rank order */
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
    if (rvm_bcast_on(COMM, out, 4u * words, root) != COLL_OK)
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
    const int rc = all ? rvm_allreduce_on(COMM, in, recv, count, op)
                       : rvm_reduce_on(COMM, in, recv, count, op, root);
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
    if (rvm_reduce_scatter_on(COMM, in, out, BLOCK, op) != COLL_OK)
        return 0;
    reference(k, me * BLOCK, BLOCK, op);
    return out_is(ref, BLOCK);
}

/* rvm_scatter_on from root: rank t gets the root's block t */
static int scatter_check(uint32_t k, uint32_t root)
{
    fill_in(k, n * BLOCK);
    clear_out();
    if (rvm_scatter_on(COMM, me == root ? in : 0, out, 4u * BLOCK, root) != COLL_OK)
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
    if (rvm_gather_on(COMM, in, me == root ? out : 0, 4u * BLOCK, root) != COLL_OK)
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
    if (rvm_allgather_on(COMM, in, out, 4u * BLOCK) != COLL_OK)
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
    if (rvm_alltoall_on(COMM, in, out, 4u * BLOCK) != COLL_OK)
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
        uint32_t part = 0, machine = 0;
        TIMED(part, rvm_bcast_on(COMM, in, bytes[s], 0));
        TIMED(machine, rvm_bcast(in, bytes[s], 0));
        printf("cycles bcast %lu B: " COMM_NAME " %lu machine %lu\n", (unsigned long)bytes[s], (unsigned long)part,
               (unsigned long)machine);
    }
}
#endif

#endif
