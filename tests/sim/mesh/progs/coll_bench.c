/* The collectives engine's speed on the all-port neighbour exchange of neighbours.c: in one
 * step every node sends its block to each of its 2d neighbours and receives theirs (an
 * allgather table of that one step, built in memory), for blocks of 16, 256 and 1024 bytes,
 * first with the core moving every flit (pio), then with the NI's DMA engines (dma; NI
 * version 2). Node 0 prints, per size, the cycles from the start barrier's end to the return and the
 * cycles per flit its core moved (sent + received, headers included), and checks the
 * blocks. Then 12 broadcasts along a chain back to back with sync_start (the next call's
 * barrier tokens reach nodes still in the last call). Exit status 0 when every block
 * arrived intact. */
#include <stdio.h>
#include <string.h>

#include "coll.h"
#include "coll_jobs.h"
#include "rvmesh_rt.h"
#include "sched_coll.h"
#include "sched_table.h"

#define MAX_M 1024u
#define MAX_NODES 16u   /* config.mk's 4x4 torus; 2d messages per node */

static uint32_t workspace[256];
static uint32_t send_buf[MAX_M / 4u];
static uint32_t recv_buf[MAX_NODES * MAX_M / 4u];
static uint8_t table_bytes[512];
static sched_msg msgs[MAX_NODES * 6u];



int main(void)
{
    coll_ctx ctx;
    if (coll_init(&ctx, workspace, sizeof workspace) != COLL_OK || !ctx.ni.torus || ctx.ni.nodes > MAX_NODES)
        return 2;
    ctx.sync_start = 1;
    ctx.timeout_cycles = 1000000u;
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
    static const uint32_t sizes[] = {16, 256, 1024};
    int bad = 0;
    const int has_dma = ctx.use_dma;
    for (unsigned run = 0; run < 2u * (sizeof sizes / sizeof sizes[0]); ++run) {
        const unsigned k = run % (sizeof sizes / sizeof sizes[0]);
        ctx.use_dma = (uint8_t)(run >= sizeof sizes / sizeof sizes[0]);   /* the core first, then DMA */
        if (ctx.use_dma && !has_dma)
            break;
        const uint32_t m = sizes[k], words = m / 4u;
        for (uint32_t w = 0; w < words; ++w)
            send_buf[w] = node * 0x10000u + w;
        memset(recv_buf, 0, nodes * m);
        int rc = coll_allgather(&ctx, &t, send_buf, m, recv_buf, nodes * m, m);
        uint32_t end = RVMESH_CSR_READ(mcycle), cycles = end - ctx.start_cycle;
        uint32_t flits = ctx.flits_sent + ctx.flits_received;
        for (unsigned p = 0; p < ctx.ni.ports && rc == COLL_OK; ++p) {
            uint32_t from = ni_neighbour(&ctx.ni, node, p);
            for (uint32_t w = 0; w < words; ++w)
                if (recv_buf[from * words + w] != from * 0x10000u + w) {
                    printf("block of node %lu word %lu wrong\n", (unsigned long)from, (unsigned long)w);
                    bad = 1;
                    break;
                }
        }
        if (rc != COLL_OK)
            bad = 1;
        if (node == 0)
            printf("exchange %s m=%lu: %lu cycles, %lu flits moved, %lu.%lu cycles per flit\n",
                   ctx.use_dma ? "dma" : "pio", (unsigned long)m,
                   (unsigned long)cycles, (unsigned long)flits, (unsigned long)(cycles / flits),
                   (unsigned long)(cycles * 10u / flits % 10u));
    }
    ctx.use_dma = (uint8_t)has_dma;
    /* calls back to back: a broadcast along the chain 0 -> 2 -> 3 -> ... -> N-1 -> 1 (step
     * i + 1 sends from the chain's node i to its node i + 1). Node 0 is done after step 1 and
     * enters the next call, whose barrier's first token goes to node 1 -- which is the last
     * of the chain, still waiting in this call: that token comes early, every call, whatever
     * the engine's speed. */
    count = 0;
    for (uint32_t i = 0; i + 1u < nodes; ++i) {
        const uint32_t from = i == 0 ? 0u : i + 1u, to = i + 2u < nodes ? i + 2u : 1u;
        sched_msg *m = &msgs[count++];
        memset(m, 0, sizeof *m);
        m->src = from;
        m->dst = to;
        m->piece = 0;
        m->step = (uint16_t)(i + 1u);
        for (unsigned d = 0; d < ctx.ni.dims; ++d) {
            uint32_t div = d == 0 ? 1u : d == 1 ? ctx.ni.size[0] : ctx.ni.size[0] * ctx.ni.size[1];
            int32_t side = ctx.ni.size[d], delta = (int32_t)(to / div % (uint32_t)side) - (int32_t)(from / div % (uint32_t)side);
            if (2 * delta > side)
                delta -= side;
            else if (2 * delta < -side)
                delta += side;
            m->hops[d] = (int16_t)delta;
        }
        m->start_dim = (uint8_t)(m->hops[0] ? 0 : m->hops[1] ? 1 : 2);
    }
    s.algo = SCHED_ALGO_SAF_BCAST;
    s.coll = SCHED_COLL_BCAST;
    s.nsteps = nodes - 1u;
    s.count = count;
    len = sched_table_write(&s, node, table_bytes, sizeof table_bytes);
    if (len < 0 || coll_open_table(&ctx, table_bytes, (uint32_t)len, &t) != COLL_OK)
        return 4;
    uint32_t early = 0;
    for (uint32_t call = 0; call < 12u && !bad; ++call) {
        const uint32_t m = 16u, words = m / 4u;
        for (uint32_t w = 0; w < words; ++w)
            recv_buf[w] = node == 0 ? call * 0x10000u + w : 0;
        int rc = coll_bcast(&ctx, &t, recv_buf, m, m, 0);
        early += ctx.early_tokens != 0;
        for (uint32_t w = 0; w < words && rc == COLL_OK; ++w)
            if (recv_buf[w] != call * 0x10000u + w)
                rc = -100;
        if (rc != COLL_OK) {
            printf("back-to-back call %lu: %d\n", (unsigned long)call, rc);
            bad = 1;
        }
    }
    if (!bad && (node == 0 || early))
        printf("12 broadcasts back to back: ok (the next call's barrier tokens came early after %lu)\n",
               (unsigned long)early);
    return bad;
}
