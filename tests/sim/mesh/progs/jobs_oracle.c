/* SPDX-License-Identifier: ISC */
/* A test of mesh-sim's collectives test bench (--job), not of the collectives: every node
 * writes the result a collective must leave, straight from coll_pattern, without sending a
 * single flit, and goes through the jobs-area handshake. mesh-sim must accept it.
 * jobs_oracle_bad.c builds the same program with ORACLE_FAULTS: then, in job 0, node 5
 * corrupts one byte of its first block, node 6 leaves its first block missing and node 9
 * writes a byte where no block belongs; mesh-sim must name each (node, sender, step).
 * jobs_oracle_fast.c builds it with ORACLE_FAST_CLOCK: every node records its job as ending
 * one cycle after it began (a broken measurement); mesh-sim must fail every job as faster
 * than its bounds allow.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../../../firmware/coll/coll_jobs.h"
#include "rvmesh_rt.h"

#ifndef ORACLE_FAULTS
#define ORACLE_FAULTS 0
#endif
#ifndef ORACLE_FAST_CLOCK
#define ORACLE_FAST_CLOCK 0
#endif

COLL_JOBS_DEFINE(8192);
static uint8_t result[8192];

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

int main(void)
{
    volatile uint32_t *area = rvmesh_jobs;
    if (area[0] != COLL_JOBS_MAGIC) {
        printf("no jobs (run with mesh-sim --job)\n");
        return 1;
    }
    const uint32_t count = area[COLL_JOBS_COUNT_OFF / 4], node = area[COLL_JOBS_NODE_OFF / 4];
    for (uint32_t j = 0; j < count; j++) {
        volatile uint32_t *rec = area + (COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * j) / 4;
        const uint8_t *table = (const uint8_t *)rvmesh_jobs + rec[COLL_JOB_TABLE_OFF / 4];
        const uint32_t m = rec[COLL_JOB_MSG_BYTES / 4], seed = rec[COLL_JOB_SEED / 4];
        /* the table header (firmware/sched/sched_table.h) */
        const uint32_t coll = table[15], root = rd32(table + 24);
        const uint32_t all = (rd32(table + 16) & 0xffffu) * (rd32(table + 16) >> 16) * (table[20] | table[21] << 8);
        const uint32_t nsend = table[34] | table[35] << 8, nrecv = table[36] | table[37] << 8;
        const int partial = coll == 18u || coll == 19u, exchange = coll == 17u || coll == 19u;
        uint32_t bytes = coll_result_bytes(coll, all, root, node, m);
        /* the first barrier (coll_jobs.h): ready, then go */
        area[COLL_JOBS_READY_OFF / 4] = j + 1;
        if (area[COLL_JOBS_FLAGS_OFF / 4] & COLL_JOBS_HOST_CHECK)
            while (area[COLL_JOBS_GO_OFF / 4] != j + 1) {
            }
        rec[COLL_JOB_CYCLE_START / 4] = (uint32_t)rvmesh_cycles();
        memset(result, COLL_POISON, bytes);
        uint32_t blocks = (coll == 17u || coll == 19u) ? all * all : all;
        int first = 1;
        for (uint32_t b = 0; b < blocks && bytes; b++) {
            uint32_t off = coll_result_offset(coll, all, root, node, b, m);
            if (off == UINT32_MAX) continue;
            if (partial) { /* only the sources' blocks: those this node sends or receives */
                uint32_t owner = exchange ? b / all : b, seen = 0;
                for (uint32_t r = 0; r < nsend + nrecv && !seen; r++) {
                    const uint8_t *rec_bytes = r < nsend ? table + 48 + 20 * r : table + 48 + 20 * nsend + 12 * (r - nsend);
                    uint32_t piece = rd32(rec_bytes + (r < nsend ? 16 : 8)), blk = piece;
                    uint32_t from = r < nsend ? node : rd32(rec_bytes + 4);
                    (void)from;
                    if ((exchange ? blk / all : blk) == owner && (r < nsend ? owner == node : !(rec_bytes[3] & 1u)))
                        seen = 1;
                }
                if (!seen) continue;
            }
            for (uint32_t i = 0; i < m; i++) result[off + i] = coll_pattern(seed, b, i);
            if (ORACLE_FAULTS && j == 0 && first) {
                if (node == 5) result[off + 7] ^= 0x10u;
                if (node == 6) memset(result + off, COLL_POISON, m);
            }
            first = 0;
        }
        if (ORACLE_FAULTS && j == 0 && node == 9 && bytes > m) result[bytes - 1] = 0;
        rec[COLL_JOB_CYCLE_END / 4] = ORACLE_FAST_CLOCK ? rec[COLL_JOB_CYCLE_START / 4] + 1u : (uint32_t)rvmesh_cycles();
        rec[COLL_JOB_STATUS / 4] = 0;
        rec[COLL_JOB_RECV_ADDR / 4] = bytes ? (uint32_t)(uintptr_t)result : 0;
        rec[COLL_JOB_RECV_BYTES / 4] = bytes;
        rec[COLL_JOB_SEND_ADDR / 4] = 0;
        rec[COLL_JOB_ERR_SRC / 4] = 0;
        rec[COLL_JOB_ERR_STEP / 4] = 0;
        area[COLL_JOBS_DONE_OFF / 4] = j + 1;
        if (area[COLL_JOBS_FLAGS_OFF / 4] & COLL_JOBS_HOST_CHECK)
            while (area[COLL_JOBS_ACK_OFF / 4] != j + 1) {
            }
    }
    if (node == 0) printf("oracle: %lu jobs\n", (unsigned long)count);
    return 0;
}
