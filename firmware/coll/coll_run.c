/* SPDX-License-Identifier: ISC
 * rvmesh collectives: running a compiled plan on the NI: post its descriptor lists and
 * counter targets (start), test, wait with progress and a timeout, and turn the NI's error
 * status into a clear error; the barrier alone, and a refused call's part in the others'
 * barrier or epoch. coll_plan.c compiles the plans. See coll.h. */
#include <stdio.h>
#include <string.h>

#include "coll_internal.h"
#include "coll_jobs.h"
#include "rvmesh_rt.h"

/* errors of worms that came in: the NI drained them, the plan goes on (and then says so) */
#define COLL_RX_ERRORS 0x00ffff00u

/* what counter k of the barrier reaches once this node has heard it */
static uint32_t heard_at(const coll_barrier_counts *b, uint32_t k)
{
    return k + 1u == b->counters ? b->last : coll_barrier_heard(k);
}

void coll_start_image_of(const coll_ctx *ctx, const uint16_t recv_count[NI_MAX_PORTS + 1], const struct ni_desc *desc,
                         const uint16_t first[NI_MAX_PORTS + 1], const uint16_t count[NI_MAX_PORTS + 1],
                         coll_start_image *image)
{
    for (unsigned q = 0; q <= NI_MAX_PORTS; ++q) {
        const int live = q <= ctx->ni.ports;
        image->target[q] = live && recv_count[q] ? (1u << 31) | recv_count[q] : 0u;
        image->list_count[q] = live ? count[q] : 0u;
        image->list_addr[q] = live && count[q] ? (uint32_t)(uintptr_t)(desc + first[q]) : 0u;
    }
}

/* Posts a start image and the windows; the common part of a plan's start and of a lone
 * barrier. Straight-line stores (the loops are unrolled over NI_MAX_PORTS + 1 counters and
 * lists: the entries past this node's ports are 0, and counters with no port behind them
 * have no target), as the start is on every call's critical path. */
static int post(coll_ctx *ctx, const char *name, const coll_start_image *image, const coll_barrier_counts *b, void *win0,
                uint32_t win0_words, void *win1, uint32_t win1_words)
{
    if (ctx->running)
        return coll_fail(ctx, COLL_EBUSY, name, "a plan is running: wait for it first");
    /* plain register writes, checked once at the end (PLAN_ERROR says what was refused).
     * A worm refused since the last plan (another epoch, no window) stays in PLAN_ERROR:
     * this plan reports it when it ends, so that no refused worm goes unsaid. */
    NI_REG(NI_PLAN_ERROR) = ~COLL_RX_ERRORS;
    uint32_t early = 0;
    for (uint32_t r = 0; r < b->counters; ++r)
        early += (NI_REG(NI_CNT(b->first + r)) & 0xffffu) != 0;
    ctx->early_signals = early;
    volatile uint32_t *const count_reg = &NI_REG(NI_CNT(0));
#pragma GCC unroll 8
    for (unsigned q = 0; q <= NI_MAX_PORTS; ++q)
        count_reg[q] = 0;
    if (win0_words)
        NI_REG(NI_WIN_BASE(0)) = (uint32_t)(uintptr_t)win0;
    NI_REG(NI_WIN_WORDS(0)) = win0_words;
    if (win1_words)
        NI_REG(NI_WIN_BASE(1)) = (uint32_t)(uintptr_t)win1;
    NI_REG(NI_WIN_WORDS(1)) = win1_words;
    /* from here on this node takes the puts of this plan (they waited in the network), and
     * its lists go: the plan's data begins to move */
    ctx->start_cycle = RVMESH_CSR_READ(mcycle);
    NI_REG(NI_EPOCH) = NI_REG(NI_EPOCH) + 1u;
    volatile uint32_t *const txq = &NI_REG(NI_TXQ_ADDR(0));   /* ADDR, COUNT, DONE: 16 bytes a port */
#pragma GCC unroll 8
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p)
        if (image->list_count[p]) {
            txq[4 * p] = image->list_addr[p];
            txq[4 * p + 1] = image->list_count[p];
        }
    /* the targets last: PLAN_STATUS.done is read only once this returns, and the first worms
     * leave a few cycles sooner */
    volatile uint32_t *const target_reg = &NI_REG(NI_CNT_TARGET(0));
#pragma GCC unroll 8
    for (unsigned q = 0; q <= NI_MAX_PORTS; ++q)
        target_reg[q] = image->target[q];
    /* the barrier's last counter: done needs its signals (a counter's barrier is always the
     * same one: the machine's last round, or a communicator's) */
    const uint32_t last = b->counters ? b->first + b->counters : 0u;   /* + 1 */
    if (last != ctx->barrier_target) {
        if (ctx->barrier_target)
            NI_REG(NI_CNT_TARGET(ctx->barrier_target - 1u)) = 0;
        if (last)
            NI_REG(NI_CNT_TARGET(last - 1u)) = (1u << 31) | b->last;
        ctx->barrier_target = (uint8_t)last;
    }
    if (NI_REG(NI_PLAN_ERROR) & (NI_PERR_WINDOW | NI_PERR_TXQ)) {
        for (unsigned p = 0; p <= ctx->ni.ports; ++p)
            ni_plan_list_stop(p);
        return coll_fail(ctx, COLL_EDESC, name, "the NI refused a window or a list (PLAN_ERROR 0x%08lx)",
                         (unsigned long)NI_REG(NI_PLAN_ERROR));
    }
    ctx->running = 1;
    return COLL_OK;
}

int coll_plan_start(coll_plan *plan)
{
    if (!plan || !plan->ctx || !plan->desc)
        return COLL_EARG;
    coll_ctx *ctx = plan->ctx;
    int rc = post(ctx, plan->name, &plan->start, &plan->barrier, plan->recv, plan->recv_words, plan->transit,
                  plan->transit_words);
    if (rc != COLL_OK)
        return rc;
    plan->started = 1;
    return COLL_OK;
}

/* a plan went wrong: stop its lists, say why */
static int plan_error(coll_ctx *ctx, const char *name, uint32_t errors)
{
    for (unsigned p = 0; p <= ctx->ni.ports; ++p)
        ni_plan_list_stop(p);
    ctx->running = 0;
    const uint32_t info = ni_read(NI_PLAN_ERR_INFO);
    ctx->err_src = NI_ERRINFO_SOURCE(info);
    ctx->err_port = NI_ERRINFO_PORT(info);
    ni_plan_clear_errors(errors);   /* said once */
    if (errors & 0xff0000u)
        return coll_fail(ctx, COLL_EWORM, name, "port %lu: a worm from node %lu of another length than its "
                         "info flit says", (unsigned long)ctx->err_port, (unsigned long)ctx->err_src);
    if (errors & 0xff00u)
        return coll_fail(ctx, COLL_EUNEXPECTED, name, "port %lu: a worm from node %lu for no window or plan of "
                         "this node", (unsigned long)ctx->err_port, (unsigned long)ctx->err_src);
    if (errors & NI_PERR_REFUSED)
        return coll_fail(ctx, COLL_EREFUSED, name, "the NI refused a worm of ours (its route leaves the machine)");
    if (errors & NI_PERR_OVERFLOW)
        return coll_fail(ctx, COLL_EOVERFLOW, name, "an NI counter passed 65535");
    return coll_fail(ctx, COLL_EDESC, name, "the NI refused descriptor %lu of port %lu (reason %lu)",
                     (unsigned long)ni_read(NI_TXQ_DONE(NI_ERRINFO_TX_PORT(info))),
                     (unsigned long)NI_ERRINFO_TX_PORT(info), (unsigned long)NI_ERRINFO_TX_REASON(info));
}

/* a done plan: the barrier's counts of this run are spent (early signals of the next run stay) */
static void finish(coll_ctx *ctx, const coll_barrier_counts *b, uint32_t done_cycle)
{
    for (uint32_t r = 0; r < b->counters; ++r)
        ni_counter_sub(b->first + r, heard_at(b, r));
    ctx->running = 0;
    ctx->end_cycle = done_cycle;
}

/* what PLAN_STATUS `status`, read at `cycle`, says of the running plan */
static int test_status(coll_ctx *ctx, const char *name, const coll_barrier_counts *b, uint32_t status, uint32_t cycle)
{
    uint32_t errors = status & NI_PLAN_ERR ? ni_plan_errors() : 0u;
    if (errors & ~COLL_RX_ERRORS)
        return plan_error(ctx, name, errors);
    if (status & NI_PLAN_DONE) {
        finish(ctx, b, cycle);
        errors = ni_plan_errors();   /* a worm refused since the status read */
        return errors ? plan_error(ctx, name, errors) : COLL_OK;
    }
    return COLL_RUNNING;
}

int coll_plan_test(coll_plan *plan)
{
    if (!plan || !plan->started || !plan->ctx->running)
        return COLL_EARG;
    const uint32_t status = ni_plan_status();
    return test_status(plan->ctx, plan->name, &plan->barrier, status, RVMESH_CSR_READ(mcycle));
}

/* progress: every worm counted and every descriptor sent moves this on (the ports, the
 * local one and the barrier's rounds: no more reads than the plan can move) */
static uint32_t progress(const coll_ctx *ctx, const coll_barrier_counts *b)
{
    uint32_t sum = 0;
    for (unsigned p = 0; p <= ctx->ni.ports; ++p)
        sum += ni_counter(p) + ni_read(NI_TXQ_DONE(p));
    for (uint32_t r = 0; r < b->counters; ++r)
        sum += ni_counter(b->first + r);
    return sum;
}

static int wait_status(coll_ctx *ctx, const char *name, const coll_barrier_counts *b, const uint16_t recv_count[NI_MAX_PORTS + 1])
{
    /* the timeout's watch starts after the first spin: a short plan is done before it
     * would have read its counters once (the reads cost more than the collective) */
    uint32_t last = 0, since = 0;
    int watching = 0;
    int barrier_open = b->counters != 0;
    for (;;) {
        /* the fast path: one status read per turn while the NI works; the cycle it is seen
         * done is the plan's end */
        uint32_t status = 0;
        for (unsigned spin = 0; spin < 64u; ++spin) {
            status = NI_REG(NI_PLAN_STATUS);
            if (status & (NI_PLAN_DONE | NI_PLAN_ERR))
                break;
        }
        int rc = test_status(ctx, name, b, status, RVMESH_CSR_READ(mcycle));
        if (rc != COLL_RUNNING)
            return rc;
        if (barrier_open && ni_counter(b->first + b->counters - 1u) >= b->last) {
            ctx->start_cycle = RVMESH_CSR_READ(mcycle);   /* the data begins to move */
            barrier_open = 0;
        }
        if (!ctx->timeout_cycles)
            continue;
        uint32_t now = progress(ctx, b), cycle = RVMESH_CSR_READ(mcycle);
        if (!watching || now != last) {
            watching = 1;
            last = now;
            since = cycle;
        } else if (cycle - since > ctx->timeout_cycles) {
            for (unsigned p = 0; p <= ctx->ni.ports; ++p)
                ni_plan_list_stop(p);
            ctx->running = 0;
            if (barrier_open && b->first != COLL_BARRIER_COUNTER)
                return coll_fail(ctx, COLL_ETIMEOUT, name, "timeout in the start barrier: %lu of the other %lu "
                                 "members' signals came (has every member of this %s made this call?)",
                                 (unsigned long)ni_counter(b->first), (unsigned long)b->last,
                                 b->first == COLL_COMM_COUNTER(0) ? "row" : b->first == COLL_COMM_COUNTER(1) ?
                                 "column" : b->first == COLL_COMM_COUNTER(2) ? (ctx->ni.dims == 3u ? "pillar" : "block")
                                 : "plane");
            if (barrier_open)
                return coll_fail(ctx, COLL_ETIMEOUT, name, "timeout in the start barrier: round %lu's signal never "
                                 "came (has every node made this call?)",
                                 (unsigned long)(b->counters - 1u));
            char what[96];
            unsigned len = 0;
            what[0] = '\0';
            for (unsigned p = 0; p <= ctx->ni.ports && len + 24u < sizeof what; ++p)
                if (ni_counter(p) != recv_count[p])
                    len += (unsigned)snprintf(what + len, sizeof what - len, " port %u %lu of %u;", p,
                                              (unsigned long)ni_counter(p), recv_count[p]);
            uint32_t sends = 0;
            for (unsigned p = 0; p <= ctx->ni.ports; ++p)
                sends += ni_read(NI_TXQ_COUNT(p));
            /* counts of puts, or of their RAM lines (coll_plan.c: NI_PUT_LINES) */
            return coll_fail(ctx, COLL_ETIMEOUT, name, "timeout: %s counted per port:%s %lu sends left",
                             coll_by_lines(ctx) ? "lines" : "worms", len ? what : " all in;", (unsigned long)sends);
        }
    }
}

int coll_plan_wait(coll_plan *plan)
{
    if (!plan || !plan->started || !plan->ctx->running)
        return COLL_EARG;
    return wait_status(plan->ctx, plan->name, &plan->barrier, plan->recv_count);
}

/* The barrier alone (rvm_barrier). A call this node refused also takes part in it (its wormhole plan would
 * have), so that every node's barrier counts stay alike; then the others time out waiting
 * for its data, and the next call starts clean. */
int coll_barrier_only(coll_ctx *ctx, const char *name)
{
    return coll_barrier_on(ctx, 0, name);
}

int coll_barrier_on(coll_ctx *ctx, const coll_comm *comm, const char *name)
{
    static const uint16_t none[NI_MAX_PORTS + 1];
    if (!coll_comm_valid(ctx, comm))
        return coll_fail(ctx, COLL_EARG, name, "not a communicator of this node (coll_comm_line makes one)");
    /* the machine's rounds and links (built once), or a communicator's signal to each other
     * member, the lists port by port */
    const struct ni_desc *desc;
    const uint16_t *first, *count;
    coll_barrier_counts b;
    if (comm) {
        desc = comm->signal;
        first = comm->signal_first;
        count = comm->signal_count;
        b = coll_barrier_of(0, comm->counter, comm->size - 1u);
    } else {
        const uint32_t rounds = coll_barrier_rounds(ctx->ni.nodes);
        if (rounds == 0 || rounds > COLL_MAX_ROUNDS)
            return COLL_OK;
        coll_barrier_lists(ctx, rounds);
        desc = ctx->barrier;
        first = ctx->barrier_first;
        count = ctx->barrier_count;
        b = coll_barrier_of(rounds, 0, 0);
    }
    coll_start_image image;
    coll_start_image_of(ctx, none, desc, first, count, &image);
    int rc = post(ctx, name, &image, &b, 0, 0, 0, 0);
    if (rc != COLL_OK)
        return rc;
    return wait_status(ctx, name, &b, none);
}

int coll_skip_call(coll_ctx *ctx, const sched_table *t, const char *name)
{
    return coll_skip_call_on(ctx, 0, t, name);
}

int coll_skip_call_on(coll_ctx *ctx, const coll_comm *comm, const sched_table *t, const char *name)
{
    if (coll_wants_barrier(ctx, t))
        return coll_barrier_on(ctx, comm, name);
    NI_REG(NI_WIN_WORDS(0)) = 0;
    NI_REG(NI_WIN_WORDS(1)) = 0;
    NI_REG(NI_EPOCH) = NI_REG(NI_EPOCH) + 1u;
    return COLL_OK;
}
