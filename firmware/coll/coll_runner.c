/* SPDX-License-Identifier: ISC */
/* rvmesh collectives: the jobs runner (see coll_runner.h). */
#include "coll_runner.h"

#include <stdio.h>

#include "coll_internal.h"
#include "coll_jobs.h"
#include "rvmesh_rt.h"
#include "sched_coll.h"

/* A word of the area or of a record: volatile, the host reads and writes them. */
static volatile uint32_t *area_word(uint32_t *area, uint32_t offset)
{
    return (volatile uint32_t *)(area + offset / 4u);
}

/* Word w of block b: bytes 4w .. 4w+3 of coll_pattern, little endian (coll_pattern's hash
 * depends on i >> 2 only; its byte i & 3 is the hash's byte i & 3). */
static uint32_t pattern_word(uint32_t seed, uint32_t block, uint32_t w)
{
    uint32_t h = seed * 0x9e3779b1u ^ block * 0x85ebca77u ^ w * 0xc2b2ae3du;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

static void fill_block(uint32_t *dst, uint32_t seed, uint32_t block, uint32_t m)
{
    for (uint32_t w = 0; w < m / 4u; ++w)
        dst[w] = pattern_word(seed, block, w);
}

static void fill_poison(uint32_t *dst, uint32_t bytes)
{
    const uint32_t poison = COLL_POISON * 0x01010101u;
    for (uint32_t w = 0; w < bytes / 4u; ++w)
        dst[w] = poison;
}

/* The blocks this node owns into its send buffer (layout of coll.h). */
static void fill_send(const coll_ctx *ctx, const sched_table *t, uint32_t *send, uint32_t m, uint32_t seed)
{
    const uint32_t node = ctx->ni.node, nodes = ctx->ni.nodes, words = m / 4u;
    switch (t->collective) {
    case 1u: /* bcast (the buffer is the result buffer) */
        fill_block(send, seed, 0, m);
        break;
    case 2u: /* scatter: block t at t*m */
        for (uint32_t b = 0; b < nodes; ++b)
            fill_block(send + b * words, seed, b, m);
        break;
    case 17u:
    case 19u:
    case 20u: /* alltoall, partial gather: block node*N + t at t*m */
        for (uint32_t d = 0; d < nodes; ++d)
            fill_block(send + d * words, seed, node * nodes + d, m);
        break;
    default: /* gather, allgather: block node */
        fill_block(send, seed, node, m);
        break;
    }
}

/* The receive record that delivers piece `piece` here, for messages. */
static void sender_of(const sched_table *t, uint32_t piece, uint32_t *src, uint32_t *step)
{
    *src = UINT32_MAX;
    *step = 0;
    for (uint32_t i = 0; i < t->nrecv; ++i) {
        sched_table_recv r;
        sched_table_get_recv(t, i, &r);
        if (r.piece == piece && !(r.flags & SCHED_MSG_TRANSIT)) {
            *src = r.src;
            *step = r.step;
            return;
        }
    }
}

/* Does source `owner` have data in this partial collective? (Some node receives one of its
 * pieces, or it is this node and it sends one.) */
static int is_source(const coll_ctx *ctx, const sched_table *t, uint32_t owner, int self_has_data)
{
    if (owner == ctx->ni.node)
        return self_has_data;
    const uint32_t parts = sched_table_parts(t), nodes = ctx->ni.nodes;
    const int exchange = t->collective == 19u;
    for (uint32_t i = 0; i < t->nrecv; ++i) {
        sched_table_recv r;
        sched_table_get_recv(t, i, &r);
        uint32_t b = r.piece / parts;
        if ((exchange ? b / nodes : b) == owner)
            return 1;
    }
    return 0;
}

/* Checks the result buffer: every block the collective gives this node, poison elsewhere.
 * Prints the first problem (with the sender and step the table names) and returns 0. */
static int check_result(const coll_ctx *ctx, const sched_table *t, const uint32_t *recv, uint32_t recv_bytes,
                        uint32_t m, uint32_t seed, uint32_t job, int has_data)
{
    const uint32_t node = ctx->ni.node, nodes = ctx->ni.nodes, words = m / 4u;
    const uint32_t parts = sched_table_parts(t);
    const int exchange = t->collective == 17u || t->collective == 19u || t->collective == 20u;
    const int partial = t->collective == 18u || t->collective == 19u;
    /* partial gather: a destination gets every other node's block, any other node none */
    int destination = 0;
    for (uint32_t i = 0; t->collective == 20u && i < t->nrecv && !destination; ++i) {
        sched_table_recv r;
        sched_table_get_recv(t, i, &r);
        destination = !(r.flags & SCHED_MSG_TRANSIT) && (r.piece / parts) % nodes == node;
    }
    const uint32_t poison = COLL_POISON * 0x01010101u;
    const uint32_t slots = recv_bytes / m;   /* blocks of the result buffer */
    for (uint32_t slot = 0; slot < slots; ++slot) {
        /* the block that belongs at slot*m, if any (coll_result_offset has the last word) */
        uint32_t block = slot;
        if (t->collective == 1u)
            block = 0;
        else if (t->collective == 2u)
            block = node;
        else if (exchange)
            block = slot * nodes + node;
        if (coll_result_offset(t->collective, nodes, t->root, node, block, m) != slot * m)
            block = UINT32_MAX;
        if (block != UINT32_MAX && partial &&
            !is_source(ctx, t, exchange ? block / nodes : block, has_data))
            block = UINT32_MAX;
        if (block != UINT32_MAX && t->collective == 20u && (!destination || block / nodes == node))
            block = UINT32_MAX;
        const uint32_t *got = recv + slot * words;
        for (uint32_t w = 0; w < words; ++w) {
            uint32_t want = block == UINT32_MAX ? poison : pattern_word(seed, block, w);
            if (got[w] == want)
                continue;
            if (block == UINT32_MAX) {
                printf("node (%u,%u): job %lu: result byte %lu written (0x%08lx) where no block belongs\n",
                       ctx->ni.coord[0], ctx->ni.coord[1], (unsigned long)job, (unsigned long)(slot * m + 4u * w),
                       (unsigned long)got[w]);
                return 0;
            }
            uint32_t piece = block * parts + (4u * w) / (m / parts), src, step;
            sender_of(t, piece, &src, &step);
            if (src == UINT32_MAX)
                printf("node (%u,%u): job %lu: block %lu word %lu is 0x%08lx, want 0x%08lx (own block, copied "
                       "locally)\n", ctx->ni.coord[0], ctx->ni.coord[1], (unsigned long)job, (unsigned long)block,
                       (unsigned long)w, (unsigned long)got[w], (unsigned long)want);
            else
                printf("node (%u,%u): job %lu: block %lu word %lu is 0x%08lx, want 0x%08lx (piece %lu from node "
                       "%lu in step %lu)\n", ctx->ni.coord[0], ctx->ni.coord[1], (unsigned long)job,
                       (unsigned long)block, (unsigned long)w, (unsigned long)got[w], (unsigned long)want,
                       (unsigned long)piece, (unsigned long)src, (unsigned long)step);
            return 0;
        }
    }
    return 1;
}

static const char *collective_name(uint32_t c)
{
    switch (c) {
    case 1u: return "bcast";
    case 2u: return "scatter";
    case 3u: return "gather";
    case 16u: return "allgather";
    case 17u: return "alltoall";
    case 18u: return "allgather-partial";
    case 19u: return "alltoall-partial";
    case 20u: return "gather-partial";
    }
    return "?";
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

uint32_t coll_jobs_spare(uint32_t *area, uint32_t area_bytes, uint32_t **spare)
{
    uint64_t used = 0;
    if (area_bytes >= COLL_JOBS_HEADER_BYTES && *area_word(area, COLL_JOBS_MAGIC_OFF) == COLL_JOBS_MAGIC) {
        const uint32_t count = *area_word(area, COLL_JOBS_COUNT_OFF);
        used = COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * (uint64_t)count;
        for (uint32_t j = 0; j < count && used <= area_bytes; ++j) {
            const uint32_t rec = COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * j;
            const uint64_t end = (uint64_t)*area_word(area, rec + COLL_JOB_TABLE_OFF) +
                                 *area_word(area, rec + COLL_JOB_TABLE_BYTES);
            if (end > used)
                used = end;
        }
    }
    if (used < area_bytes)   /* from a 16-byte boundary */
        used += (16u - (((uintptr_t)area + (uintptr_t)used) & 15u)) & 15u;
    if (used >= area_bytes) {
        *spare = 0;
        return 0;
    }
    *spare = area + used / 4u;
    return area_bytes - (uint32_t)used;
}

int coll_jobs_run(coll_ctx *ctx, uint32_t *area, uint32_t area_bytes, uint32_t *arena, uint32_t arena_bytes,
                  coll_jobs_summary *summary)
{
    summary->jobs = summary->ok = 0;
    const int talk = ctx->ni.node == 0;
    if (*area_word(area, COLL_JOBS_MAGIC_OFF) != COLL_JOBS_MAGIC) {
        if (talk)
            printf("no jobs: run this program with mesh-sim --job TABLES:BYTES[:SEED]\n");
        return 0;
    }
    if (*area_word(area, COLL_JOBS_VERSION_OFF) != COLL_JOBS_VERSION) {
        printf("node (%u,%u): jobs area of version %lu, this program reads version %u\n", ctx->ni.coord[0],
               ctx->ni.coord[1], (unsigned long)*area_word(area, COLL_JOBS_VERSION_OFF), (unsigned)COLL_JOBS_VERSION);
        return 1;
    }
    for (uint32_t i = 0; i < 8u; ++i)   /* pattern_word is coll_pattern four bytes at a time */
        if ((uint8_t)(pattern_word(7u, 3u, i / 4u) >> (8u * (i % 4u))) != coll_pattern(7u, 3u, i)) {
            printf("coll_jobs_run: pattern_word disagrees with coll_pattern (coll_jobs.h changed?)\n");
            return 1;
        }
    const uint32_t count = *area_word(area, COLL_JOBS_COUNT_OFF), flags = *area_word(area, COLL_JOBS_FLAGS_OFF);
    summary->jobs = count;
    if (COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * (uint64_t)count > area_bytes) {
        printf("node (%u,%u): %lu job records do not fit the %lu-byte jobs area\n", ctx->ni.coord[0],
               ctx->ni.coord[1], (unsigned long)count, (unsigned long)area_bytes);
        return 1;
    }
    for (uint32_t j = 0; j < count; ++j) {
        const uint32_t rec = COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * j;
        const uint32_t table_off = *area_word(area, rec + COLL_JOB_TABLE_OFF);
        const uint32_t table_bytes = *area_word(area, rec + COLL_JOB_TABLE_BYTES);
        const uint32_t m = *area_word(area, rec + COLL_JOB_MSG_BYTES);
        const uint32_t seed = *area_word(area, rec + COLL_JOB_SEED);
        sched_table t;
        int rc;
        uint32_t cycle_start = 0, cycle_end = 0, send_addr = 0, recv_addr = 0, recv_bytes = 0, setup = 0;
        uint32_t send_need = 0, recv_need = 0;
        uint32_t *send = arena, *recv = arena;
        int checked = 0, has_data = 0, table_open = 0;
        coll_plan plan;
        ctx->err_src = ctx->err_port = 0;
        if (table_off > area_bytes || table_bytes > area_bytes - table_off) {
            printf("node (%u,%u): job %lu: table at %lu, %lu bytes, is outside the jobs area\n", ctx->ni.coord[0],
                   ctx->ni.coord[1], (unsigned long)j, (unsigned long)table_off, (unsigned long)table_bytes);
            rc = COLL_ETABLE;
        } else {
            rc = coll_open_table(ctx, (const uint8_t *)area + table_off, table_bytes, &t);
        }
        if (rc == COLL_OK) {
            table_open = 1;
            has_data = coll_node_has_data(ctx, &t);
            const int bcast = t.collective == 1u;
            /* m beyond the RAM is refused by sizes below (as a buffer too small) */
            const uint32_t m_sane = m > 0x100000u ? 0x100000u : m;
            send_need = bcast ? 0u : coll_send_bytes(ctx, &t, m_sane);
            recv_need = coll_recv_bytes(ctx, &t, m_sane);
            uint32_t send_cap = min_u32(send_need, arena_bytes) & ~3u;
            uint32_t recv_cap = min_u32(recv_need, arena_bytes - send_cap) & ~3u;
            recv = arena + send_cap / 4u;
            /* the plan's workspace: the rest of the arena, from a 16-byte boundary */
            uintptr_t ws = ((uintptr_t)(recv + recv_cap / 4u) + 15u) & ~(uintptr_t)15u;
            uint32_t used = (uint32_t)(ws - (uintptr_t)arena);
            uint32_t ws_bytes = arena_bytes > used ? arena_bytes - used : 0u;
            int fits = send_cap == send_need && recv_cap == recv_need && m_sane == m && m % 4u == 0;
            if (fits && has_data && !bcast)
                fill_send(ctx, &t, send, m, seed);
            if (fits)
                fill_poison(recv, recv_cap);
            if (fits && bcast && has_data)
                fill_block(recv, seed, 0, m);
            uint32_t t0 = RVMESH_CSR_READ(mcycle);
            rc = coll_plan_init(&plan, ctx, &t, send_cap ? send : 0, send_cap, recv_cap ? recv : 0, recv_cap, m,
                                (void *)ws, ws_bytes);
            setup = RVMESH_CSR_READ(mcycle) - t0;
            /* a node that refuses a plan still takes part in its barrier, or its epoch */
            if (rc != COLL_OK)
                coll_skip_call(ctx, &t, "coll_jobs_run");
        }
        /* the first barrier: every node set up, then all start together */
        *area_word(area, rec + COLL_JOB_SETUP) = setup;
        *area_word(area, COLL_JOBS_READY_OFF) = j + 1u;
        if (flags & COLL_JOBS_HOST_CHECK)
            while (*area_word(area, COLL_JOBS_GO_OFF) != j + 1u)
                ;
        if (rc == COLL_OK) {
            cycle_start = RVMESH_CSR_READ(mcycle);
            rc = coll_plan_start(&plan);
            if (rc == COLL_OK)
                rc = coll_plan_wait(&plan);
            cycle_end = rc == COLL_OK && ctx->end_cycle ? ctx->end_cycle : RVMESH_CSR_READ(mcycle);
            if (rc == COLL_OK) {
                send_addr = t.collective == 1u ? (has_data ? (uint32_t)(uintptr_t)recv : 0u)
                                               : (send_need ? (uint32_t)(uintptr_t)send : 0u);
                recv_addr = recv_need ? (uint32_t)(uintptr_t)recv : 0u;
                recv_bytes = recv_need;
                checked = check_result(ctx, &t, recv, recv_need, m, seed, j, has_data);
            }
        }
        (void)table_open;
        *area_word(area, rec + COLL_JOB_CYCLE_START) = cycle_start;
        *area_word(area, rec + COLL_JOB_CYCLE_END) = cycle_end;
        *area_word(area, rec + COLL_JOB_RECV_ADDR) = recv_addr;
        *area_word(area, rec + COLL_JOB_RECV_BYTES) = recv_bytes;
        *area_word(area, rec + COLL_JOB_SEND_ADDR) = send_addr;
        *area_word(area, rec + COLL_JOB_ERR_SRC) = ctx->err_src;
        *area_word(area, rec + COLL_JOB_ERR_STEP) = 0u;
        *area_word(area, rec + COLL_JOB_STATUS) = (uint32_t)rc;
        const int ok = rc == COLL_OK && checked;
        summary->ok += (uint32_t)ok;
        if (talk) {
            if (rc == COLL_OK)
                printf("job %lu: %s %s m=%lu: %s, %lu cycles (plan compiled in %lu)\n",
                       (unsigned long)j, collective_name(t.collective), sched_algo_name((sched_algo)t.algo),
                       (unsigned long)m, ok ? "ok" : "WRONG RESULT", (unsigned long)(cycle_end - cycle_start),
                       (unsigned long)setup);
            else
                printf("job %lu: m=%lu: error %d: %s\n", (unsigned long)j, (unsigned long)m, rc, coll_strerror(rc));
        }
        /* the handshake: done, then (host check) wait for the host's release */
        *area_word(area, COLL_JOBS_DONE_OFF) = j + 1u;
        if (flags & COLL_JOBS_HOST_CHECK)
            while (*area_word(area, COLL_JOBS_ACK_OFF) != j + 1u)
                ;
    }
    return summary->ok == count ? 0 : 1;
}
