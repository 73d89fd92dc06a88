/* SPDX-License-Identifier: ISC
 * Plans on the NI, measured and run back to back (config.mk's 4x4 torus):
 *   1. the all-port neighbour exchange of neighbours.c as one plan per block size (16, 256,
 *      1024 and 4096 bytes): in one step every node sends its block to each of its 2d
 *      neighbours and receives theirs (an allgather table of that one step, built in
 *      memory). Node 0 prints, per size, the plan's compile cycles, the cycles from its
 *      start to done, and the cycles per payload flit of one worm (every port sends and
 *      receives one worm at once: about 1 when they all stream a flit per cycle); every
 *      node checks its neighbours' blocks.
 *   2. the same 1024-byte plan started 12 times back to back (persistent: compiled once),
 *      new data each time: no barrier (store-and-forward), so a node's next puts reach
 *      neighbours still in this run and wait at their ports until those start theirs.
 *   3. 12 broadcasts along a chain 0 -> 2 -> 3 -> ... -> N-1 -> 1 back to back as a
 *      wormhole schedule (each with its start barrier of signals): node 0 is done after
 *      step 1 and enters the next call, whose barrier signals reach node 1, still the
 *      chain's last; they are kept for the next call.
 * Exit status 0 when every block arrived intact. */
#include <stdio.h>
#include <string.h>

#include "coll.h"
#include "coll_jobs.h"
#include "rvmesh_rt.h"
#include "sched_coll.h"
#include "sched_table.h"

#define MAX_M 4096u
#ifndef BENCH_TIMEOUT
#define BENCH_TIMEOUT 1000000u
#endif
#define MAX_NODES 16u   /* config.mk's 4x4 torus; 2d messages per node */

static uint32_t workspace[512] __attribute__((aligned(16)));
static uint32_t send_buf[MAX_M / 4u];
static uint32_t recv_buf[MAX_NODES * MAX_M / 4u];
static uint8_t table_bytes[512];
static sched_msg msgs[MAX_NODES * 6u];

static int check_blocks(const coll_ctx *ctx, uint32_t m, uint32_t tag)
{
    const uint32_t words = m / 4u;
    for (unsigned p = 0; p < ctx->ni.ports; ++p) {
        uint32_t from = ni_neighbour(&ctx->ni, ctx->ni.node, p);
        for (uint32_t w = 0; w < words; ++w)
            if (recv_buf[from * words + w] != (tag ^ from * 0x10000u) + w) {
                printf("block of node %lu word %lu wrong: 0x%08lx\n", (unsigned long)from, (unsigned long)w,
                       (unsigned long)recv_buf[from * words + w]);
                return 0;
            }
    }
    return 1;
}

int main(void)
{
    coll_ctx ctx;
    if (coll_init(&ctx, workspace, sizeof workspace) != COLL_OK || !ctx.ni.torus || ctx.ni.nodes > MAX_NODES)
        return 2;
    ctx.timeout_cycles = BENCH_TIMEOUT;
    const uint32_t nodes = ctx.ni.nodes, node = ctx.ni.node;
    uint32_t count = 0;
    for (uint32_t n = 0; n < nodes; ++n)
        for (unsigned p = 0; p < ctx.ni.ports; ++p) {
            sched_msg *m = &msgs[count++];
            memset(m, 0, sizeof *m);
            m->src = n;
            m->dst = ni_neighbour(&ctx.ni, n, p);
            m->piece = n;
            m->step = 1;
            m->start_dim = (uint8_t)(p / 2u);
            m->hops[p / 2u] = (int16_t)(p & 1u ? -1 : 1);
        }
    sched_schedule s;
    memset(&s, 0, sizeof s);
    s.shape = ctx.shape;
    s.algo = SCHED_ALGO_MNB;
    s.coll = SCHED_COLL_ALLGATHER;
    s.model = SCHED_MODEL_SAF_ALLPORT;
    s.nsteps = 1;
    s.count = count;
    s.msgs = msgs;
    int32_t len = sched_table_write(&s, node, table_bytes, sizeof table_bytes);
    sched_table t;
    if (len < 0 || coll_open_table(&ctx, table_bytes, (uint32_t)len, &t) != COLL_OK)
        return 3;
    static const uint32_t sizes[] = {16, 256, 1024, 4096};
    int bad = 0;
    coll_plan plan;
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0] && !bad; ++k) {
        const uint32_t m = sizes[k], words = m / 4u;
        for (uint32_t w = 0; w < words; ++w)
            send_buf[w] = node * 0x10000u + w;
        memset(recv_buf, 0, nodes * m);
        int rc = coll_plan_init(&plan, &ctx, &t, send_buf, m, recv_buf, nodes * m, m, workspace, sizeof workspace);
        if (rc == COLL_OK)
            rc = coll_plan_start(&plan);
        if (rc == COLL_OK)
            rc = coll_plan_wait(&plan);
        if (rc != COLL_OK || !check_blocks(&ctx, m, 0))
            bad = 1;
        const uint32_t cycles = ctx.end_cycle - ctx.start_cycle;
        if (node == 0)
            printf("exchange m=%lu: compiled in %lu cycles, %lu cycles from start to done, %lu.%02lu cycles per "
                   "payload flit of a worm\n", (unsigned long)m, (unsigned long)plan.compile_cycles,
                   (unsigned long)cycles, (unsigned long)(cycles / words),
                   (unsigned long)(cycles * 100u / words % 100u));
    }

    /* one plan of 1024-byte blocks, started 12 times */
    const uint32_t m = 1024u, words = m / 4u;
    int rc = coll_plan_init(&plan, &ctx, &t, send_buf, m, recv_buf, nodes * m, m, workspace, sizeof workspace);
    for (uint32_t run = 0; run < 12u && rc == COLL_OK && !bad; ++run) {
        const uint32_t tag = run * 0x01000000u;
        for (uint32_t w = 0; w < words; ++w)
            send_buf[w] = (tag ^ node * 0x10000u) + w;
        rc = coll_plan_start(&plan);
        if (rc == COLL_OK)
            rc = coll_plan_wait(&plan);
        if (rc == COLL_OK && !check_blocks(&ctx, m, tag))
            rc = -100;
    }
    if (rc != COLL_OK) {
        printf("persistent exchange: %d\n", rc);
        bad = 1;
    } else if (node == 0) {
        printf("12 exchanges of one plan back to back: ok\n");
    }

    /* calls back to back: a broadcast along the chain (step i + 1 sends from the chain's
     * node i to its node i + 1), multi-hop worms: a wormhole schedule with its barrier */
    count = 0;
    for (uint32_t i = 0; i + 1u < nodes; ++i) {
        const uint32_t from = i == 0 ? 0u : i + 1u, to = i + 2u < nodes ? i + 2u : 1u;
        sched_msg *mm = &msgs[count++];
        memset(mm, 0, sizeof *mm);
        mm->src = from;
        mm->dst = to;
        mm->piece = 0;
        mm->step = (uint16_t)(i + 1u);
        for (unsigned d = 0; d < ctx.ni.dims; ++d) {
            uint32_t div = d == 0 ? 1u : d == 1 ? ctx.ni.size[0] : ctx.ni.size[0] * ctx.ni.size[1];
            int32_t side = ctx.ni.size[d], delta = (int32_t)(to / div % (uint32_t)side) - (int32_t)(from / div % (uint32_t)side);
            if (2 * delta > side)
                delta -= side;
            else if (2 * delta < -side)
                delta += side;
            mm->hops[d] = (int16_t)delta;
        }
        mm->start_dim = (uint8_t)(mm->hops[0] ? 0 : mm->hops[1] ? 1 : 2);
    }
    s.algo = SCHED_ALGO_TSAY_WANG;
    s.coll = SCHED_COLL_BCAST;
    s.model = SCHED_MODEL_WORMHOLE_ALLPORT;
    s.nsteps = nodes - 1u;
    s.count = count;
    len = sched_table_write(&s, node, table_bytes, sizeof table_bytes);
    if (len < 0 || coll_open_table(&ctx, table_bytes, (uint32_t)len, &t) != COLL_OK)
        return 4;
    uint32_t early = 0;
    for (uint32_t call = 0; call < 12u && !bad; ++call) {
        const uint32_t mb = 16u, wb = mb / 4u;
        for (uint32_t w = 0; w < wb; ++w)
            recv_buf[w] = node == 0 ? call * 0x10000u + w : 0;
        rc = coll_bcast(&ctx, &t, recv_buf, mb, mb, 0);
        early += ctx.early_signals != 0;
        for (uint32_t w = 0; w < wb && rc == COLL_OK; ++w)
            if (recv_buf[w] != call * 0x10000u + w)
                rc = -100;
        if (rc != COLL_OK) {
            printf("back-to-back call %lu: %d\n", (unsigned long)call, rc);
            bad = 1;
        }
    }
    if (!bad && (node == 0 || early))
        printf("12 broadcasts back to back: ok (the next call's barrier signals came early after %lu)\n",
               (unsigned long)early);
    return bad;
}
