/* SPDX-License-Identifier: ISC
 * rvmesh collectives: the plan compiler, a table, buffers and m into the NI's descriptor
 * lists and counter targets (and the sizes a plan needs). coll_barrier.c routes and builds
 * the start barrier's descriptors; coll_run.c starts, tests and waits for a plan. See coll.h
 * for what a plan is. */
#include <stdio.h>
#include <string.h>

#include "coll_internal.h"
#include "coll_jobs.h"
#include "rvmesh_rt.h"
#include "sched_coll.h"

/* What the compiler notes of each receive, to find a relayed piece: where it lands and
 * which count of which port says it has come. */
typedef struct {
    uint32_t piece;
    uint16_t word;      /* RAM word index of the piece */
    uint16_t number;    /* the receive's number on its port (1, 2, ...) */
    uint16_t step;
    uint8_t port;
    uint8_t pad;
} coll_rx_note;

#define COLL_NOTE_BYTES 12u
_Static_assert(sizeof(coll_rx_note) == COLL_NOTE_BYTES, "receive note is 12 bytes");
_Static_assert(sizeof(struct ni_desc) == 16, "NI send descriptor is 16 bytes");

static uint16_t ram_word(const void *p) { return (uint16_t)(((uintptr_t)p - RVMESH_RAM_BASE) / 4u); }

/* The table's records read a word at a time (sched_table.h's layout, little endian; the
 * compiler asks for a word-aligned table): send record i is 5 words, receive record i 3. */
static const uint32_t *send_rec(const sched_table *t, uint32_t i)
{
    return (const uint32_t *)(const void *)(t->base + SCHED_TABLE_HEADER_BYTES) + 5u * i;
}
static const uint32_t *recv_rec(const sched_table *t, uint32_t i)
{
    return (const uint32_t *)(const void *)(t->base + SCHED_TABLE_HEADER_BYTES) + 5u * t->nsend + 3u * i;
}
#define REC_STEP(w0) ((w0) & 0xffffu)
#define REC_PORT(w0) (((w0) >> 16) & 0xffu)
#define REC_FLAGS(w0) ((w0) >> 24)

/* The port a worm with these hops arrives on at its end: the last dimension it moves in
 * (cyclically from start), on the side it comes from (2d + 1 when it travels +). */
static unsigned arrival_port(const int16_t hops[SCHED_MAX_DIMS], unsigned start, unsigned dims)
{
    unsigned last = start;
    for (unsigned k = 0; k < dims; ++k) {
        unsigned d = (start + k) % dims;
        if (hops[d] != 0)
            last = d;
    }
    return 2u * last + (hops[last] > 0 ? 1u : 0u);
}

/* Does a route of these hops from this node stay inside the machine (what the NI checks), and
 * on a communicator's line (the links of its line alone)? */
static int route_ok(const coll_ctx *ctx, const coll_comm *comm, const int16_t hops[SCHED_MAX_DIMS])
{
    uint32_t moved = 0;
    for (unsigned d = 0; d < SCHED_MAX_DIMS; ++d) {
        int32_t h = hops[d];
        if (h == 0)
            continue;
        if (d >= ctx->ni.dims || h > 127 || h < -127 || (comm && !(comm->span & (1u << d))))
            return 0;
        /* a block's routes stay inside it, unless it is the whole torus */
        if (comm && comm->block[0] && !(ctx->ni.torus && comm->block[0] == ctx->ni.size[0] &&
                                        comm->block[1] == ctx->ni.size[1])) {
            const int32_t b = comm->block[d], in = (int32_t)ctx->ni.coord[d] % b + h;
            if (in < 0 || in >= b)
                return 0;
        }
        int32_t side = ctx->ni.size[d], at = (int32_t)ctx->ni.coord[d] + h;
        if (ctx->ni.torus ? (h >= side || -h >= side) : (at < 0 || at >= side))
            return 0;
        moved = 1;
    }
    return (int)moved;
}

/* The RAM lines of 2^lb words that words [word, word + words) touch: what the NI counts for
 * a put with NI_PUT_LINES (1 for a put with no payload) */
static uint32_t lines_of(uint32_t word, uint32_t words, unsigned lb)
{
    return words == 0 ? 1u : ((word + words - 1u) >> lb) - (word >> lb) + 1u;
}

/* transit receives of the table (its relays) */
static uint32_t transit_count(const sched_table *t)
{
    uint32_t n = 0;
    if (((uintptr_t)t->base & 3u) == 0)
        for (uint32_t i = 0; i < t->nrecv; ++i)
            n += (REC_FLAGS(recv_rec(t, i)[0]) & SCHED_MSG_TRANSIT) ? 1u : 0u;
    return n;
}

uint32_t coll_plan_workspace_on(const coll_ctx *ctx, const coll_comm *comm, const sched_table *t, uint32_t m)
{
    const uint32_t parts = sched_table_parts(t);
    if (m == 0 || m % (4u * parts) != 0)
        return 0;
    /* + 1 descriptor: the own block's local copy */
    return 16u * ((uint32_t)t->nsend + coll_start_barrier_descs(ctx, comm, t) + 1u) + transit_count(t) * (m / parts) +
           COLL_NOTE_BYTES * t->nrecv;
}

uint32_t coll_plan_workspace_bytes(const coll_ctx *ctx, const sched_table *t, uint32_t m)
{
    return coll_plan_workspace_on(ctx, 0, t, m);
}

/* whether `node` of `nodes` (the machine's, or a communicator's ranks) starts with data */
static int has_data(const sched_table *t, uint32_t node, uint32_t nodes)
{
    switch (t->collective) {
    case COLL_BCAST:
    case COLL_SCATTER:
        return node == t->root;
    case COLL_GATHER:
    case COLL_ALLGATHER:
    case COLL_ALLTOALL:
        return 1;
    case COLL_ALLGATHER_PARTIAL:
    case COLL_ALLTOALL_PARTIAL:
    case COLL_GATHER_PARTIAL: {
        const uint32_t parts = sched_table_parts(t);
        for (uint32_t i = 0; i < t->nsend; ++i) {
            sched_table_send s;
            sched_table_get_send(t, i, &s);
            if (coll_block_owner(t->collective, nodes, t->root, s.piece / parts) == node)
                return 1;
        }
        return 0;
    }
    }
    return 0;
}

int coll_node_has_data(const coll_ctx *ctx, const sched_table *t)
{
    return has_data(t, ctx->ni.node, ctx->ni.nodes);
}

static uint32_t send_bytes_of(const sched_table *t, uint32_t node, uint32_t nodes, uint32_t m)
{
    if (!has_data(t, node, nodes))
        return t->collective == COLL_BCAST ? m : 0u;
    if (t->collective == COLL_SCATTER || coll_is_exchange(t->collective))
        return nodes * m;
    return m;
}

uint32_t coll_send_bytes(const coll_ctx *ctx, const sched_table *t, uint32_t m)
{
    return send_bytes_of(t, ctx->ni.node, ctx->ni.nodes, m);
}

uint32_t coll_recv_bytes(const coll_ctx *ctx, const sched_table *t, uint32_t m)
{
    return coll_result_bytes(t->collective, ctx->ni.nodes, t->root, ctx->ni.node, m);
}

/* ---- the compiler ---- */
int coll_plan_init(coll_plan *plan, coll_ctx *ctx, const sched_table *t, const void *send,
                   uint32_t send_bytes, void *recv, uint32_t recv_bytes, uint32_t m, void *workspace,
                   uint32_t workspace_bytes)
{
    return coll_plan_compile(plan, ctx, 0, t, send, send_bytes, recv, recv_bytes, m, workspace, workspace_bytes,
                             "coll_plan_init");
}

int coll_plan_init_on(coll_plan *plan, coll_ctx *ctx, const coll_comm *comm, const sched_table *t,
                      const void *send, uint32_t send_bytes, void *recv, uint32_t recv_bytes, uint32_t m,
                      void *workspace, uint32_t workspace_bytes)
{
    return coll_plan_compile(plan, ctx, comm, t, send, send_bytes, recv, recv_bytes, m, workspace, workspace_bytes,
                             "coll_plan_init_on");
}

int coll_plan_compile(coll_plan *plan, coll_ctx *ctx, const coll_comm *comm, const sched_table *t,
                      const void *send_v, uint32_t send_bytes, void *recv_v, uint32_t recv_bytes, uint32_t m,
                      void *workspace, uint32_t workspace_bytes, const char *name)
{
    const uint32_t cycle0 = RVMESH_CSR_READ(mcycle);
    if (!ctx || !ctx->initialised)
        return COLL_ENI;
    if (!plan)
        return coll_fail(ctx, COLL_EARG, name, "no plan");
    coll_clear_words(plan, sizeof *plan);
    plan->ctx = ctx;
    plan->name = name;
    if (!t || !t->base)
        return coll_fail(ctx, COLL_EARG, name, "no table (open it with coll_open_table)");
    if (((uintptr_t)t->base & 3u) != 0)
        return coll_fail(ctx, COLL_EARG, name, "the table must be word aligned");
    if (!coll_comm_valid(ctx, comm))
        return coll_fail(ctx, COLL_EARG, name, "not a communicator of this node (coll_comm_line makes one)");
    /* node ids are ranks on a communicator: its tables are built for its line as a shape */
    const uint32_t node = comm ? comm->rank : ctx->ni.node, nodes = comm ? comm->size : ctx->ni.nodes;
    const uint32_t c = t->collective;
    if (t->shape.dims != ctx->shape.dims || t->shape.torus != ctx->shape.torus ||
        t->shape.side[0] != ctx->shape.side[0] || t->shape.side[1] != ctx->shape.side[1] ||
        t->shape.side[2] != ctx->shape.side[2])
        return coll_fail(ctx, COLL_ESHAPE, name, "table built for a %ux%ux%u %s", t->shape.side[0],
                         t->shape.side[1], t->shape.side[2], t->shape.torus ? "torus" : "mesh");
    static const char *const line_name[] = {"the whole machine", "a row", "a column", "a pillar", "a plane"};
    const uint32_t line = comm ? comm->line : 0u;
    if (t->line != line) {
        char built[32], run[32];
        if (SCHED_LINE_IS_BLOCK(t->line))
            snprintf(built, sizeof built, "a %lux%lu block", (unsigned long)SCHED_LINE_BLOCK_X(t->line),
                     (unsigned long)SCHED_LINE_BLOCK_Y(t->line));
        else
            snprintf(built, sizeof built, "%s", t->line < 5u ? line_name[t->line] : "another part of the machine");
        if (SCHED_LINE_IS_BLOCK(line))
            snprintf(run, sizeof run, "a %lux%lu block", (unsigned long)SCHED_LINE_BLOCK_X(line),
                     (unsigned long)SCHED_LINE_BLOCK_Y(line));
        else
            snprintf(run, sizeof run, "%s", line < 5u ? line_name[line] : "another part of the machine");
        return coll_fail(ctx, COLL_ESHAPE, name, "a table built for %s, run on %s%s", built, run,
                         t->line && !comm ? " (give it the communicator of its line: coll_plan_init_on)" : "");
    }
    if (t->node != ctx->ni.node)
        return coll_fail(ctx, COLL_ENODE, name, "table of node %lu, this is node %lu", (unsigned long)t->node,
                         (unsigned long)ctx->ni.node);
    const uint32_t parts = sched_table_parts(t);
    if (m == 0 || m % (4u * parts) != 0)
        return coll_fail(ctx, COLL_ESIZE, name, "m = %lu bytes: must be a non-zero multiple of %lu",
                         (unsigned long)m, (unsigned long)(4u * parts));
    const uint32_t piece_bytes = m / parts, words = piece_bytes / 4u;
    if (m > RVMESH_RAM_BYTES)
        return coll_fail(ctx, COLL_ESIZE, name, "m = %lu bytes: a block larger than a node's RAM (%lu bytes)",
                         (unsigned long)m, (unsigned long)RVMESH_RAM_BYTES);
    if (words > 65532u)
        return coll_fail(ctx, COLL_ESIZE, name, "m = %lu bytes: a piece does not fit in one worm",
                         (unsigned long)m);

    /* buffers */
    const int data_here = has_data(t, node, nodes);
    const uint8_t *send = c == COLL_BCAST ? (const uint8_t *)recv_v : (const uint8_t *)send_v;
    uint8_t *recv = (uint8_t *)recv_v;
    const uint32_t need_send = c == COLL_BCAST ? 0u : (data_here ? send_bytes_of(t, node, nodes, m) : 0u);
    const uint32_t need_recv = coll_result_bytes(c, nodes, t->root, node, m);
    if (need_send > send_bytes)
        return coll_fail(ctx, COLL_ESEND_SPACE, name, "send buffer of %lu bytes, this %s needs %lu",
                         (unsigned long)send_bytes, coll_name(c), (unsigned long)need_send);
    if (need_recv > recv_bytes)
        return coll_fail(ctx, COLL_ERECV_SPACE, name, "%s buffer of %lu bytes, this %s needs %lu",
                         c == COLL_BCAST ? "the" : "result", (unsigned long)recv_bytes, coll_name(c),
                         (unsigned long)need_recv);
    if ((need_send && (!send || !coll_in_ram(send, need_send))) || (need_recv && (!recv || !coll_in_ram(recv, need_recv))))
        return coll_fail(ctx, COLL_EARG, name, "buffers must be word-aligned RAM, not null");
    /* the start barrier: the machine's rounds, or a communicator's signals to its members */
    const int barrier = coll_wants_barrier(ctx, t);
    const uint32_t rounds = barrier && !comm ? coll_barrier_rounds(nodes) : 0u;
    const uint32_t signals = barrier && comm ? comm->size - 1u : 0u;
    const uint32_t ntransit = transit_count(t);
    const uint32_t ndesc = (uint32_t)t->nsend + coll_barrier_descs(rounds) + signals + 1u;
    const uint32_t need_ws = 16u * ndesc + ntransit * piece_bytes + COLL_NOTE_BYTES * t->nrecv;
    if (need_ws > workspace_bytes || (need_ws && !workspace))
        return coll_fail(ctx, COLL_EWORKSPACE, name, "workspace of %lu bytes, this table and m = %lu need %lu "
                         "(%u sends, %u receives, transit pieces of %lu bytes)", (unsigned long)workspace_bytes,
                         (unsigned long)m, (unsigned long)need_ws, t->nsend, t->nrecv, (unsigned long)piece_bytes);
    if (((uintptr_t)workspace & 15u) != 0 || !coll_in_ram(workspace, need_ws))
        return coll_fail(ctx, COLL_EARG, name, "the workspace must be 16-byte aligned RAM");
    /* the NI writes the result buffer and the workspace's transit slots while it reads the
     * send buffer and the descriptors: no two of them may share a byte */
    if (coll_overlap(send, need_send, recv, need_recv) || coll_overlap(send, need_send, workspace, need_ws) ||
        coll_overlap(recv, need_recv, workspace, need_ws))
        return coll_fail(ctx, COLL_EARG, name, "the send buffer, the result buffer and the workspace overlap: "
                         "give each its own memory");

    /* the layout: descriptors (port by port: barrier rounds, then the table's sends),
     * transit slots, the compiler's notes */
    if (rounds > COLL_MAX_ROUNDS)
        return coll_fail(ctx, COLL_ETABLE, name, "a barrier of %lu rounds (at most %u)", (unsigned long)rounds,
                         COLL_MAX_ROUNDS);
    /* Counting and relaying (rtl/tile/README.md, "Plans"): with RAM lines of 4 words or more
     * every put of a plan is counted a line at a time (NI_PUT_LINES: the same rule on every
     * node, so a sender's puts and their receiver's counts agree), and a relay follows its
     * piece as it arrives (NI_PACED: line j goes once line j is in): cut-through instead of
     * store-and-forward. A paced relay holds its link while it waits for a line, but it
     * starts only once its piece's head is in this node's RAM: that worm holds every link
     * of its path and drains into an RX engine, so it ends whatever else waits; its own
     * sender is the same case or reads a piece already in RAM. No wait cycle can form. */
    unsigned lb = 0;
    while ((1u << lb) < ctx->line_words)
        ++lb;
    const int by_lines = coll_by_lines(ctx);
    const uint32_t put_lines = by_lines ? NI_PUT_LINES : 0u;
    struct ni_desc *desc = (struct ni_desc *)workspace;
    uint8_t *transit = (uint8_t *)workspace + 16u * ndesc;
    coll_rx_note *notes = (coll_rx_note *)(void *)(transit + ntransit * piece_bytes);
    uint16_t cursor[NI_MAX_PORTS + 1];
    const unsigned local = ctx->ni.ports;   /* the NI's local port: its own block's copy */
    /* the barrier's lists lead each port's list (the local port's: the machine's links): the
     * machine's rounds, or a communicator's signals */
    const struct ni_desc *lead = signals ? comm->signal : ctx->barrier;
    const uint16_t *lead_first = signals ? comm->signal_first : ctx->barrier_first;
    const uint16_t *lead_count = signals ? comm->signal_count : ctx->barrier_count;
    if (rounds)
        coll_barrier_lists(ctx, rounds);
    for (unsigned p = 0; (rounds || signals) && p < ctx->ni.ports; ++p)
        plan->list_count[p] = (uint16_t)(plan->list_count[p] + lead_count[p]);
    for (uint32_t i = 0; i < t->nsend; ++i) {
        const uint32_t port = REC_PORT(send_rec(t, i)[0]);
        if (port >= ctx->ni.ports)
            return coll_fail(ctx, COLL_ETABLE, name, "send record %lu on port %lu: this node has %u ports",
                             (unsigned long)i, (unsigned long)port, ctx->ni.ports);
        plan->list_count[port]++;
    }
    /* MPI's local copy of the node's own block: where from, where to */
    const int owner = data_here;
    uint32_t own = UINT32_MAX, own_src = 0;
    if (owner)
        switch (c) {
        case COLL_SCATTER: own = node; own_src = node * m; break;                     /* the root */
        case COLL_GATHER: case COLL_ALLGATHER: case COLL_ALLGATHER_PARTIAL: own = node; break;
        case COLL_ALLTOALL: case COLL_ALLTOALL_PARTIAL: own = node * nodes + node; own_src = node * m; break;
        }
    const uint32_t own_dst = own == UINT32_MAX ? UINT32_MAX : coll_result_offset(c, nodes, t->root, node, own, m);
    /* the local port's list: the barrier's links, then the own block's copy */
    plan->list_count[local] = (uint16_t)(coll_barrier_descs(rounds) - rounds + (own_dst != UINT32_MAX));
    uint32_t at = 0;
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p) {
        plan->list_first[p] = (uint16_t)at;
        cursor[p] = (uint16_t)at;
        at += plan->list_count[p];
    }
    for (unsigned p = 0; (rounds || signals) && p <= ctx->ni.ports; ++p)
        for (unsigned k = 0; k < lead_count[p]; ++k)
            desc[cursor[p]++] = lead[lead_first[p] + k];
    /* the own pieces wait for the barrier, relayed ones for their piece */
    const uint32_t own_trigger =
        rounds    ? NI_TRIGGER(COLL_BARRIER_COUNTER + rounds - 1u, coll_barrier_heard(rounds - 1u))
        : signals ? NI_TRIGGER(comm->counter, signals)
                  : NI_NO_TRIGGER;

    /* receives: where each lands, its number on its port, whether the port hears more than
     * one sender (then the order of its worms is not the table's) */
    uint32_t port_src[NI_MAX_PORTS];
    uint8_t mixed[NI_MAX_PORTS];
    for (unsigned p = 0; p < NI_MAX_PORTS; ++p) {
        port_src[p] = UINT32_MAX;
        mixed[p] = 0;
    }
    uint32_t slot = 0;
    uint32_t prev_step = 1;
    for (uint32_t i = 0; i < t->nrecv; ++i) {
        const uint32_t *rec = recv_rec(t, i);
        const uint32_t step = REC_STEP(rec[0]), port = REC_PORT(rec[0]), src = rec[1], piece = rec[2];
        if (port >= ctx->ni.ports || step < prev_step || step > t->nsteps || src >= nodes)
            return coll_fail(ctx, COLL_ETABLE, name, "receive record %lu (step %lu, port %lu, from node %lu) is "
                             "out of order or off the machine", (unsigned long)i, (unsigned long)step,
                             (unsigned long)port, (unsigned long)src);
        prev_step = step;
        coll_rx_note *n = &notes[i];
        n->piece = piece;
        n->port = (uint8_t)port;
        n->step = (uint16_t)step;
        if (port_src[port] != UINT32_MAX && port_src[port] != src)
            mixed[port] = 1;
        port_src[port] = src;
        if (REC_FLAGS(rec[0]) & SCHED_MSG_TRANSIT) {
            n->word = ram_word(transit + slot * piece_bytes);
            ++slot;
        } else {
            uint32_t off = coll_result_offset(c, nodes, t->root, node, piece / parts, m);
            if (off == UINT32_MAX)
                return coll_fail(ctx, COLL_ETABLE, name, "receive record %lu delivers piece %lu, which a %s "
                                 "does not leave here", (unsigned long)i, (unsigned long)piece, coll_name(c));
            n->word = ram_word(recv + off + (piece % parts) * piece_bytes);
        }
        /* its count on its port once all of it is in: worms, or lines */
        plan->recv_count[port] = (uint16_t)(plan->recv_count[port] + (by_lines ? lines_of(n->word, words, lb) : 1u));
        n->number = plan->recv_count[port];
    }

    /* sends */
    prev_step = 1;
    uint32_t earlier = 0;   /* receives of steps before the current send's */
    for (uint32_t i = 0; i < t->nsend; ++i) {
        const uint32_t *rec = send_rec(t, i);
        sched_table_send s;
        s.step = (uint16_t)REC_STEP(rec[0]);
        s.port = (uint8_t)REC_PORT(rec[0]);
        s.flags = (uint8_t)REC_FLAGS(rec[0]);
        s.hops[0] = (int16_t)(rec[1] & 0xffffu);
        s.hops[1] = (int16_t)(rec[1] >> 16);
        s.hops[2] = (int16_t)(rec[2] & 0xffffu);
        s.rslot = (uint16_t)(rec[2] >> 16);
        s.dst = rec[3];
        s.piece = rec[4];
        if (s.step < prev_step || s.step > t->nsteps || s.dst >= nodes || !route_ok(ctx, comm, s.hops) ||
            ni_port_for(s.hops[0], s.hops[1], s.hops[2], s.port / 2u) != (int)s.port)
            return coll_fail(ctx, COLL_ETABLE, name, "send record %lu (step %u, port %u, to node %lu) is out of "
                             "order or its route (%d,%d,%d) is not one this node can send", (unsigned long)i,
                             s.step, s.port, (unsigned long)s.dst, s.hops[0], s.hops[1], s.hops[2]);
        prev_step = s.step;
        const uint32_t block = s.piece / parts, part = s.piece % parts;
        struct ni_desc *d = &desc[cursor[s.port]++];
        d->head = NOC_HEAD(s.hops[0], s.hops[1], s.hops[2], s.port / 2u, s.step);
        uint16_t word;
        if (owner && coll_block_owner(c, nodes, t->root, block) == node) {
            word = ram_word(send + coll_send_offset(c, nodes, block, m) + part * piece_bytes);
            d->trigger = own_trigger;
        } else {
            /* the piece came in an earlier step, mostly the one before: search back */
            while (earlier < t->nrecv && notes[earlier].step < s.step)
                ++earlier;
            uint32_t k = earlier;
            while (k > 0 && notes[k - 1u].piece != s.piece)
                --k;
            if (k == 0)
                return coll_fail(ctx, COLL_ETABLE, name, "the table sends piece %lu in step %u before this node "
                                 "has it", (unsigned long)s.piece, s.step);
            const coll_rx_note *n = &notes[k - 1u];
            if (mixed[n->port])
                return coll_fail(ctx, COLL_ETABLE, name, "piece %lu is relayed in step %u, but its port %u hears "
                                 "more than one sender: their worms' order is not the table's",
                                 (unsigned long)s.piece, s.step, n->port);
            word = n->word;
            /* paced: from its first line on; else once all of it is in */
            d->trigger = by_lines ? NI_TRIGGER(n->port, n->number - lines_of(word, words, lb) + 1u) | NI_PACED
                               : NI_TRIGGER(n->port, n->number);
        }
        d->payload = NI_DESC_PAYLOAD(word, words);
        /* where it goes: the receiver's transit slot, or its result buffer */
        const unsigned aport = arrival_port(s.hops, s.port / 2u, ctx->ni.dims);
        if (s.flags & SCHED_MSG_TRANSIT) {
            d->put = NI_PUT(1u, (uint32_t)s.rslot * words, aport) | put_lines;
        } else {
            uint32_t off = coll_result_offset(c, nodes, t->root, s.dst, block, m);
            if (off == UINT32_MAX)
                return coll_fail(ctx, COLL_ETABLE, name, "send record %lu delivers piece %lu to node %lu, where "
                                 "a %s does not leave it", (unsigned long)i, (unsigned long)s.piece,
                                 (unsigned long)s.dst, coll_name(c));
            d->put = NI_PUT(0u, off / 4u + part * words, aport) | put_lines;
        }
    }

    /* the own block's copy: a put on the local port, counted on its counter */
    if (own_dst != UINT32_MAX) {
        struct ni_desc *d = &desc[cursor[local]++];
        d->head = NOC_HEAD(0, 0, 0, 0, 0);
        d->payload = NI_DESC_PAYLOAD(ram_word(send + own_src), m / 4u);
        d->trigger = NI_NO_TRIGGER;
        d->put = NI_PUT(0u, own_dst / 4u, local) | put_lines;
        plan->recv_count[local] = (uint16_t)(by_lines ? lines_of(ram_word(recv + own_dst), m / 4u, lb) : 1u);
    }
    plan->collective = (uint8_t)c;
    plan->barrier = coll_barrier_of(rounds, signals ? comm->counter : 0u, signals);
    plan->ports = ctx->ni.ports;
    plan->m = m;
    plan->recv = recv;
    plan->recv_words = need_recv / 4u;
    plan->transit = transit;
    plan->transit_words = ntransit * words;
    plan->desc = desc;
    coll_start_image_of(ctx, plan->recv_count, desc, plan->list_first, plan->list_count, &plan->start);
    plan->compile_cycles = RVMESH_CSR_READ(mcycle) - cycle0;
    return COLL_OK;
}
