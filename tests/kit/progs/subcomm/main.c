/* SPDX-License-Identifier: ISC
 * Row and column communicators (rvmesh.h: rvm_bcast_on, rvm_allgather_on;
 * tests/kit/test_kit_subcomm.sh), on a 2-D machine of X x Y nodes with X <= 4 rows' roots
 * declared. Every row y broadcasts its own vector from its own root (rank y % X) at the same
 * time as the others, then every column gathers a block from each of its members, three
 * times with other data; every node checks every byte it got. Then bad input, every call
 * refused with its code and its message and nothing written: a root that is not a rank of
 * the row, collectives not declared for the rows or the columns, a row's table compiled on
 * the column (and on the whole machine), a communicator the machine has none of; after them
 * the row broadcast and the column allgather again, checked. Last, the cycles of the rows'
 * broadcasts (every row at once) and of the whole machine's broadcast of the same bytes, 1 KiB
 * and 16 KiB (a repeated call, every node's own, after a barrier). Prints "check NAME: ok"
 * for each check that held.
 * Built with -DSKIP (TIMEOUT=20000): node (1,2) skips its row's broadcast; its row's other
 * members end in a timeout of the row's start barrier (status 80), the other rows deliver.
 * Built with -DLINE_BCAST (COLLECTIVES: row.bcast and col.bcast of one algorithm at every
 * root, e.g. row.bcast:bcast-edst@0 ... col.bcast:bcast-edst@3): every row, then every column,
 * broadcasting at once from root (r + line) % n (r = 0 and 1; 16 KiB: r = 0), at 8 B, 1,032 B
 * and 16 KiB, every node checking every byte; then the cycles of the rows' broadcasts (all at
 * once) at 16 B to 16 KiB, repeated calls after a barrier. */
#include <stdio.h>
#include <string.h>

#include "rvmesh.h"

#define WORDS 256u          /* the broadcast: 1 KiB */
#define BLOCK 64u           /* the allgather's block: 256 B */
#define MAX_LINE 16u

static uint32_t vec[WORDS], saved[WORDS], big[4096];
static uint32_t block[BLOCK], all[MAX_LINE * BLOCK];
static int failures;

static void expect(const char *name, int good)
{
    if (good) {
        printf("check %s: ok\n", name);
    } else {
        printf("check %s: FAILED\n", name);
        failures++;
    }
}

/* row y's vector in round k, and the column block of the node at (x, y) in round k */
static uint32_t row_word(uint32_t y, uint32_t k, uint32_t i) { return (y + 1u) * 0x01000193u ^ (k << 24) ^ (i * 2654435761u); }
static uint32_t col_word(uint32_t x, uint32_t y, uint32_t k, uint32_t i) { return (x << 20) ^ (y << 12) ^ (k << 28) ^ (i * 40503u) ^ 0x5a5a0000u; }

/* a row broadcast from rank y % X of every row y; 1 if every word is row y's */
static int row_bcast(uint32_t k)
{
    const uint32_t x = rvm_comm_rank(RVM_COMM_ROW), y = rvm_comm_rank(RVM_COMM_COL);
    const uint32_t root = y % rvm_comm_size(RVM_COMM_ROW);
    for (uint32_t i = 0; i < WORDS; ++i)
        vec[i] = x == root ? row_word(y, k, i) : 0xdeadbeefu;
    if (rvm_bcast_on(RVM_COMM_ROW, vec, sizeof vec, root) != COLL_OK)
        return 0;
    for (uint32_t i = 0; i < WORDS; ++i)
        if (vec[i] != row_word(y, k, i))
            return 0;
    return 1;
}

/* a column allgather; 1 if block r of the result is rank r's (the node at (x, r)) */
static int col_allgather(uint32_t k)
{
    const uint32_t x = rvm_comm_rank(RVM_COMM_ROW), y = rvm_comm_rank(RVM_COMM_COL);
    const uint32_t n = rvm_comm_size(RVM_COMM_COL);
    for (uint32_t i = 0; i < BLOCK; ++i)
        block[i] = col_word(x, y, k, i);
    memset(all, 0xee, sizeof all);
    if (rvm_allgather_on(RVM_COMM_COL, block, all, sizeof block) != COLL_OK)
        return 0;
    for (uint32_t r = 0; r < n; ++r)
        for (uint32_t i = 0; i < BLOCK; ++i)
            if (all[r * BLOCK + i] != col_word(x, r, k, i))
                return 0;
    for (uint32_t i = n * BLOCK; i < MAX_LINE * BLOCK; ++i)   /* nothing past the column's blocks */
        if (all[i] != 0xeeeeeeeeu)
            return 0;
    return 1;
}

#ifdef LINE_BCAST
/* every line of comm (its index `line` among them) broadcasting m bytes of big from rank
 * (r + line) % n at once (so the lines' roots are every rank); 1 if every word and the 4
 * words past m are right */
static int line_bcast(rvm_comm comm, uint32_t line, uint32_t r, uint32_t m)
{
    const uint32_t n = rvm_comm_size(comm), rank = rvm_comm_rank(comm), root = (r + line) % n;
    const uint32_t words = m / 4u, end = words + 4u < 4096u ? words + 4u : 4096u, seed = line + 8u * (uint32_t)comm;
    for (uint32_t i = 0; i < end; ++i)
        big[i] = rank == root && i < words ? row_word(seed, r, i) : 0xdeadbeefu;
    if (rvm_bcast_on(comm, big, m, root) != COLL_OK)
        return 0;
    for (uint32_t i = 0; i < end; ++i)
        if (big[i] != (i < words ? row_word(seed, r, i) : 0xdeadbeefu))
            return 0;
    return 1;
}

static int line_bcasts(void)
{
    const uint32_t x = rvm_comm_rank(RVM_COMM_ROW), y = rvm_comm_rank(RVM_COMM_COL);
#ifndef LINE_SMALL   /* the sizes checked: a chunked schedule (bcast-edst/K) needs multiples of 4 x its parts */
#define LINE_SMALL 8u
#define LINE_ODD 1032u
#endif
    static const uint32_t sizes[3] = {LINE_SMALL, LINE_ODD, 16384u};
    static const uint32_t timed[7] = {LINE_SMALL < 16u ? 16u : LINE_SMALL, 64u, 256u, 512u, 1024u, 4096u, 16384u};
    for (uint32_t c = 0; c < 2u; ++c) {
        const rvm_comm comm = c ? RVM_COMM_COL : RVM_COMM_ROW;
        for (uint32_t s = 0; s < 3u; ++s) {
            int good = 1;
            for (uint32_t r = 0; r < (s < 2u ? 2u : 1u); ++r)
                good &= line_bcast(comm, c ? x : y, r, sizes[s]);
            char name[40];
            snprintf(name, sizeof name, "%s-bcast-%lu", c ? "col" : "row", (unsigned long)sizes[s]);
            expect(name, good);
        }
    }
    for (uint32_t s = 0; s < 7u; ++s) {
        uint32_t cycles = 0;
        for (uint32_t k = 0; k < 2u; ++k) {
            rvm_barrier();
            const uint64_t t0 = rvm_cycles();
            rvm_bcast_on(RVM_COMM_ROW, big, timed[s], y % rvm_comm_size(RVM_COMM_ROW));
            cycles = (uint32_t)(rvm_cycles() - t0);
        }
        printf("cycles row bcast %lu B: %lu\n", (unsigned long)timed[s], (unsigned long)cycles);
    }
    return failures ? 1 : 0;
}
#endif

int main(void)
{
    if (rvm_init() != COLL_OK)
        return 1;
    const uint32_t x = rvm_comm_rank(RVM_COMM_ROW), y = rvm_comm_rank(RVM_COMM_COL);
    expect("ranks", rvm_comm_size(RVM_COMM_ROW) == RVMESH_MESH_X && rvm_comm_size(RVM_COMM_COL) == RVMESH_MESH_Y &&
                        x + RVMESH_MESH_X * y == rvm_node() && rvm_comm_size(RVM_COMM_WORLD) == rvm_nodes());
#ifdef LINE_BCAST
    return line_bcasts();
#endif
#ifdef SKIP
    /* node (1,2) skips its row's broadcast: its row's other members time out in their start
     * barrier, naming the row; every other row broadcasts as if nothing were wrong */
    if (!(x == 1u && y == 2u))
        expect("row-bcast-skip", row_bcast(0));
    return failures ? 1 : 0;
#endif
    for (uint32_t k = 0; k < 3u; ++k) {
        char name[32];
        snprintf(name, sizeof name, "row-bcast-%lu", (unsigned long)k);
        expect(name, row_bcast(k));
        snprintf(name, sizeof name, "col-allgather-%lu", (unsigned long)k);
        expect(name, col_allgather(k));
    }

    /* bad input: refused on every node alike, nothing written */
    rvm_errors_return(1);
    for (uint32_t i = 0; i < WORDS; ++i)
        vec[i] = saved[i] = 0x600d0000u + i;
    expect("root-off-row", rvm_bcast_on(RVM_COMM_ROW, vec, sizeof vec, rvm_comm_size(RVM_COMM_ROW)) == COLL_EROOT);
    expect("undeclared-row-allgather", rvm_allgather_on(RVM_COMM_ROW, block, all, sizeof block) == COLL_EUNDECLARED);
    expect("undeclared-col-bcast", rvm_bcast_on(RVM_COMM_COL, vec, sizeof vec, 0) == COLL_EUNDECLARED);
    expect("bad-communicator", rvm_bcast_on((rvm_comm)7, vec, sizeof vec, 0) == COLL_EARG);
    /* a 2-D machine has no planes (nor pillars); a program that declares no block no blocks */
    expect("no-plane", rvm_comm_size(RVM_COMM_PLANE) == 0 && rvm_comm_of(RVM_COMM_PLANE) == 0 &&
                           rvm_bcast_on(RVM_COMM_PLANE, vec, sizeof vec, 0) == COLL_EARG);
    expect("no-block", rvm_comm_size(RVM_COMM_BLOCK) == 0 && rvm_comm_of(RVM_COMM_BLOCK) == 0 &&
                           rvm_allgather_on(RVM_COMM_BLOCK, block, all, sizeof block) == COLL_EARG);
    /* a row's table on the column's communicator, and on the whole machine */
    const sched_table *row_table = rvm_comm_table(RVM_COMM_ROW, RVM_BCAST, 0, sizeof vec);
    static uint8_t ws[4096] __attribute__((aligned(16)));
    coll_plan plan;
    expect("row-table-found", row_table && rvm_comm_of(RVM_COMM_COL) != 0);
    expect("row-table-on-column", row_table && coll_plan_init_on(&plan, rvm_ctx(), rvm_comm_of(RVM_COMM_COL), row_table,
                                                                 0, 0, vec, sizeof vec, sizeof vec, ws, sizeof ws) ==
                                                   COLL_ESHAPE);
    expect("row-table-on-machine", row_table && coll_plan_init(&plan, rvm_ctx(), row_table, 0, 0, vec, sizeof vec,
                                                               sizeof vec, ws, sizeof ws) == COLL_ESHAPE);
    expect("nothing-written", memcmp(vec, saved, sizeof vec) == 0);
    rvm_errors_return(0);
    expect("row-bcast-after", row_bcast(7));
    expect("col-allgather-after", col_allgather(7));

    /* cycles: every row's broadcast at once, and the machine's of the same bytes (repeated
     * calls: plans kept), at 1 KiB and 16 KiB; each node's own, after a barrier */
    static const uint32_t sizes[2] = {sizeof vec, sizeof big};
    for (uint32_t s = 0; s < 2u; ++s) {
        uint32_t *buf = s ? big : vec, row_cycles = 0, machine_cycles = 0;
        for (uint32_t k = 0; k < 2u; ++k) {
            rvm_barrier();
            uint64_t t0 = rvm_cycles();
            rvm_bcast_on(RVM_COMM_ROW, buf, sizes[s], y % rvm_comm_size(RVM_COMM_ROW));
            row_cycles = (uint32_t)(rvm_cycles() - t0);
            rvm_barrier();
            t0 = rvm_cycles();
            rvm_bcast(buf, sizes[s], 0);
            machine_cycles = (uint32_t)(rvm_cycles() - t0);
        }
        printf("cycles bcast %lu B: row %lu machine %lu\n", (unsigned long)sizes[s], (unsigned long)row_cycles,
               (unsigned long)machine_cycles);
    }
    return failures ? 1 : 0;
}
