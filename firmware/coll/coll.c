/* rvmesh collectives: the table-driven engine behind coll.h (see there for the contract). */
#include "coll.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "coll_jobs.h"
#include "rvmesh_rt.h"
#include "sched_coll.h"

/* ---- decoded records (in the caller's workspace) ---- */
typedef struct {
    uint32_t src;          /* sender's node id */
    uint32_t piece;
    uint32_t *dst;         /* where the payload goes: the result buffer or a transit slot */
    uint16_t step;
    uint8_t port;
    uint8_t done;
} coll_rx_desc;

#define COLL_NO_NEXT 0xffffu
typedef struct {
    uint32_t head;         /* NOC_HEAD of the worm */
    uint32_t piece;
    const uint32_t *src;   /* the piece's words: send buffer, result buffer or transit slot */
    uint16_t step;
    uint16_t next;         /* the next send on the same port, or COLL_NO_NEXT */
} coll_tx_desc;

_Static_assert(sizeof(coll_rx_desc) == 16, "receive descriptor is 16 bytes");
_Static_assert(sizeof(coll_tx_desc) == 16, "send descriptor is 16 bytes");
#define COLL_DESC_BYTES 16u
/* Pieces of the start barrier's tokens (table pieces are far below): COLL_BARRIER_PIECE |
 * (call number & 0xff) << 8 | round. The call number tells a token of the next call, sent
 * by a node that has finished this one, from one of this call. */
#define COLL_BARRIER_PIECE 0xffff0000u
#define COLL_BARRIER_TOKEN(call, round) (COLL_BARRIER_PIECE | ((call) & 0xffu) << 8 | (round))

/* What a call asks for, checked against the table before anything moves. */
typedef struct {
    const char *name;          /* "coll_bcast", ... for messages */
    uint32_t collective;       /* sched numbers */
    const uint8_t *send;
    uint32_t send_bytes;
    uint8_t *recv;
    uint32_t recv_bytes;
    uint32_t m;
    uint32_t root;
    int has_root;              /* the call names a root */
} coll_call;

/* What run_call hands the engine: the descriptors it decoded into the workspace. */
typedef struct {
    coll_rx_desc *rx;      /* receives, by step (the barrier's first) */
    coll_tx_desc *tx;      /* sends, chained per port from first_send */
    uint32_t nrecv;
    uint32_t nsteps;       /* barrier rounds + table steps */
    uint32_t rounds;       /* steps 1..rounds are the start barrier; table step s is rounds + s */
    uint32_t call;         /* this call's number (its barrier tokens carry it) */
    uint32_t words;        /* payload words per worm (barrier tokens carry one) */
    int use_dma;           /* payloads by the DMA engines (else by the core) */
    uint16_t first_send[NI_MAX_PORTS];
} coll_plan;

/* ---- messages ---- */
static void say(const coll_ctx *ctx, const char *fmt, ...)
{
    if (ctx->quiet)
        return;
    if (ctx->ni.dims == 3)
        printf("node (%u,%u,%u): ", ctx->ni.coord[0], ctx->ni.coord[1], ctx->ni.coord[2]);
    else
        printf("node (%u,%u): ", ctx->ni.coord[0], ctx->ni.coord[1]);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

const char *coll_strerror(int code)
{
    switch (code) {
    case COLL_OK: return "ok";
    case COLL_ENI: return "no network interface (or coll_init not called)";
    case COLL_EARG: return "null or misaligned pointer";
    case COLL_EROOT: return "root is not a node of this machine";
    case COLL_EROOT_TABLE: return "root differs from the table's root";
    case COLL_ESIZE: return "message size m must be a non-zero multiple of 4 * parts";
    case COLL_ESEND_SPACE: return "send buffer too small";
    case COLL_ERECV_SPACE: return "result buffer too small";
    case COLL_EWORKSPACE: return "workspace too small";
    case COLL_ESHAPE: return "table built for another machine shape";
    case COLL_ENODE: return "table belongs to another node";
    case COLL_ETABLE: return "table damaged or inconsistent";
    case COLL_ECOLLECTIVE: return "table is for another collective";
    case COLL_EUNEXPECTED: return "unexpected worm (duplicate or stray)";
    case COLL_EWORM: return "malformed worm";
    case COLL_EREFUSED: return "a worm was refused by the network interface";
    case COLL_ETIMEOUT: return "timed out waiting for the network";
    case COLL_EDMA: return "the network interface refused a DMA start";
    }
    return "unknown collectives error";
}

static const char *coll_name(uint32_t collective)
{
    switch (collective) {
    case 1u: return "bcast";
    case 2u: return "scatter";
    case 3u: return "gather";
    case 16u: return "allgather";
    case 17u: return "alltoall";
    case 18u: return "partial allgather";
    case 19u: return "partial alltoall";
    }
    return "unknown";
}

/* ---- setup ---- */
int coll_init(coll_ctx *ctx, void *workspace, uint32_t workspace_bytes)
{
    memset(ctx, 0, sizeof *ctx);
    if (ni_init(&ctx->ni) != NI_OK)
        return COLL_ENI;
    if (((uintptr_t)workspace & 3u) != 0 || (!workspace && workspace_bytes))
        return COLL_EARG;
    ctx->shape.dims = ctx->ni.dims;
    ctx->shape.torus = ctx->ni.torus;
    for (unsigned d = 0; d < SCHED_MAX_DIMS; ++d)
        ctx->shape.side[d] = d < ctx->ni.dims ? ctx->ni.size[d] : 1u;
    ctx->workspace = workspace;
    ctx->workspace_bytes = workspace_bytes;
    ctx->use_dma = (uint8_t)ni_has_dma();
    ctx->initialised = 1;
    return COLL_OK;
}

static int map_table_error(int rc)
{
    switch (rc) {
    case SCHED_TABLE_OK: return COLL_OK;
    case SCHED_TABLE_ERR_SHAPE: return COLL_ESHAPE;
    case SCHED_TABLE_ERR_NODE: return COLL_ENODE;
    }
    return COLL_ETABLE;
}

int coll_open_table(coll_ctx *ctx, const void *table_bytes, uint32_t len, sched_table *table)
{
    if (!ctx || !ctx->initialised)
        return COLL_ENI;
    if (!table_bytes || !table) {
        say(ctx, "coll_open_table: null table pointer");
        return COLL_EARG;
    }
    int rc = sched_table_open(table_bytes, len, &ctx->shape, ctx->ni.node, table);
    if (rc == SCHED_TABLE_ERR_SHAPE)
        say(ctx, "coll_open_table: table built for a %ux%ux%u %s, this machine is a %ux%ux%u %s: "
                 "regenerate it for this shape", table->shape.side[0], table->shape.side[1],
            table->shape.side[2], table->shape.torus ? "torus" : "mesh", ctx->shape.side[0], ctx->shape.side[1],
            ctx->shape.side[2], ctx->shape.torus ? "torus" : "mesh");
    else if (rc == SCHED_TABLE_ERR_NODE)
        say(ctx, "coll_open_table: table of node %lu, this is node %u", (unsigned long)table->node, ctx->ni.node);
    else if (rc != SCHED_TABLE_OK)
        say(ctx, "coll_open_table: %s", sched_table_strerror(rc));
    return map_table_error(rc);
}

static uint32_t nodes_of(const coll_ctx *ctx) { return ctx->ni.nodes; }

static int is_exchange(uint32_t collective) { return collective == 17u || collective == 19u; }

/* the node that starts with block b */
static uint32_t block_owner(uint32_t collective, uint32_t nodes, uint32_t root, uint32_t block)
{
    if (collective == 1u || collective == 2u)
        return root;
    return is_exchange(collective) ? block / nodes : block;
}

/* where block b lies in its owner's send buffer */
static uint32_t send_offset(uint32_t collective, uint32_t nodes, uint32_t block, uint32_t m)
{
    if (collective == 2u)
        return block * m;
    if (is_exchange(collective))
        return (block % nodes) * m;
    return 0;
}

int coll_node_has_data(const coll_ctx *ctx, const sched_table *t)
{
    const uint32_t node = ctx->ni.node, nodes = nodes_of(ctx);
    switch (t->collective) {
    case 1u:
    case 2u:
        return node == t->root;
    case 3u:
    case 16u:
    case 17u:
        return 1;
    case 18u:
    case 19u: {
        uint32_t parts = coll_parts(t->algo, t->shape.dims);
        for (uint32_t i = 0; i < t->nsend; ++i) {
            sched_table_send s;
            sched_table_get_send(t, i, &s);
            if (block_owner(t->collective, nodes, t->root, s.piece / parts) == node)
                return 1;
        }
        return 0;
    }
    }
    return 0;
}

uint32_t coll_send_bytes(const coll_ctx *ctx, const sched_table *t, uint32_t m)
{
    if (!coll_node_has_data(ctx, t))
        return t->collective == 1u ? m : 0u;
    if (t->collective == 2u || is_exchange(t->collective))
        return nodes_of(ctx) * m;
    return m;
}

uint32_t coll_recv_bytes(const coll_ctx *ctx, const sched_table *t, uint32_t m)
{
    return coll_result_bytes(t->collective, nodes_of(ctx), t->root, ctx->ni.node, m);
}

/* A receive whose piece stays here only to be sent on: marked transit, or a piece of a block
 * the node's result does not hold (the relays of scatter and gather trees). */
static int recv_is_transit(const coll_ctx *ctx, const sched_table *t, const sched_table_recv *r, uint32_t parts,
                           uint32_t m)
{
    if (r->flags & SCHED_MSG_TRANSIT)
        return 1;
    return coll_result_offset(t->collective, nodes_of(ctx), t->root, ctx->ni.node, r->piece / parts, m) ==
           UINT32_MAX;
}

/* rounds of the start barrier: ceil(log2 N) with ctx->sync_start, else 0 */
static uint32_t barrier_rounds(const coll_ctx *ctx)
{
    uint32_t rounds = 0;
    if (ctx->sync_start)
        while ((1u << rounds) < ctx->ni.nodes)
            ++rounds;
    return rounds;
}

uint32_t coll_workspace_bytes(const coll_ctx *ctx, const sched_table *t, uint32_t m)
{
    uint32_t parts = coll_parts(t->algo, t->shape.dims);
    if (m == 0 || m % (4u * parts) != 0)
        return 0;
    uint32_t transit = 0;
    for (uint32_t i = 0; i < t->nrecv; ++i) {
        sched_table_recv r;
        sched_table_get_recv(t, i, &r);
        transit += (uint32_t)recv_is_transit(ctx, t, &r, parts, m);
    }
    const uint32_t rounds = barrier_rounds(ctx);
    return COLL_DESC_BYTES * ((uint32_t)t->nsend + t->nrecv + 2u * rounds) + (rounds ? 4u : 0u) +
           transit * (m / parts);
}

/* Is [p, p + bytes) word-aligned RAM (what the NI's DMA engines accept)? Empty is. */
static int in_ram(const void *p, uint32_t bytes)
{
    const uintptr_t a = (uintptr_t)p;
    return bytes == 0 || ((a & 3u) == 0 && a >= RVMESH_RAM_BASE && bytes <= RVMESH_RAM_BYTES &&
                          a - RVMESH_RAM_BASE <= RVMESH_RAM_BYTES - bytes);
}

static void copy_words(uint32_t *dst, const uint32_t *src, uint32_t bytes)
{
    for (uint32_t i = 0; i < bytes / 4u; ++i)
        dst[i] = src[i];
}

/* Does a route of these hops from this node stay inside the machine (what the NI checks)? */
static int route_ok(const coll_ctx *ctx, const int16_t hops[SCHED_MAX_DIMS])
{
    uint32_t moved = 0;
    for (unsigned d = 0; d < SCHED_MAX_DIMS; ++d) {
        int32_t h = hops[d];
        if (h == 0)
            continue;
        if (d >= ctx->ni.dims || h > 127 || h < -127)
            return 0;
        int32_t side = ctx->ni.size[d], at = (int32_t)ctx->ni.coord[d] + h;
        if (ctx->ni.torus ? (h >= side || -h >= side) : (at < 0 || at >= side))
            return 0;
        moved = 1;
    }
    return (int)moved;
}

/* ---- the engine ----
 * A call runs steps 1 .. nsteps: the start barrier's rounds, then the table's steps. A node
 * goes on to step s + 1 as soon as every receive of step s is done; the sends of a port go
 * out one after the other in table order, each as soon as its step has come and the port's
 * TX queue is empty. A worm is matched to a pending receive by its sender and piece, whatever
 * its step (a neighbour may be ahead).
 *
 * The loop polls three registers: DMA_STATUS (engines that have stopped), TX_STATUS (queues
 * that have emptied, for sends waiting to start or being written by the core) and RX_AVAIL
 * (ports with a flit for the core). A TX queue is written only when TX_STATUS says it is
 * empty (INJ_DEPTH places, no need to ask per flit) and an RX flit is popped only after
 * PORT_STATUS says it is there, so the core never stalls in the NI while another port could
 * move: that is what keeps all nodes sending at once free of deadlock. The state is a few
 * masks (a bit per port) that the compiler keeps in registers, so that a round with nothing
 * to do costs about 20 instructions. Measured on the 4x4 torus (mesh-sim --pc-trace): a
 * step's critical path is about 150 instructions from the last receive of a step to the
 * next step's worm in its TX queue, and about 100 to take in a worm (head, info, piece,
 * match, DMA start, completion); a round of the start barrier takes about 450 cycles. */
enum { RX_HEAD, RX_INFO, RX_PIECE, RX_BODY, RX_DMA, RX_DRAIN };
/* The engine's helpers are inlined into engine_run, whose state (coll_engine) then never
 * leaves it: the compiler keeps the step, the masks and the counters in registers. */
#define COLL_HOT __attribute__((always_inline))
#ifndef COLL_RX_BURST
#define COLL_RX_BURST 32u   /* payload flits the core reads from one port before looking at the others */
#endif
#ifndef COLL_TX_BURST
#define COLL_TX_BURST 32u   /* payload flits the core writes on one port before looking at the others */
#endif
#define COLL_RX_CORE_WORDS 2u /* payloads this short are read by the core even with DMA */

typedef struct {
    uint32_t *dst;         /* the core's next payload word (RX_BODY) */
    uint32_t *last;        /* the worm's last payload word */
    coll_rx_desc *rec;     /* the receive the worm belongs to */
    uint32_t src;          /* from the worm's info flit */
    uint32_t flits;
    uint32_t tag;          /* from its head */
    uint32_t phase;        /* RX_HEAD .. RX_DRAIN */
} coll_rx_port;

typedef struct {
    const uint32_t *word;  /* the core's next payload word */
    const uint32_t *last;  /* the last one (goes through TX_LAST) */
    uint32_t hdr_left;     /* header flits (head, info, piece) still to write */
    uint16_t cur;          /* the send being started or written, or COLL_NO_NEXT */
    uint16_t next;         /* the next send on this port, or COLL_NO_NEXT */
    uint32_t due;          /* the step of `next` (UINT32_MAX: none) */
} coll_tx_port;

typedef struct {
    coll_ctx *ctx;
    coll_rx_desc *rx;
    coll_tx_desc *tx;
    uint32_t nrecv, nsteps;
    uint32_t rounds;       /* steps 1..rounds are the start barrier; table step s is rounds + s */
    uint32_t call;         /* this call's number (its barrier tokens carry it) */
    uint32_t words;        /* payload words per worm (barrier tokens carry one) */
    uint32_t info, info_token; /* the info flits of this node's worms and tokens */
    uint32_t inj_depth;    /* flits an empty TX queue takes */
    uint32_t step;         /* the step this node is in */
    uint32_t first_pending;
    /* a bit per port: */
    uint32_t tx_later;     /* no send going; the next one is of a later step */
    uint32_t later_step;   /* the earliest step of those next sends (UINT32_MAX: none) */
    uint32_t tx_ready;     /* send `cur` may start: waits for an empty queue */
    uint32_t tx_dma;       /* the TX engine sends the payload of `cur` */
    uint32_t tx_core;      /* the core writes `cur` (header or payload), a queueful at a time */
    uint32_t tx_used;      /* written at all */
    uint32_t rx_dma;       /* the RX engine reads a payload */
    int use_dma;
    uint32_t flits_in, flits_out;
    int error;             /* first worm error (COLL_EUNEXPECTED, COLL_EWORM) */
    coll_rx_port rxp[NI_MAX_PORTS];
    coll_tx_port txp[NI_MAX_PORTS];
} coll_engine;

/* -DCOLL_PROFILE: counters of the engine's rounds, port visits and payload flits (for
 * tuning; a program reads them through `extern struct coll_profile coll_prof`). */
#ifdef COLL_PROFILE
struct coll_profile { uint32_t rounds, idle, tx_visits, rx_visits, rx_flits, tx_flits, cycles, instret; } coll_prof;
#define PROF(x) (coll_prof.x)
#else
#define PROF(x) ((void)0)
#endif

/* payload words of the worm carrying `piece` (barrier tokens carry one word) */
static inline COLL_HOT uint32_t worm_words(const coll_engine *e, uint32_t piece)
{
    return piece >= COLL_BARRIER_PIECE ? 1u : e->words;
}

/* the table's step number of an engine step (0: the start barrier) */
static inline COLL_HOT uint32_t table_step(const coll_engine *e, uint32_t step)
{
    return step > e->rounds ? step - e->rounds : 0u;
}

/* Port p has no send going: its next send becomes ready if its step has come, else it
 * waits (tx_later) for step `due`. */
static inline COLL_HOT void tx_next(coll_engine *e, unsigned p)
{
    coll_tx_port *t = &e->txp[p];
    const uint32_t bit = 1u << p;
    if (t->due > e->step) {
        t->cur = COLL_NO_NEXT;
        if (t->next != COLL_NO_NEXT) {
            e->tx_later |= bit;
            if (t->due < e->later_step)
                e->later_step = t->due;
        }
        return;
    }
    const uint32_t i = t->next;
    t->cur = (uint16_t)i;
    t->next = e->tx[i].next;
    t->due = t->next == COLL_NO_NEXT ? UINT32_MAX : e->tx[t->next].step;
    e->tx_later &= ~bit;
    e->tx_ready |= bit;
}

/* Port p's send `cur` is in its TX queue (the last flit written): on to the next. */
static inline COLL_HOT void tx_done(coll_engine *e, unsigned p)
{
    e->flits_out += worm_words(e, e->tx[e->txp[p].cur].piece) + 3u;
    tx_next(e, p);
}

/* The core writes port p's send into its empty TX queue: what is left of the header, then
 * hands the payload to the TX engine (DMA), or writes payload words itself: the queue's free
 * places, then four at a time while the queue empties again, a burst at most. */
static inline COLL_HOT void tx_write(coll_engine *e, unsigned p)
{
    coll_tx_port *t = &e->txp[p];
    const coll_tx_desc *d = &e->tx[t->cur];
    const uint32_t bit = 1u << p;
    volatile uint32_t *const tx_data = &NI_REG(NI_TX_DATA(p));
    uint32_t free = e->inj_depth;                       /* called on an empty queue */
    for (; t->hdr_left && free; --t->hdr_left, --free)
        *tx_data = t->hdr_left == 3u ? d->head
                 : t->hdr_left == 2u ? (d->piece >= COLL_BARRIER_PIECE ? e->info_token : e->info)
                                     : d->piece;
    if (t->hdr_left)
        return;                                         /* the rest of the header next time */
    const uint32_t *w = t->word, *const last = t->last;
    const uint32_t left = (uint32_t)(last - w) + 1u;
    if (e->use_dma && left > free) {                    /* the payload by the port's TX engine */
        NI_REG(NI_TX_DMA_ADDR(p)) = (uint32_t)(uintptr_t)w;
        NI_REG(NI_TX_DMA_COUNT(p)) = left | NI_DMA_LAST;
        e->tx_core &= ~bit;
        e->tx_dma |= bit;
        return;
    }
    const uint32_t *const stop = left > COLL_TX_BURST ? w + COLL_TX_BURST : last;
    for (; free && w != stop; --free)
        *tx_data = *w++;
    volatile uint32_t *const status_reg = &NI_REG(NI_PORT_STATUS(p));
    while (stop - w >= 4 && e->inj_depth >= 4u && (*status_reg & NI_PS_TX_IDLE)) {
        uint32_t a = w[0], b = w[1], c = w[2], x = w[3];  /* loads first: the stores go back to back */
        *tx_data = a;
        *tx_data = b;
        *tx_data = c;
        *tx_data = x;
        w += 4;
        free = 0;
    }
    PROF(tx_flits += (uint32_t)(w - t->word));
    t->word = w;
    if (w != last)
        return;                                         /* the queue is full, or the burst done */
    if (!free) {
        const uint32_t status = *status_reg;
        if (!(status & (NI_PS_TX_IDLE | NI_PS_TX_READY)))
            return;
    }
    NI_REG(NI_TX_LAST(p)) = *w;                         /* the worm's last flit */
    e->tx_core &= ~bit;
    tx_done(e, p);
}

/* Port p's send `cur` starts (tx_write goes on with it): its TX queue is empty. */
static inline COLL_HOT void tx_begin(coll_engine *e, unsigned p)
{
    coll_tx_port *t = &e->txp[p];
    const coll_tx_desc *d = &e->tx[t->cur];
    const uint32_t bit = 1u << p;
    t->hdr_left = 3;
    t->word = d->src;
    t->last = d->src + worm_words(e, d->piece) - 1u;
    e->tx_ready &= ~bit;
    e->tx_core |= bit;
    e->tx_used |= bit;
}

static inline COLL_HOT void advance_pending(coll_engine *e)
{
    while (e->first_pending < e->nrecv && e->rx[e->first_pending].done)
        ++e->first_pending;
}

/* the pending receive a worm (source, piece) belongs to, or 0 */
static inline COLL_HOT coll_rx_desc *match(coll_engine *e, uint32_t src, uint32_t piece)
{
    coll_rx_desc *r = &e->rx[e->first_pending], *const end = &e->rx[e->nrecv];
    for (; r != end; ++r)
        if (r->piece == piece && r->src == src && !r->done)
            return r;
    return 0;
}

/* A start-barrier token of the next call (a node that has finished this call has entered
 * the next one): noted in ctx->early_tokens for that call's barrier. (ctx->calls already
 * counts this call, so it is the next call's number.) */
static inline COLL_HOT int early_token(coll_engine *e, uint32_t src, uint32_t piece, uint32_t flits)
{
    coll_ctx *ctx = e->ctx;
    const uint32_t round = piece & 0xffu, nodes = ctx->ni.nodes;
    if (!ctx->sync_start || flits != 4u || round == 0 || round > 31u ||
        piece != COLL_BARRIER_TOKEN(ctx->calls, round))
        return 0;
    const uint32_t dist = (1u << (round - 1u)) % nodes;
    if (src != (ctx->ni.node + nodes - dist) % nodes || (ctx->early_tokens >> (round - 1u)) & 1u)
        return 0;
    ctx->early_tokens |= 1u << (round - 1u);
    return 1;
}

/* A start-barrier token of an earlier call that never got past its barrier (a node refused
 * that call, and the others timed out waiting): harmless, dropped and counted. Nothing
 * else can be left over from such a call: no node starts the schedule proper before every
 * node has entered the call. */
static inline COLL_HOT int stale_token(coll_engine *e, uint32_t piece, uint32_t flits)
{
    coll_ctx *ctx = e->ctx;
    if (!ctx->sync_start || flits != 4u || (piece & COLL_BARRIER_PIECE) != COLL_BARRIER_PIECE)
        return 0;
    const uint32_t call = (piece >> 8) & 0xffu;
    if (call == (e->call & 0xffu) || call == (ctx->calls & 0xffu))
        return 0;                       /* this call's (a duplicate) or the next one's */
    ++ctx->stale_tokens;
    return 1;
}

static inline COLL_HOT void worm_error(coll_engine *e, int code)
{
    if (e->error == COLL_OK)
        e->error = code;
}

/* A receive is complete: its payload is where it belongs. */
static inline COLL_HOT void rx_complete(coll_engine *e, coll_rx_port *r)
{
    r->rec->done = 1;
    e->flits_in += (uint32_t)(r->last - r->rec->dst) + 4u;
    if (r->rec == &e->rx[e->first_pending])
        advance_pending(e);
    r->phase = RX_HEAD;
}

/* The piece flit of a worm from r->src: find its receive and hand the payload to the RX
 * engine (or to the core: short payloads, no DMA); a worm that belongs nowhere is drained.
 * Returns the next phase. */
static inline COLL_HOT uint32_t rx_piece(coll_engine *e, unsigned p, uint32_t piece, int last)
{
    coll_rx_port *r = &e->rxp[p];
    coll_rx_desc *rec = match(e, r->src, piece);
    if (!rec) {
        if (early_token(e, r->src, piece, r->flits) || stale_token(e, piece, r->flits))
            return last ? RX_HEAD : RX_DRAIN;          /* early: a bit in ctx->early_tokens */
        say(e->ctx, "unexpected worm from node %lu piece %lu in step %lu (its tag says step %lu)",
            (unsigned long)r->src, (unsigned long)piece, (unsigned long)table_step(e, e->step), (unsigned long)r->tag);
        if (e->ctx->err_step == 0) {
            e->ctx->err_src = r->src;
            e->ctx->err_step = table_step(e, e->step) ? table_step(e, e->step) : 1u;
            e->ctx->err_piece = piece;
        }
        worm_error(e, COLL_EUNEXPECTED);
        return last ? RX_HEAD : RX_DRAIN;
    }
    const uint32_t words = worm_words(e, piece);
    if (last || r->flits != words + 3u) {
        say(e->ctx, "port %u: worm from node %lu piece %lu of %lu flits in step %lu, want %lu", p,
            (unsigned long)r->src, (unsigned long)piece, (unsigned long)r->flits,
            (unsigned long)table_step(e, e->step), (unsigned long)(words + 3u));
        worm_error(e, COLL_EWORM);
        return last ? RX_HEAD : RX_DRAIN;
    }
    r->rec = rec;
    r->dst = rec->dst;
    r->last = rec->dst + words - 1u;
    if (e->use_dma && words > COLL_RX_CORE_WORDS) {     /* the payload by the port's RX engine */
        NI_REG(NI_RX_DMA_ADDR(p)) = (uint32_t)(uintptr_t)rec->dst;
        NI_REG(NI_RX_DMA_COUNT(p)) = words;
        e->rx_dma |= 1u << p;
        return RX_DMA;
    }
    return RX_BODY;
}

/* Reads the flits waiting on port p while they are there: a worm's head, info and piece
 * flits, its payload (when the core moves it: a burst at most), or a worm being drained. */
static inline COLL_HOT void rx_read(coll_engine *e, unsigned p)
{
    coll_rx_port *r = &e->rxp[p];
    volatile uint32_t *const status_reg = &NI_REG(NI_PORT_STATUS(p));
    volatile uint32_t *const rx_data = &NI_REG(NI_RX_DATA(p));
    for (uint32_t status = *status_reg; status & NI_PS_RX_VALID; status = *status_reg) {
        if (r->phase == RX_BODY && r->dst != r->last) {  /* payload words but the last, a burst */
            uint32_t *dst = r->dst, *const last = r->last;
            uint32_t *const stop = (uint32_t)(last - dst) > COLL_RX_BURST ? dst + COLL_RX_BURST : last;
            while (dst != stop && (status & (NI_PS_RX_VALID | NI_PS_RX_LAST)) == NI_PS_RX_VALID) {
                *dst++ = *rx_data;
                status = *status_reg;
            }
            PROF(rx_flits += (uint32_t)(dst - r->dst));
            r->dst = dst;
            if (dst == last)
                continue;                               /* the last word: below */
            if ((status & (NI_PS_RX_VALID | NI_PS_RX_LAST)) != (NI_PS_RX_VALID | NI_PS_RX_LAST))
                return;                                 /* no flit yet, or the other ports' turn */
            (void)*rx_data;                             /* the worm ends early */
            say(e->ctx, "port %u: worm from node %lu shorter than its info flit says", p, (unsigned long)r->src);
            worm_error(e, COLL_EWORM);
            r->phase = RX_HEAD;
            continue;
        }
        const uint32_t word = *rx_data;
        const int last = (status & NI_PS_RX_LAST) != 0;
        switch (r->phase) {
        case RX_HEAD:
            r->tag = NOC_HEAD_TAG(word);
            if (!(status & NI_PS_RX_HEAD)) {
                say(e->ctx, "port %u: a worm's flit without its head in step %lu", p,
                    (unsigned long)table_step(e, e->step));
                worm_error(e, COLL_EWORM);
                r->phase = last ? RX_HEAD : RX_DRAIN;
            } else if (last) {
                say(e->ctx, "port %u: a one-flit worm in step %lu", p, (unsigned long)table_step(e, e->step));
                worm_error(e, COLL_EWORM);
            } else {
                r->phase = RX_INFO;
            }
            continue;
        case RX_INFO:
            r->src = NOC_INFO_SOURCE(word);
            r->flits = NOC_INFO_FLITS(word);
            if (last || r->flits < 4u) {
                say(e->ctx, "port %u: worm from node %lu of %lu flits in step %lu", p, (unsigned long)r->src,
                    (unsigned long)r->flits, (unsigned long)table_step(e, e->step));
                worm_error(e, COLL_EWORM);
                r->phase = last ? RX_HEAD : RX_DRAIN;
            } else {
                r->phase = RX_PIECE;
            }
            continue;
        case RX_PIECE:
            r->phase = rx_piece(e, p, word, last);
            if (r->phase == RX_DMA)
                return;                                 /* RX_AVAIL hides the port until it stops */
            continue;
        case RX_BODY:                                   /* the last payload word */
            *r->dst = word;
            if (last) {
                rx_complete(e, r);
            } else {
                say(e->ctx, "port %u: worm from node %lu longer than its info flit says", p, (unsigned long)r->src);
                worm_error(e, COLL_EWORM);
                r->phase = RX_DRAIN;
            }
            continue;
        default:                                        /* RX_DRAIN (RX_DMA hides the port) */
            if (last)
                r->phase = RX_HEAD;
            continue;
        }
    }
}

/* Port p's RX engine has stopped: the worm is complete if the engine moved the whole
 * payload and stopped at the worm's last flit. */
static inline COLL_HOT void rx_dma_done(coll_engine *e, unsigned p, uint32_t dma_status)
{
    coll_rx_port *r = &e->rxp[p];
    const uint32_t left = NI_REG(NI_RX_DMA_COUNT(p));
    const int ended = (dma_status & NI_DMA_RX_ENDED(p)) != 0;
    if (left == 0 && ended) {
        rx_complete(e, r);
        return;
    }
    say(e->ctx, "port %u: worm from node %lu %s than its info flit says", p, (unsigned long)r->src,
        left ? "shorter" : "longer");
    worm_error(e, COLL_EWORM);
    r->phase = ended ? RX_HEAD : RX_DRAIN;
}

/* What a timed-out call was waiting for (steps as the engine numbers them: rounds first). */
static __attribute__((noinline)) void report_stuck(coll_ctx *ctx, const coll_rx_desc *rx, uint32_t first_pending,
                                                   uint32_t nrecv, uint32_t step, uint32_t rounds,
                                                   uint32_t sending, uint32_t tx_used)
{
    unsigned shown = 0;
    for (uint32_t i = first_pending; i < nrecv && shown < 3; ++i)
        if (!rx[i].done) {
            if (rx[i].piece >= COLL_BARRIER_PIECE)
                say(ctx, "timeout in the start barrier: still waiting for node %lu's round-%lu token (has every "
                    "node made this call?)", (unsigned long)rx[i].src, (unsigned long)(rx[i].piece & 0xffu));
            else
                say(ctx, "timeout in step %lu: still waiting for piece %lu from node %lu (step %u)",
                    (unsigned long)(step > rounds ? step - rounds : 0u), (unsigned long)rx[i].piece,
                    (unsigned long)rx[i].src, (unsigned)(rx[i].step - rounds));
            ++shown;
        }
    if (sending)
        say(ctx, "timeout in step %lu: sends still being written on ports 0x%lx",
            (unsigned long)(step > rounds ? step - rounds : 0u), (unsigned long)sending);
    else if (!shown)
        say(ctx, "timeout: worms of ours still in the TX queues (ports 0x%lx)", (unsigned long)tx_used);
}

/* A DMA start was refused (DMA_ERROR): run_call hands the engines only RAM it checked, so
 * this is the NI's word against ours; say which engines and give up. */
static __attribute__((noinline)) int dma_refused(coll_ctx *ctx, uint32_t table_step_now)
{
    const uint32_t refused = ni_dma_errors();
    ni_dma_clear_errors(refused);
    say(ctx, "the network interface refused DMA starts (DMA_ERROR 0x%lx) in step %lu", (unsigned long)refused,
        (unsigned long)table_step_now);
    return COLL_EDMA;
}

/* Runs the plan's steps: one loop that goes on to the next step as soon as every receive of
 * this one is done (readying its sends), and otherwise serves every port that can move. */
static __attribute__((noinline)) int engine_run(coll_ctx *const ctx, const coll_plan *plan)
{
    coll_engine engine;
    coll_engine *const e = &engine;
    memset(e, 0, sizeof *e);
    e->ctx = ctx;
    e->rx = plan->rx;
    e->tx = plan->tx;
    e->nrecv = plan->nrecv;
    e->nsteps = plan->nsteps;
    e->rounds = plan->rounds;
    e->call = plan->call;
    e->words = plan->words;
    e->use_dma = plan->use_dma;
    for (unsigned p = 0; p < NI_MAX_PORTS; ++p)
        e->txp[p].next = plan->first_send[p];
    e->inj_depth = (NI_REG(NI_PORTS) >> 16) & 0xffu;
    if (e->inj_depth == 0)
        e->inj_depth = 1;
    e->info = NOC_INFO(ctx->ni.node, e->words + 3u);
    e->info_token = NOC_INFO(ctx->ni.node, 4u);
    e->later_step = UINT32_MAX;
    for (unsigned p = 0; p < ctx->ni.ports; ++p) {
        coll_tx_port *t = &e->txp[p];
        e->rxp[p].phase = RX_HEAD;
        t->cur = COLL_NO_NEXT;
        t->due = UINT32_MAX;
        if (t->next != COLL_NO_NEXT) {
            t->due = e->tx[t->next].step;
            e->tx_later |= 1u << p;
            if (t->due < e->later_step)
                e->later_step = t->due;
        }
    }
    uint32_t idle_rounds = 0, idle_since = 0;
    int received_all = 0;
    advance_pending(e);
    PROF(cycles -= RVMESH_CSR_READ(mcycle));
    PROF(instret -= RVMESH_CSR_READ(minstret));
    e->step = 0;
    for (;;) {
        /* the steps whose receives are all done: go on, and ready the next step's sends */
        if (!received_all && (e->first_pending >= e->nrecv || e->rx[e->first_pending].step > e->step)) {
            do {
                if (e->step == e->nsteps) {
                    received_all = 1;
                    break;
                }
                ++e->step;
                if (e->step == e->rounds + 1u)
                    ctx->start_cycle = RVMESH_CSR_READ(mcycle);
            } while (e->first_pending >= e->nrecv || e->rx[e->first_pending].step > e->step);
            if (e->step >= e->later_step) {           /* some port's next send is due */
                uint32_t soonest = UINT32_MAX;
                for (uint32_t later = e->tx_later, p = 0; later; ++p, later >>= 1)
                    if (later & 1u) {
                        if (e->txp[p].due <= e->step)
                            tx_next(e, p);
                        else if (e->txp[p].due < soonest)
                            soonest = e->txp[p].due;
                    }
                e->later_step = soonest;
            }
        }
        const uint32_t sending = e->tx_ready | e->tx_core | e->tx_dma | e->tx_later;
        if (received_all && !sending) {
            /* every worm written has entered the network (or been refused) */
            if (((NI_REG(NI_TX_STATUS) >> 8) & e->tx_used) == e->tx_used)
                break;
        }
        uint32_t moved = 0;
        if (e->tx_dma | e->rx_dma) {                   /* engines that have stopped */
            const uint32_t dma = NI_REG(NI_DMA_STATUS);
            if (dma & NI_DMA_ERR)
                return dma_refused(ctx, table_step(e, e->step));
            uint32_t stopped = e->rx_dma & ~(dma >> 8);
            moved = stopped;
            e->rx_dma &= ~stopped;
            for (unsigned p = 0; stopped; ++p, stopped >>= 1)
                if (stopped & 1u)
                    rx_dma_done(e, p, dma);
            stopped = e->tx_dma & ~dma;
            moved |= stopped;
            e->tx_dma &= ~stopped;
            for (unsigned p = 0; stopped; ++p, stopped >>= 1)
                if (stopped & 1u)
                    tx_done(e, p);
        }
        if (e->tx_ready | e->tx_core) {                /* empty queues for sends to start or go on */
            uint32_t empty = (NI_REG(NI_TX_STATUS) >> 8) & (e->tx_ready | e->tx_core);
            moved |= empty;
            for (unsigned p = 0; empty; ++p, empty >>= 1)
                if (empty & 1u) {
                    PROF(tx_visits++);
                    if (e->tx_ready & (1u << p))
                        tx_begin(e, p);
                    tx_write(e, p);
                }
        }
        uint32_t avail = NI_REG(NI_RX_AVAIL) & 0xffu & ~e->rx_dma;   /* (an engine stopped since DMA_STATUS) */
        moved |= avail;
        for (unsigned p = 0; avail; ++p, avail >>= 1)
            if (avail & 1u) {
                PROF(rx_visits++);
                rx_read(e, p);
            }
        PROF(rounds++);
        if (moved) {
            idle_rounds = 0;
            continue;
        }
        PROF(idle++);
        if (idle_rounds++ == 0) {
            idle_since = RVMESH_CSR_READ(mcycle);
        } else if ((idle_rounds & 63u) == 0 && ctx->timeout_cycles &&
                   RVMESH_CSR_READ(mcycle) - idle_since > ctx->timeout_cycles) {
            report_stuck(ctx, e->rx, e->first_pending, e->nrecv, e->step, e->rounds,
                         e->tx_ready | e->tx_dma | e->tx_core, e->tx_used);
            return COLL_ETIMEOUT;
        }
    }
    if (e->nsteps == e->rounds)
        ctx->start_cycle = RVMESH_CSR_READ(mcycle);
    PROF(cycles += RVMESH_CSR_READ(mcycle));
    PROF(instret += RVMESH_CSR_READ(minstret));
    ctx->flits_sent = e->flits_out;
    ctx->flits_received = e->flits_in;
    uint32_t refused = ni_errors() & e->tx_used;
    if (refused) {
        ni_clear_errors(refused);
        say(ctx, "the network interface refused worms on ports 0x%lx", (unsigned long)refused);
        return COLL_EREFUSED;
    }
    return e->error;
}

/* ---- a call: checks, descriptors, own block, engine ---- */
/* a shortest route to node dst (torus: the shorter way round each ring); returns its port */
static unsigned route_to(const coll_ctx *ctx, uint32_t dst, int16_t hops[SCHED_MAX_DIMS])
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

/* appends send i to the chain of sends on its port */
static void chain_send(coll_plan *plan, uint32_t tail[NI_MAX_PORTS], unsigned port, uint32_t i)
{
    if (tail[port] == COLL_NO_NEXT)
        plan->first_send[port] = (uint16_t)i;
    else
        plan->tx[tail[port]].next = (uint16_t)i;
    tail[port] = i;
}

static int fail(coll_ctx *ctx, int code, const char *name, const char *fmt, ...)
{
    if (!ctx->quiet) {
        if (ctx->ni.dims == 3)
            printf("node (%u,%u,%u): %s: ", ctx->ni.coord[0], ctx->ni.coord[1], ctx->ni.coord[2], name);
        else
            printf("node (%u,%u): %s: ", ctx->ni.coord[0], ctx->ni.coord[1], name);
        va_list ap;
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf(" (%s)\n", coll_strerror(code));
    }
    return code;
}

static int run_call(coll_ctx *ctx, const sched_table *t, const coll_call *c)
{
    if (!ctx || !ctx->initialised)
        return COLL_ENI;
    const uint32_t call_start = RVMESH_CSR_READ(mcycle);
    /* Every call counts, also one refused below, so that the nodes number their barrier
     * tokens alike after it; the next call's tokens that came early are this call's. */
    const uint32_t call = ctx->calls, early = ctx->early_tokens;
    ctx->early_tokens = 0;
    if (ctx->sync_start)
        ++ctx->calls;
    ctx->err_src = ctx->err_step = ctx->err_piece = 0;
    ctx->flits_sent = ctx->flits_received = 0;
    ctx->start_cycle = 0;
    if (!t || !t->base)
        return fail(ctx, COLL_EARG, c->name, "no table (open it with coll_open_table)");
    const uint32_t node = ctx->ni.node, nodes = nodes_of(ctx);
    if (t->shape.dims != ctx->shape.dims || t->shape.torus != ctx->shape.torus ||
        t->shape.side[0] != ctx->shape.side[0] || t->shape.side[1] != ctx->shape.side[1] ||
        t->shape.side[2] != ctx->shape.side[2])
        return fail(ctx, COLL_ESHAPE, c->name, "table built for a %ux%ux%u %s", t->shape.side[0], t->shape.side[1],
                    t->shape.side[2], t->shape.torus ? "torus" : "mesh");
    if (t->node != node)
        return fail(ctx, COLL_ENODE, c->name, "table of node %lu, this is node %lu", (unsigned long)t->node,
                    (unsigned long)node);
    if (t->collective != c->collective)
        return fail(ctx, COLL_ECOLLECTIVE, c->name, "table is a %s schedule, not %s", coll_name(t->collective),
                    coll_name(c->collective));
    if (c->has_root) {
        if (c->root >= nodes)
            return fail(ctx, COLL_EROOT, c->name, "root %lu is off the machine (nodes 0..%lu)",
                        (unsigned long)c->root, (unsigned long)(nodes - 1u));
        if (c->root != t->root)
            return fail(ctx, COLL_EROOT_TABLE, c->name, "root %lu, but the table was built for root %lu",
                        (unsigned long)c->root, (unsigned long)t->root);
    }
    const uint32_t parts = coll_parts(t->algo, ctx->ni.dims), m = c->m;
    if (m == 0 || m % (4u * parts) != 0)
        return fail(ctx, COLL_ESIZE, c->name, "m = %lu bytes: must be a non-zero multiple of %lu", (unsigned long)m,
                    (unsigned long)(4u * parts));
    const uint32_t piece_bytes = m / parts, words = piece_bytes / 4u;
    if (words + 3u > 0xffffu || m > 0x1000000u)
        return fail(ctx, COLL_ESIZE, c->name, "m = %lu bytes: a piece does not fit in one worm", (unsigned long)m);

    /* buffers */
    const int owner = coll_node_has_data(ctx, t);
    const int bcast = c->collective == 1u;
    uint32_t need_send = bcast ? 0u : (owner ? coll_send_bytes(ctx, t, m) : 0u);
    uint32_t need_recv = coll_recv_bytes(ctx, t, m);
    if (need_send > c->send_bytes)
        return fail(ctx, COLL_ESEND_SPACE, c->name, "send buffer of %lu bytes, this %s needs %lu",
                    (unsigned long)c->send_bytes, coll_name(c->collective), (unsigned long)need_send);
    if (need_recv > c->recv_bytes)
        return fail(ctx, COLL_ERECV_SPACE, c->name, "%s buffer of %lu bytes, this %s needs %lu",
                    bcast ? "the" : "result", (unsigned long)c->recv_bytes, coll_name(c->collective),
                    (unsigned long)need_recv);
    if ((need_send && (!c->send || ((uintptr_t)c->send & 3u))) ||
        (need_recv && (!c->recv || ((uintptr_t)c->recv & 3u))))
        return fail(ctx, COLL_EARG, c->name, "buffers must be word aligned and not null");
    uint32_t need_ws = coll_workspace_bytes(ctx, t, m);
    if (need_ws > ctx->workspace_bytes)
        return fail(ctx, COLL_EWORKSPACE, c->name, "workspace of %lu bytes, this table and m = %lu need %lu "
                    "(%u sends, %u receives, transit pieces of %lu bytes)", (unsigned long)ctx->workspace_bytes,
                    (unsigned long)m, (unsigned long)need_ws, t->nsend, t->nrecv, (unsigned long)piece_bytes);

    /* descriptors: receives, then sends (the start barrier's first), then the scratch word
     * of the barrier and the transit slots */
    const uint32_t rounds = barrier_rounds(ctx);
    const uint32_t nrx = rounds + t->nrecv, ntx = rounds + t->nsend;
    if (t->nsteps + rounds > 0xffffu || ntx >= COLL_NO_NEXT)
        return fail(ctx, COLL_ETABLE, c->name, "table of %u steps and %u sends is too long", t->nsteps, t->nsend);
    coll_plan plan;
    plan.rx = (coll_rx_desc *)(void *)ctx->workspace;
    plan.tx = (coll_tx_desc *)(void *)(ctx->workspace + COLL_DESC_BYTES * nrx);
    uint32_t *scratch = (uint32_t *)(void *)(ctx->workspace + COLL_DESC_BYTES * (nrx + ntx));
    uint32_t *slot = scratch + (rounds ? 1u : 0u);
    plan.nrecv = nrx;
    plan.rounds = rounds;
    plan.call = call;
    plan.nsteps = rounds + t->nsteps;
    plan.words = words;
    const uint8_t *send_base = bcast ? c->recv : c->send;
    uint32_t tail[NI_MAX_PORTS];
    for (unsigned p = 0; p < NI_MAX_PORTS; ++p) {
        plan.first_send[p] = COLL_NO_NEXT;
        tail[p] = COLL_NO_NEXT;
    }
    /* the dissemination barrier: in round r, a token to node + 2^(r-1), one from node - 2^(r-1) */
    for (uint32_t r = 1; r <= rounds; ++r) {
        const uint32_t dist = 1u << (r - 1u);
        coll_rx_desc *d = &plan.rx[r - 1u];
        d->src = (node + nodes - dist % nodes) % nodes;
        d->piece = COLL_BARRIER_TOKEN(call, r);
        d->dst = scratch;
        d->step = (uint16_t)r;
        d->port = 0;
        d->done = (uint8_t)((early >> (r - 1u)) & 1u);   /* came during the last call */
        int16_t hops[SCHED_MAX_DIMS];
        unsigned port = route_to(ctx, (node + dist) % nodes, hops);
        coll_tx_desc *x = &plan.tx[r - 1u];
        x->head = NOC_HEAD(hops[0], hops[1], hops[2], port / 2u, 0u);
        x->piece = COLL_BARRIER_TOKEN(call, r);
        x->src = scratch;
        x->step = (uint16_t)r;
        x->next = COLL_NO_NEXT;
        chain_send(&plan, tail, port, r - 1u);
    }
    uint16_t prev_step = 1;
    for (uint32_t i = 0; i < t->nrecv; ++i) {
        sched_table_recv r;
        sched_table_get_recv(t, i, &r);
        if (r.port >= ctx->ni.ports || r.step < prev_step || r.step > t->nsteps || r.src >= nodes ||
            r.piece >= COLL_BARRIER_PIECE)
            return fail(ctx, COLL_ETABLE, c->name, "receive record %lu (step %u, port %u, from node %lu) is "
                        "out of order or off the machine", (unsigned long)i, r.step, r.port, (unsigned long)r.src);
        prev_step = r.step;
        coll_rx_desc *d = &plan.rx[rounds + i];
        d->src = r.src;
        d->piece = r.piece;
        d->step = (uint16_t)(r.step + rounds);
        d->port = r.port;
        d->done = 0;
        if (recv_is_transit(ctx, t, &r, parts, m)) {
            d->dst = slot;
            slot += words;
        } else {
            uint32_t block = r.piece / parts;
            uint32_t off = coll_result_offset(t->collective, nodes, t->root, node, block, m);
            d->dst = (uint32_t *)(void *)(c->recv + off + (r.piece % parts) * piece_bytes);
        }
    }
    prev_step = 1;
    uint32_t earlier = rounds;   /* receives before the current send's step */
    for (uint32_t i = 0; i < t->nsend; ++i) {
        sched_table_send s;
        sched_table_get_send(t, i, &s);
        if (s.port >= ctx->ni.ports || s.step < prev_step || s.step > t->nsteps || s.dst >= nodes ||
            s.piece >= COLL_BARRIER_PIECE ||
            !route_ok(ctx, s.hops) || ni_port_for(s.hops[0], s.hops[1], s.hops[2], s.port / 2u) != (int)s.port)
            return fail(ctx, COLL_ETABLE, c->name, "send record %lu (step %u, port %u, to node %lu) is out of "
                        "order or its route (%d,%d,%d) is not one this node can send", (unsigned long)i, s.step,
                        s.port, (unsigned long)s.dst, s.hops[0], s.hops[1], s.hops[2]);
        prev_step = s.step;
        coll_tx_desc *d = &plan.tx[rounds + i];
        uint32_t block = s.piece / parts;
        d->head = NOC_HEAD(s.hops[0], s.hops[1], s.hops[2], s.port / 2u, s.step);
        d->piece = s.piece;
        d->step = (uint16_t)(s.step + rounds);
        d->next = COLL_NO_NEXT;
        d->src = 0;
        if (owner && block_owner(t->collective, nodes, t->root, block) == node) {
            d->src = (const uint32_t *)(const void *)(send_base + send_offset(t->collective, nodes, block, m) +
                                                      (s.piece % parts) * piece_bytes);
        } else {
            /* the piece came in an earlier step, mostly the one before: search back from
             * the last receive before this send's step (sends and receives go by step) */
            while (earlier < plan.nrecv && plan.rx[earlier].step < d->step)
                ++earlier;
            for (uint32_t k = earlier; k > rounds; --k)
                if (plan.rx[k - 1u].piece == s.piece) {
                    d->src = plan.rx[k - 1u].dst;
                    break;
                }
        }
        if (!d->src)
            return fail(ctx, COLL_ETABLE, c->name, "the table sends piece %lu in step %u before this node has it",
                        (unsigned long)s.piece, s.step);
        chain_send(&plan, tail, s.port, rounds + i);
    }

    /* MPI's local copy of the node's own block */
    if (owner) {
        uint32_t own = UINT32_MAX, src_off = 0;
        switch (t->collective) {
        case 2u: own = node; src_off = node * m; break;                 /* scatter's root */
        case 3u: own = node; break;                                     /* gather's root */
        case 16u: case 18u: own = node; break;                          /* allgather */
        case 17u: case 19u: own = node * nodes + node; src_off = node * m; break; /* alltoall */
        }
        uint32_t dst_off = own == UINT32_MAX ? UINT32_MAX
                                             : coll_result_offset(t->collective, nodes, t->root, node, own, m);
        if (dst_off != UINT32_MAX)
            copy_words((uint32_t *)(void *)(c->recv + dst_off), (const uint32_t *)(const void *)(c->send + src_off),
                       m);
    }

    /* the DMA engines refuse what is not word-aligned RAM: such buffers go by the core */
    plan.use_dma = ctx->use_dma && ni_has_dma() && in_ram(c->send, need_send) && in_ram(c->recv, need_recv) &&
                in_ram(ctx->workspace, need_ws);
    ctx->setup_cycles = RVMESH_CSR_READ(mcycle) - call_start;
    int rc = engine_run(ctx, &plan);
    if (rc == COLL_EUNEXPECTED || rc == COLL_EWORM)
        fail(ctx, rc, c->name, "finished the schedule, but worms went wrong (see above)");
    return rc;
}

/* ---- the calls ---- */
int coll_bcast(coll_ctx *ctx, const sched_table *t, void *buf, uint32_t buf_bytes, uint32_t m, uint32_t root)
{
    coll_call c = {"coll_bcast", 1u, 0, 0, buf, buf_bytes, m, root, 1};
    return run_call(ctx, t, &c);
}

int coll_scatter(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                 uint32_t recv_bytes, uint32_t m, uint32_t root)
{
    coll_call c = {"coll_scatter", 2u, send, send_bytes, recv, recv_bytes, m, root, 1};
    return run_call(ctx, t, &c);
}

int coll_gather(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                uint32_t recv_bytes, uint32_t m, uint32_t root)
{
    coll_call c = {"coll_gather", 3u, send, send_bytes, recv, recv_bytes, m, root, 1};
    return run_call(ctx, t, &c);
}

int coll_allgather(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                   uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_allgather", 16u, send, send_bytes, recv, recv_bytes, m, 0, 0};
    return run_call(ctx, t, &c);
}

int coll_alltoall(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                  uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_alltoall", 17u, send, send_bytes, recv, recv_bytes, m, 0, 0};
    return run_call(ctx, t, &c);
}

int coll_allgather_partial(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                           uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_allgather_partial", 18u, send, send_bytes, recv, recv_bytes, m, 0, 0};
    return run_call(ctx, t, &c);
}

int coll_alltoall_partial(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                          uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_alltoall_partial", 19u, send, send_bytes, recv, recv_bytes, m, 0, 0};
    return run_call(ctx, t, &c);
}

int coll_run(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
             uint32_t recv_bytes, uint32_t m)
{
    if (!ctx || !ctx->initialised)
        return COLL_ENI;
    if (!t || !t->base)
        return fail(ctx, COLL_EARG, "coll_run", "no table (open it with coll_open_table)");
    switch (t->collective) {
    case 1u: return coll_bcast(ctx, t, recv, recv_bytes, m, t->root);
    case 2u: return coll_scatter(ctx, t, send, send_bytes, recv, recv_bytes, m, t->root);
    case 3u: return coll_gather(ctx, t, send, send_bytes, recv, recv_bytes, m, t->root);
    case 16u: return coll_allgather(ctx, t, send, send_bytes, recv, recv_bytes, m);
    case 17u: return coll_alltoall(ctx, t, send, send_bytes, recv, recv_bytes, m);
    case 18u: return coll_allgather_partial(ctx, t, send, send_bytes, recv, recv_bytes, m);
    case 19u: return coll_alltoall_partial(ctx, t, send, send_bytes, recv, recv_bytes, m);
    }
    return fail(ctx, COLL_ECOLLECTIVE, "coll_run", "the table's collective %u is not one this library runs",
                t->collective);
}
