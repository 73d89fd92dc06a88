/* SPDX-License-Identifier: ISC
 * rvmesh collectives: a short allreduce by recursive doubling, combined in the NI (combining
 * puts, ni_has_combine()). One plan: no node's core touches an element.
 *
 * Sides that are powers of two (a mesh or a torus, 2-D or 3-D; 2 .. 64 nodes a side, at most
 * COLL_DBL_MAX_ROUNDS rounds in all). Round k pairs each node with the node whose coordinate
 * along the round's dimension differs in one bit (dimension 0's bits from the lowest, then
 * dimension 1's, ...): after round k a node holds the combination of the 2^(k+1) nodes that
 * differ from it only in the rounds' bits so far, after the last round the whole machine's.
 * A round is one put each way: log2(N) steps of one short worm, against the 2 (N-1)/N m per
 * link of the rings (coll_ring.c), which take 4 (sqrt(N) - 1) steps: this is the path for
 * vectors whose time is the steps' latency, not their bytes.
 *
 * Buffers: P_0 is the node's send buffer; round k's result P_(k+1) is R_k, the k-th of K
 * blocks of count words in the plan's workspace (the receive window): the partner puts its
 * P_k plainly into this node's R_k (counted on counter c_k), then this node's local port
 * combines its own P_k into R_k (a combining put, counted on c_k too: R_k is whole at 2).
 * Nothing is ever written into a block a later round reads before it is whole, and nothing is
 * written into P_0, so send and recv may be the same buffer: the caller copies R_(K-1) out
 * (coll_dbl_result) once the plan is done.
 *
 * Order: round k's put leaves once R_(k-1) is whole (c_(k-1) >= 2; round 0's after the start
 * barrier, so that no put reaches a node before it has started). The local list runs in
 * order: for each round the combining put (once the partner's is in: c_k >= 1) and then a
 * signal on the local counter once R_k is whole (c_k >= 2), so that the next round's local
 * put cannot read R_k before its own combine is written. The local counter ends at K: the
 * plan's target for it (the round counters past the NI's ports have none; the last signal
 * waits for them).
 *
 * Counters: the K rounds take counters 0 .. NI_MAX_PORTS other than the local port's (each
 * start clears them): 6 rounds, 64 nodes.
 */
#include "coll_internal.h"
#include "rvmesh_rt.h"

#pragma GCC optimize("Os")

/* the number of rounds on this machine, 0 where its sides are not powers of two */
uint32_t coll_dbl_rounds(const coll_ctx *ctx)
{
    uint32_t k = 0;
    for (unsigned d = 0; d < ctx->ni.dims; ++d) {
        const uint32_t b = coll_barrier_rounds(ctx->ni.size[d]);   /* ceil(log2) */
        if ((1u << b) != ctx->ni.size[d])
            return 0;
        k += b;
    }
    return k;
}

int coll_dbl_allreduce_fits(const coll_ctx *ctx, uint32_t count)
{
    if (!ctx || !ctx->initialised || !ni_has_combine() || ctx->ni.nodes < 2u)
        return 0;
    const uint32_t k = coll_dbl_rounds(ctx);
    return k >= 1u && k <= COLL_DBL_MAX_ROUNDS && count >= 1u && count <= COLL_DBL_MAX_COUNT &&
           coll_barrier_rounds(ctx->ni.nodes) <= COLL_MAX_ROUNDS;
}

uint32_t coll_dbl_allreduce_workspace(const coll_ctx *ctx, uint32_t count)
{
    const uint32_t k = coll_dbl_rounds(ctx);
    /* per round a put, a combining put and a signal; the barrier; the K result blocks */
    return 16u * (3u * k + coll_barrier_descs(coll_barrier_rounds(ctx->ni.nodes))) + 4u * k * count;
}

/* where the result is once the plan is done: the last round's block */
const void *coll_dbl_result(const coll_plan *plan)
{
    return (const uint8_t *)plan->recv + 4u * (plan->recv_words - plan->m / 4u);
}

int coll_dbl_allreduce_compile(coll_plan *plan, coll_ctx *ctx, const void *send_v, uint32_t count, uint32_t kind,
                               void *workspace, uint32_t workspace_bytes, const char *name)
{
    const uint32_t cycle0 = RVMESH_CSR_READ(mcycle);
    if (!plan || !coll_dbl_allreduce_fits(ctx, count) || !kind)
        return COLL_EARG;
    const uint32_t bytes = 4u * count;
    const uint8_t *send = (const uint8_t *)send_v;
    if (!send || ((uintptr_t)send & 3u) || !coll_in_ram(send, bytes))
        return COLL_EARG;
    const uint32_t K = coll_dbl_rounds(ctx), rounds = coll_barrier_rounds(ctx->ni.nodes);
    const uint32_t need = coll_dbl_allreduce_workspace(ctx, count);
    if (((uintptr_t)workspace & 15u) || need > workspace_bytes || !coll_in_ram(workspace, need))
        return COLL_EWORKSPACE;
    coll_clear_words(plan, sizeof *plan);
    plan->ctx = ctx;
    plan->name = name;
    const unsigned local = ctx->ni.ports;
    struct ni_desc *desc = (struct ni_desc *)workspace;
    const uint32_t ndesc = 3u * K + coll_barrier_descs(rounds);
    uint8_t *blocks = (uint8_t *)workspace + 16u * ndesc;
    const uint32_t block0 = (uint32_t)(((uintptr_t)blocks - RVMESH_RAM_BASE) / 4u);
    const uint32_t send_word = (uint32_t)(((uintptr_t)send - RVMESH_RAM_BASE) / 4u);

    /* round k's counter: 0, 1, ... skipping the local port's */
    uint8_t ctr[COLL_DBL_MAX_ROUNDS];
    for (uint32_t k = 0, c = 0; k < K; ++k, ++c) {
        if (c == local)
            ++c;
        ctr[k] = (uint8_t)c;
    }
    /* round k's partner: its dimension and hop counts (a torus goes the short way) */
    int8_t hop[COLL_DBL_MAX_ROUNDS][3];
    uint8_t port[COLL_DBL_MAX_ROUNDS], dim[COLL_DBL_MAX_ROUNDS];
    for (uint32_t k = 0, d = 0, bit = 0; k < K; ++k, ++bit) {
        while ((1u << bit) >= ctx->ni.size[d]) {
            ++d;
            bit = 0;
        }
        const uint32_t n = ctx->ni.size[d], c = ctx->ni.coord[d], other = c ^ (1u << bit);
        int32_t off = (int32_t)other - (int32_t)c;
        if (ctx->ni.torus && 2 * (off < 0 ? -off : off) > (int32_t)n)
            off += off < 0 ? (int32_t)n : -(int32_t)n;
        hop[k][0] = hop[k][1] = hop[k][2] = 0;
        hop[k][d] = (int8_t)off;
        dim[k] = (uint8_t)d;
        port[k] = (uint8_t)ni_port_for(hop[k][0], hop[k][1], hop[k][2], d);
    }

    coll_barrier_lists(ctx, rounds);
    const uint32_t own_trigger = NI_TRIGGER(COLL_BARRIER_COUNTER + rounds - 1u, coll_barrier_heard(rounds - 1u));
    uint32_t at = 0;
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p) {
        plan->list_first[p] = (uint16_t)at;
        if (p > local)
            continue;
        for (unsigned k = 0; k < ctx->barrier_count[p]; ++k)
            desc[at++] = ctx->barrier[ctx->barrier_first[p] + k];
        for (uint32_t k = 0; k < K; ++k) {
            const uint32_t from = k == 0 ? send_word : block0 + (k - 1u) * count;
            if (p == local) {
                /* its own P_k into R_k once the partner's is in, then a signal once R_k is whole */
                struct ni_desc *c = &desc[at++];
                c->head = NOC_HEAD(0, 0, 0, 0, 40u + k);
                c->payload = NI_DESC_PAYLOAD(from, count);
                c->trigger = NI_TRIGGER(ctr[k], 1u);
                c->put = NI_PUT(0u, k * count, ctr[k]) | kind;
                struct ni_desc *s = &desc[at++];
                s->head = NOC_HEAD(0, 0, 0, 0, 61u);
                s->payload = 0;
                s->trigger = NI_TRIGGER(ctr[k], 2u);
                s->put = NI_SIGNAL(local);
            } else if (p == port[k]) {
                /* P_k to the partner's R_k, plain, once P_k is whole */
                struct ni_desc *r = &desc[at++];
                r->head = NOC_HEAD(hop[k][0], hop[k][1], hop[k][2], dim[k], 40u + k);
                r->payload = NI_DESC_PAYLOAD(from, count);
                r->trigger = k == 0 ? own_trigger : NI_TRIGGER(ctr[k - 1u], 2u);
                r->put = NI_PUT(0u, k * count, ctr[k]);
            }
        }
        plan->list_count[p] = (uint16_t)(at - plan->list_first[p]);
    }
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p)
        plan->recv_count[p] = 0;
    for (uint32_t k = 0; k < K; ++k)
        if (ctr[k] < local)
            plan->recv_count[ctr[k]] = 2u;
    plan->recv_count[local] = (uint16_t)K;
    coll_ni_plan_finish(plan, ctx, rounds, desc, bytes, blocks, K * count);
    plan->compile_cycles = RVMESH_CSR_READ(mcycle) - cycle0;
    return COLL_OK;
}
