/* SPDX-License-Identifier: ISC
 * rvmesh collectives: routes from this node, and the start barrier's descriptors (the
 * dissemination barrier of coll_internal.h), built once per context and copied by every plan
 * that starts with the barrier (coll_plan.c) and by the barrier alone (coll_run.c). */
#include "coll_internal.h"

_Static_assert(sizeof(((coll_ctx *)0)->barrier) / 16u >= 2u * COLL_MAX_ROUNDS - 1u, "room for the barrier's lists");

/* the shortest dimension-order route to node dst (coll_internal.h) */
unsigned coll_route_to(const coll_ctx *ctx, uint32_t dst, int16_t hops[SCHED_MAX_DIMS])
{
    for (unsigned d = 0; d < SCHED_MAX_DIMS; ++d) {
        int32_t side = d < ctx->ni.dims ? ctx->ni.size[d] : 1;
        int32_t want = (int32_t)(dst % (uint32_t)side), delta = want - (int32_t)ctx->ni.coord[d];
        dst /= (uint32_t)side;
        if (ctx->ni.torus) {
            if (2 * delta > side)
                delta -= side;
            else if (2 * delta < -side)
                delta += side;
        }
        hops[d] = (int16_t)delta;
    }
    int port = ni_port_for(hops[0], hops[1], hops[2], 0);
    return port < 0 ? 0u : (unsigned)port;
}

unsigned coll_barrier_desc(const coll_ctx *ctx, uint32_t round, struct ni_desc *d)
{
    int16_t hops[SCHED_MAX_DIMS];
    const uint32_t nodes = ctx->ni.nodes;
    unsigned port = coll_route_to(ctx, (ctx->ni.node + (1u << round)) % nodes, hops);
    d->head = NOC_HEAD(hops[0], hops[1], hops[2], port / 2u, 62u);
    d->payload = 0;
    d->trigger = round == 0 ? NI_NO_TRIGGER : NI_TRIGGER(COLL_BARRIER_COUNTER + round - 1u, coll_barrier_heard(round - 1u));
    d->put = NI_SIGNAL(COLL_BARRIER_COUNTER + round);
    return port;
}

void coll_barrier_link_desc(uint32_t round, struct ni_desc *d)
{
    d->head = NOC_HEAD(0, 0, 0, 0, 62u);
    d->payload = 0;
    d->trigger = NI_TRIGGER(COLL_BARRIER_COUNTER + round - 1u, coll_barrier_heard(round - 1u));
    d->put = NI_SIGNAL(COLL_BARRIER_COUNTER + round);
}

/* The barrier's descriptor lists, built once per context (routes cost divisions) and copied by
 * every plan that starts with the barrier and by the barrier alone: per port its rounds in
 * order, on the local port the links (ctx->barrier, barrier_first, barrier_count). */
void coll_barrier_lists(coll_ctx *ctx, uint32_t rounds)
{
    if (ctx->barrier_ready)
        return;
    struct ni_desc d[COLL_MAX_ROUNDS];
    unsigned port[COLL_MAX_ROUNDS];
    const unsigned local = ctx->ni.ports;
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p)
        ctx->barrier_count[p] = 0;
    for (uint32_t r = 0; r < rounds; ++r) {
        port[r] = coll_barrier_desc(ctx, r, &d[r]);
        ctx->barrier_count[port[r]]++;
    }
    ctx->barrier_count[local] = (uint16_t)(rounds - 1u);
    uint16_t at = 0, cur[NI_MAX_PORTS + 1];
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p) {
        ctx->barrier_first[p] = cur[p] = at;
        at = (uint16_t)(at + ctx->barrier_count[p]);
    }
    for (uint32_t r = 0; r < rounds; ++r)
        ctx->barrier[cur[port[r]]++] = d[r];
    for (uint32_t r = 1; r < rounds; ++r)
        coll_barrier_link_desc(r, &ctx->barrier[cur[local]++]);
    ctx->barrier_ready = 1;
}

/* Does this plan start with the barrier? Wormhole schedules do (see coll.h). */
int coll_wants_barrier(const coll_ctx *ctx, const sched_table *t)
{
    return ctx->sync_start || (t->model != SCHED_MODEL_SAF_ALLPORT && ctx->ni.nodes > 1u);
}

/* ---- communicators of a line (coll.h) ---- */
/* the signal to member `rank`: *d gets the descriptor, the return value is its port */
static unsigned signal_desc(const coll_ctx *ctx, const coll_comm *comm, uint32_t rank, struct ni_desc *d);

/* the start barrier's lists: a signal to each other member, port by port (the NI's local
 * port: none) */
static void signal_lists(const coll_ctx *ctx, coll_comm *comm)
{
    uint16_t n = 0;
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p) {
        comm->signal_first[p] = n;
        comm->signal_count[p] = 0;
        for (uint32_t r = 0; p < ctx->ni.ports && r < comm->size; ++r) {
            /* made aside: with every signal placed, signal[n] is past the array (a line of
             * COLL_COMM_MAX_SIZE members wrote over signal_first until 2026-11-27) */
            struct ni_desc d;
            if (r != comm->rank && signal_desc(ctx, comm, r, &d) == p) {
                comm->signal[n++] = d;
                ++comm->signal_count[p];
            }
        }
    }
}

/* Is counter free of the machine's rounds and of every port's (coll_internal.h)? */
static int counter_free(const coll_ctx *ctx, uint32_t counter)
{
    const uint32_t rounds = coll_barrier_rounds(ctx->ni.nodes);
    return counter > ctx->ni.ports && !(counter >= COLL_BARRIER_COUNTER && COLL_BARRIER_COUNTER + rounds > counter);
}

int coll_comm_plane(const coll_ctx *ctx, coll_comm *comm)
{
    if (!ctx || !ctx->initialised || !comm)
        return COLL_ENI;
    const uint32_t counter = COLL_COMM_COUNTER(COLL_COMM_PLANE);
    if (ctx->ni.dims != 3u || ctx->ni.size[0] * ctx->ni.size[1] > COLL_COMM_MAX_SIZE || !counter_free(ctx, counter))
        return COLL_EARG;
    comm->dim = (uint8_t)COLL_COMM_PLANE;
    comm->span = 3u;
    comm->line = 1u + COLL_COMM_PLANE;
    comm->block[0] = comm->block[1] = 0;
    comm->size = ctx->ni.size[0] * ctx->ni.size[1];
    comm->rank = ctx->ni.coord[0] + ctx->ni.size[0] * ctx->ni.coord[1];
    comm->stride = 1u;   /* node ids x + X*y + X*Y*z: the plane's ranks are its nodes from the first */
    comm->first = ctx->ni.node - comm->rank;
    comm->counter = (uint8_t)counter;
    signal_lists(ctx, comm);
    return COLL_OK;
}

int coll_comm_block(const coll_ctx *ctx, unsigned bx, unsigned by, coll_comm *comm)
{
    if (!ctx || !ctx->initialised || !comm)
        return COLL_ENI;
    const uint32_t counter = COLL_COMM_COUNTER(COLL_COMM_BLOCK);
    if (ctx->ni.dims != 2u || bx < 2u || by < 2u || bx > SCHED_BLOCK_MAX_SIDE || by > SCHED_BLOCK_MAX_SIDE ||
        ctx->ni.size[0] % bx || ctx->ni.size[1] % by || bx * by > COLL_COMM_MAX_SIZE || !counter_free(ctx, counter))
        return COLL_EARG;
    comm->dim = (uint8_t)COLL_COMM_BLOCK;
    comm->span = 3u;
    comm->line = SCHED_LINE_BLOCK(bx, by);
    comm->block[0] = (uint8_t)bx;
    comm->block[1] = (uint8_t)by;
    comm->size = bx * by;
    comm->rank = ctx->ni.coord[0] % bx + bx * (ctx->ni.coord[1] % by);
    comm->stride = 0;   /* ranks are not evenly apart: x % bx + bx * (y % by) */
    comm->first = ctx->ni.node - ctx->ni.coord[0] % bx - ctx->ni.size[0] * (ctx->ni.coord[1] % by);
    comm->counter = (uint8_t)counter;
    signal_lists(ctx, comm);
    return COLL_OK;
}

int coll_comm_line(const coll_ctx *ctx, unsigned dim, coll_comm *comm)
{
    if (!ctx || !ctx->initialised || !comm)
        return COLL_ENI;
    if (ctx->ni.dims < 2u || ctx->ni.dims > 3u || dim >= ctx->ni.dims || ctx->ni.size[dim] > COLL_COMM_MAX_SIZE)
        return COLL_EARG;
    /* its counter: none of the machine's rounds', none of a port's (coll_internal.h) */
    const uint32_t counter = COLL_COMM_COUNTER(dim);
    if (!counter_free(ctx, counter))
        return COLL_EARG;
    comm->dim = (uint8_t)dim;
    comm->span = (uint8_t)(1u << dim);
    comm->line = (uint8_t)(1u + dim);
    comm->block[0] = comm->block[1] = 0;
    comm->size = ctx->ni.size[dim];
    comm->rank = ctx->ni.coord[dim];
    comm->stride = coll_dim_stride(ctx, dim);
    comm->first = ctx->ni.node - comm->rank * comm->stride;
    comm->counter = (uint8_t)counter;
    signal_lists(ctx, comm);
    return COLL_OK;
}

static unsigned signal_desc(const coll_ctx *ctx, const coll_comm *comm, uint32_t rank, struct ni_desc *d)
{
    int16_t hops[SCHED_MAX_DIMS] = {0, 0, 0};
    /* the member's offset in each dimension the communicator spans: a line's along it, a
     * plane's in x (rank % X) and y (rank / X) */
    int32_t delta[SCHED_MAX_DIMS] = {0, 0, 0};
    unsigned start = comm->dim;
    if (comm->dim == COLL_COMM_BLOCK) {
        const uint32_t bx = comm->block[0];
        delta[0] = (int32_t)(rank % bx) - (int32_t)(comm->rank % bx);
        delta[1] = (int32_t)(rank / bx) - (int32_t)(comm->rank / bx);
        start = 0;
    } else if (comm->dim == COLL_COMM_PLANE) {
        const uint32_t X = ctx->ni.size[0];
        delta[0] = (int32_t)(rank % X) - (int32_t)(comm->rank % X);
        delta[1] = (int32_t)(rank / X) - (int32_t)(comm->rank / X);
        start = 0;
    } else {
        delta[comm->dim] = (int32_t)rank - (int32_t)comm->rank;
    }
    for (unsigned k = 0; k < SCHED_MAX_DIMS; ++k) {
        const int32_t side = (int32_t)ctx->ni.size[k];
        /* the shorter way round a ring (a block's routes stay inside it) */
        if (ctx->ni.torus && k < ctx->ni.dims && comm->dim != COLL_COMM_BLOCK) {
            if (2 * delta[k] > side)
                delta[k] -= side;
            else if (2 * delta[k] < -side)
                delta[k] += side;
        }
        hops[k] = (int16_t)delta[k];
    }
    const int port = ni_port_for(hops[0], hops[1], hops[2], start);
    d->head = NOC_HEAD(hops[0], hops[1], hops[2], start, 62u);
    d->payload = 0;
    d->trigger = NI_NO_TRIGGER;
    d->put = NI_SIGNAL(comm->counter);
    return port < 0 ? 0u : (unsigned)port;
}

uint32_t coll_start_barrier_descs(const coll_ctx *ctx, const coll_comm *comm, const sched_table *t)
{
    if (!coll_wants_barrier(ctx, t))
        return 0;
    return comm ? comm->size - 1u : coll_barrier_descs(coll_barrier_rounds(ctx->ni.nodes));
}
