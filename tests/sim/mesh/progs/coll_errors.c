/* SPDX-License-Identifier: ISC
 * Misuse of the collectives API (firmware/coll/coll.h) and network faults, on config.mk's
 * 4x4 torus: each check must return its error code and print why. Tables are built in
 * memory with sched_table_write from hand-made schedules.
 *
 * Node 0 makes every misuse call (they fail before anything is sent) and prints, after the
 * library's own message, "check NAME: ok (CODE)" or "FAIL check NAME: ...". Then checks with
 * worms, between nodes 0 and 1 only, in the NI's plan mode (node 1's port 1 takes puts):
 *   unexpected-worm  before a one-hop broadcast node 0 writes node 1 a put (by hand, through
 *                    TX_DATA) that does not fit node 1's window: node 1's NI drains it and
 *                    counts nothing; node 1 gets COLL_EUNEXPECTED with err_src 0, err_port
 *                    1, and the broadcast's block all the same;
 *   stale-epoch-worm a put of an epoch that is neither node 1's nor the next: the same;
 *   short-worm       a put whose info flit promises m bytes and which ends after one word,
 *                    then the right one: COLL_EWORM, and the block all the same;
 *   long-worm        a put whose info flit promises 3 words and which carries m bytes: the
 *                    same;
 *   timeout          node 1 waits for a worm node 0's table never sends: COLL_ETIMEOUT.
 * Exit status 0 when every check on the node came out as expected, else 1.
 */
#include <stdio.h>
#include <string.h>

#include "coll.h"
#include "coll_jobs.h"
#include "linkport.h"
#include "rvmesh_rt.h"
#include "sched_coll.h"
#include "sched_table.h"

#define M 64u

static uint32_t workspace[512] __attribute__((aligned(16)));
static uint32_t send_buf[16u * M / 4u];
static uint32_t recv_buf[16u * M / 4u];
static uint8_t table_bytes[512];
static unsigned failures;

/* Writes node `node`'s table of a hand-made schedule into table_bytes; returns its length. */
static uint32_t make_table(const sched_shape *shape, int algo, int collective, uint32_t root, sched_msg *msgs,
                           uint32_t count, uint32_t nsteps, uint32_t node)
{
    sched_schedule s;
    memset(&s, 0, sizeof s);
    s.shape = *shape;
    s.algo = (sched_algo)algo;
    s.coll = (sched_collective)collective;
    s.model = SCHED_MODEL_SAF_ALLPORT;
    s.root = root;
    s.nsteps = nsteps;
    s.count = count;
    s.msgs = msgs;
    int32_t n = sched_table_write(&s, node, table_bytes, sizeof table_bytes);
    if (n < 0) {
        printf("FAIL cannot write a table: %s\n", sched_table_strerror(n));
        rvmesh_exit(2);
    }
    return (uint32_t)n;
}

static sched_msg msg(uint32_t src, uint32_t dst, uint32_t piece, uint16_t step, int dx, int dy, uint8_t flags)
{
    sched_msg m;
    memset(&m, 0, sizeof m);
    m.src = src;
    m.dst = dst;
    m.piece = piece;
    m.step = step;
    m.start_dim = dx ? 0 : 1;
    m.reserved = flags;
    m.hops[0] = (int16_t)dx;
    m.hops[1] = (int16_t)dy;
    return m;
}

static void expect(const char *name, int got, int want)
{
    if (got == want) {
        printf("check %s: ok (%d: %s)\n", name, got, coll_strerror(got));
    } else {
        printf("FAIL check %s: returned %d (%s), want %d (%s)\n", name, got, coll_strerror(got), want,
               coll_strerror(want));
        ++failures;
    }
}

static void misuse_checks(coll_ctx *ctx)
{
    const sched_shape torus = ctx->shape;
    sched_table t;
    int rc;
    /* a one-hop broadcast from node 0 to node 1 */
    sched_msg bcast_msgs[1] = {msg(0, 1, 0, 1, 1, 0, 0)};
    uint32_t len = make_table(&torus, SCHED_ALGO_SAF_BCAST, SCHED_COLL_BCAST, 0, bcast_msgs, 1, 1, 0);
    expect("open-good-table", coll_open_table(ctx, table_bytes, len, &t), COLL_OK);

    expect("root-off-mesh", coll_bcast(ctx, &t, recv_buf, M, M, 16), COLL_EROOT);
    expect("root-not-the-tables", coll_bcast(ctx, &t, recv_buf, M, M, 3), COLL_EROOT_TABLE);
    expect("buffer-too-small", coll_bcast(ctx, &t, recv_buf, M - 4u, M, 0), COLL_ERECV_SPACE);
    expect("m-zero", coll_bcast(ctx, &t, recv_buf, M, 0, 0), COLL_ESIZE);
    expect("m-not-words", coll_bcast(ctx, &t, recv_buf, M, 6, 0), COLL_ESIZE);
    expect("wrong-collective-scatter", coll_scatter(ctx, &t, send_buf, sizeof send_buf, recv_buf, M, M, 0),
           COLL_ECOLLECTIVE);
    expect("wrong-collective-allgather", coll_allgather(ctx, &t, send_buf, M, recv_buf, sizeof recv_buf, M),
           COLL_ECOLLECTIVE);
    expect("no-table", coll_bcast(ctx, 0, recv_buf, M, M, 0), COLL_EARG);

    /* damaged and truncated copies of the good table */
    table_bytes[SCHED_TABLE_HEADER_BYTES + 2] ^= 1u;
    expect("damaged-table", coll_open_table(ctx, table_bytes, len, &t), COLL_ETABLE);
    table_bytes[SCHED_TABLE_HEADER_BYTES + 2] ^= 1u;
    expect("truncated-table", coll_open_table(ctx, table_bytes, len - 1u, &t), COLL_ETABLE);

    /* tables for another machine or node */
    sched_shape five = torus, mesh = torus;
    five.side[0] = five.side[1] = 5;
    mesh.torus = 0;
    len = make_table(&five, SCHED_ALGO_SAF_BCAST, SCHED_COLL_BCAST, 0, bcast_msgs, 1, 1, 0);
    expect("table-for-5x5-torus", coll_open_table(ctx, table_bytes, len, &t), COLL_ESHAPE);
    len = make_table(&mesh, SCHED_ALGO_SAF_BCAST, SCHED_COLL_BCAST, 0, bcast_msgs, 1, 1, 0);
    expect("table-for-4x4-mesh", coll_open_table(ctx, table_bytes, len, &t), COLL_ESHAPE);
    len = make_table(&torus, SCHED_ALGO_SAF_BCAST, SCHED_COLL_BCAST, 0, bcast_msgs, 1, 1, 3);
    expect("table-of-node-3", coll_open_table(ctx, table_bytes, len, &t), COLL_ENODE);

    /* scatter from node 0: the root's send buffer holds 16 blocks */
    sched_msg scatter_msgs[1] = {msg(0, 1, 1, 1, 1, 0, 0)};
    len = make_table(&torus, SCHED_ALGO_SCATTER, SCHED_COLL_SCATTER, 0, scatter_msgs, 1, 1, 0);
    rc = coll_open_table(ctx, table_bytes, len, &t);
    expect("open-scatter-table", rc, COLL_OK);
    expect("send-buffer-too-small", coll_scatter(ctx, &t, send_buf, 15u * M, recv_buf, M, M, 0), COLL_ESEND_SPACE);
    /* the root's result buffer inside its send buffer; a workspace over the result buffer */
    expect("buffers-overlap", coll_scatter(ctx, &t, send_buf, sizeof send_buf, send_buf + 3u * M / 4u, M, M, 0),
           COLL_EARG);
    {
        coll_plan plan;
        expect("workspace-overlaps-result", coll_plan_init(&plan, ctx, &t, send_buf, sizeof send_buf, workspace, M, M,
                                                           workspace, sizeof workspace), COLL_EARG);
    }

    /* gather to node 1 through node 0: node 0 relays node 2's block (a transit slot of m) */
    sched_msg gather_msgs[3] = {msg(2, 0, 2, 1, -2, 0, 0), msg(0, 1, 0, 2, 1, 0, 0), msg(0, 1, 2, 2, 1, 0, 0)};
    len = make_table(&torus, SCHED_ALGO_GATHER, SCHED_COLL_GATHER, 1, gather_msgs, 3, 2, 0);
    expect("open-gather-table", coll_open_table(ctx, table_bytes, len, &t), COLL_OK);
    uint32_t need = coll_workspace_bytes(ctx, &t, M);
    uint8_t *saved = ctx->workspace;
    uint32_t saved_bytes = ctx->workspace_bytes;
    /* the worst case coll_workspace_bytes allows for: a workspace 4 bytes past a 16-byte
     * boundary (12 bytes skipped to align it), one word short */
    ctx->workspace = saved + 4u;
    ctx->workspace_bytes = need - 4u;
    expect("workspace-too-small", coll_gather(ctx, &t, send_buf, M, 0, 0, M, 1), COLL_EWORKSPACE);
    ctx->workspace = saved;
    ctx->workspace_bytes = saved_bytes;
    if (need != 3u * 16u + M + 12u + 12u) {
        printf("FAIL check workspace-bytes: coll_workspace_bytes says %lu, want %lu (3 descriptors: 2 sends and the "
               "own block's local copy, 1 transit piece, 1 receive note, 12 for alignment)\n", (unsigned long)need,
               (unsigned long)(3u * 16u + M + 24u));
        ++failures;
    } else {
        printf("check workspace-bytes: ok (%lu)\n", (unsigned long)need);
    }

    /* allgather tables: a split algorithm wants m a multiple of 4 * dims; a piece the node
     * does not hold; a route the NI would refuse (4 hops on a ring of 4) */
    sched_msg split_msgs[1] = {msg(0, 1, 0, 1, 1, 0, 0)};
    len = make_table(&torus, (int)SCHED_ALGO_MNB_SPLIT, (int)SCHED_COLL_ALLGATHER, 0, split_msgs, 1, 1, 0);
    expect("open-split-table", coll_open_table(ctx, table_bytes, len, &t), COLL_OK);
    expect("m-not-multiple-of-parts", coll_allgather(ctx, &t, send_buf, M, recv_buf, sizeof recv_buf, 12),
           COLL_ESIZE);
    sched_msg early_msgs[1] = {msg(0, 1, 5, 1, 1, 0, 0)};
    len = make_table(&torus, (int)SCHED_ALGO_MNB, (int)SCHED_COLL_ALLGATHER, 0, early_msgs, 1, 1, 0);
    coll_open_table(ctx, table_bytes, len, &t);
    expect("sends-a-piece-it-lacks", coll_allgather(ctx, &t, send_buf, M, recv_buf, sizeof recv_buf, M),
           COLL_ETABLE);
    sched_msg far_msgs[1] = {msg(0, 0, 0, 1, 4, 0, 0)};
    len = make_table(&torus, SCHED_ALGO_SAF_BCAST, SCHED_COLL_BCAST, 0, far_msgs, 1, 1, 0);
    coll_open_table(ctx, table_bytes, len, &t);
    expect("route-off-the-ring", coll_bcast(ctx, &t, recv_buf, M, M, 0), COLL_ETABLE);
}

/* A put worm written by hand on node 0's port 0 (one hop +x: node 1's port 1), flit by
 * flit: head, info claiming `claim` payload words, the put flit (window 0, `offset`, counter
 * 1, epoch `epoch`), then `words` payload words from `payload`. */
static void hand_put(uint32_t claim, uint32_t offset, uint32_t epoch, const uint32_t *payload, uint32_t words)
{
    ni_tx_flit(0, NOC_HEAD(1, 0, 0, 0, 9));
    ni_tx_flit(0, NOC_INFO(0, claim + 3u));
    const uint32_t put = NI_PUT(0u, offset, 1u) | (epoch & 15u) << 22;
    if (words == 0) {
        ni_tx_last(0, put);
        return;
    }
    ni_tx_flit(0, put);
    for (uint32_t w = 0; w + 1u < words; ++w)
        ni_tx_flit(0, payload[w]);
    ni_tx_last(0, payload[words - 1u]);
}

/* Nodes 0 and 1: worms the NI must refuse, then a worm that never comes. */
static void worm_checks(coll_ctx *ctx)
{
    const uint32_t node = ctx->ni.node;
    sched_table t;
    sched_msg bcast_msgs[1] = {msg(0, 1, 0, 1, 1, 0, 0)};
    uint32_t len = make_table(&ctx->shape, SCHED_ALGO_SAF_BCAST, SCHED_COLL_BCAST, 0, bcast_msgs, 1, 1, node);
    static const char *const names[4] = {"unexpected-worm", "stale-epoch-worm", "short-worm", "long-worm"};
    static const int codes[4] = {COLL_EUNEXPECTED, COLL_EUNEXPECTED, COLL_EWORM, COLL_EWORM};
    for (unsigned kind = 0; kind < 4u; ++kind) {
        coll_open_table(ctx, table_bytes, len, &t);
        for (uint32_t w = 0; w < M / 4u; ++w)
            recv_buf[w] = node == 0 ? 0x1000u * (kind + 1u) + w : 0xa5a5a5a5u;
        if (node == 0) {
            /* the epoch both nodes' next plan runs in (they have started as many) */
            const uint32_t epoch = ni_epoch() + 1u;
            uint32_t junk[M / 4u];
            for (uint32_t w = 0; w < M / 4u; ++w)
                junk[w] = 0xdead0000u + w;
            switch (kind) {
            case 0: hand_put(M / 4u, 100u, epoch, junk, M / 4u); break;       /* past the window */
            case 1: hand_put(M / 4u, 0, epoch + 5u, junk, M / 4u); break;     /* another epoch */
            case 2: hand_put(M / 4u, 0, epoch, junk, 1u); break;              /* ends early */
            default: hand_put(3u, 0, epoch, junk, M / 4u); break;             /* goes on */
            }
            ni_wait_sent(0);
        }
        int rc = coll_bcast(ctx, &t, recv_buf, M, M, 0);
        char name[48];
        if (node == 0) {
            snprintf(name, sizeof name, "%s-sender", names[kind]);
            expect(name, rc, COLL_OK);
            continue;
        }
        expect(names[kind], rc, codes[kind]);
        if (ctx->err_src != 0 || ctx->err_port != 1) {
            printf("FAIL check %s-record: err_src %lu err_port %lu, want 0, 1\n", names[kind],
                   (unsigned long)ctx->err_src, (unsigned long)ctx->err_port);
            ++failures;
        }
        for (uint32_t w = 0; w < M / 4u; ++w)
            if (recv_buf[w] != 0x1000u * (kind + 1u) + w) {
                printf("FAIL check %s-delivery: word %lu is 0x%08lx\n", names[kind], (unsigned long)w,
                       (unsigned long)recv_buf[w]);
                ++failures;
                break;
            }
    }

    /* node 1 expects piece 0 from node 0 in step 1; node 0's table sends nothing */
    len = make_table(&ctx->shape, SCHED_ALGO_SAF_BCAST, SCHED_COLL_BCAST, 0, bcast_msgs, node == 0 ? 0u : 1u, 1,
                     node);
    coll_open_table(ctx, table_bytes, len, &t);
    ctx->timeout_cycles = 20000;
    int rc = coll_bcast(ctx, &t, recv_buf, M, M, 0);
    expect(node == 0 ? "timeout-sender" : "timeout", rc, node == 0 ? COLL_OK : COLL_ETIMEOUT);
}

int main(void)
{
    coll_ctx ctx;
    if (coll_init(&ctx, workspace, sizeof workspace) != COLL_OK) {
        printf("FAIL no network interface\n");
        return 2;
    }
    const uint32_t node = ctx.ni.node;
    if (node == 0) {
        misuse_checks(&ctx);
        /* every refused call moved node 0's epoch on, as it must when all nodes make the
         * call; here node 0 made them alone: back in step with node 1, which made none */
        ni_set_epoch(0);
    }
    if (node <= 1)
        worm_checks(&ctx);
    if (node == 0)
        printf("coll_errors: %u unexpected results\n", failures);
    return failures ? 1 : 0;
}
