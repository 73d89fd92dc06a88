/* SPDX-License-Identifier: ISC */
/* Host-side checker of the allreduce plans of firmware/coll/coll_ring.c (and of coll_dbl.c's
 * recursive doubling: DBL below).
 *
 * Compiles the real coll_ring.c and coll_barrier.c on the host (RVMESH_RAM_BASE is the address
 * of a host array: every use of it is a run-time expression; ni_has_combine() and mcycle are
 * replaced), compiles every node's plan of a 2-D torus, and runs the plans on an abstract
 * machine with random scheduling:
 *   - each node's lists (ports 0..3 and the local port 4) run in order; a descriptor starts once
 *     its trigger holds; a paced one reads line j of its payload only once counter >= threshold + j
 *     (line by line: the relay's reads interleave with the arriving writes);
 *   - a worm goes into the FIFO of its sender's port (bounded: back-pressure); the receiver
 *     writes it a RAM line at a time (plain or combining), counting a line at a time
 *     (NI_PUT_LINES) or once at the worm's end; multi-hop signals (the barrier's) travel alone;
 *   - nodes start at random times: a put waits at the receiver's port until it has started, a
 *     signal to a counter 0..6 (cleared at the start) before the start is an error;
 *   - every RAM word holds (sum of 64-bit keys, number of contributions, poison): node s's
 *     element i is key(s, i); apart, the result buffer starts as poison.
 * On the way: no data leaves a node before every node has started (the barrier), nothing reaches
 * a node once it is done (lists sent, counters 0..3 at their targets). At the end: no deadlock,
 * every counter 0..3 equals the plan's recv_count, the barrier counters their last counts, every
 * node's result holds every node's element exactly once, no poison, and every threshold is
 * exact (a paced relay's line j waits for the count that wrote that very RAM line; counted by
 * worms, for a worm that wrote part of its payload). Then faults are planted in copies of plans
 * and must be caught.
 *
 * ring_check [SEEDS [BIG]]: the test (20 seeds; BIG 0 leaves out 16x16 ... and the 8 Ki-word
 * counts); ring_check SEEDS 0 wide: every torus of sides 3 .. 32 up to 256 nodes.
 * Output: "ok NAME" / "bad NAME: why" lines (test_coll_ring.sh turns them into PASS / FAIL). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <time.h>

#define RVMESH_RAM_BYTES 131072u
#define HOST_RAM_WORDS (RVMESH_RAM_BYTES / 4u)
static uint32_t host_ram[HOST_RAM_WORDS] __attribute__((aligned(64)));
#define RVMESH_RAM_BASE ((uintptr_t)host_ram)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wint-to-pointer-cast"
#define ni_has_combine ni_has_combine_mmio
#include "linkport.h"
#undef ni_has_combine
#include "rvmesh_rt.h"
#pragma GCC diagnostic pop
static int host_combine = 1;
static inline int ni_has_combine(void) { return host_combine; }
#undef RVMESH_CSR_READ
#define RVMESH_CSR_READ(name) 0u

#include "../../../firmware/coll/coll_barrier.c"
#include "../../../firmware/coll/coll_ring.c"
#include "../../../firmware/coll/coll_dbl.c"

/* ---- what coll_ring.c needs besides ---- */
void coll_start_image_of(const coll_ctx *ctx, const uint16_t recv_count[NI_MAX_PORTS + 1], const struct ni_desc *desc,
                         const uint16_t first[NI_MAX_PORTS + 1], const uint16_t count[NI_MAX_PORTS + 1],
                         coll_start_image *image)
{
    (void)ctx; (void)recv_count; (void)desc; (void)first; (void)count;
    memset(image, 0, sizeof *image);
}

/* ---- random numbers ---- */
static uint64_t rng_state;
static uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
static uint32_t rnd(uint32_t n) { rng_state = splitmix(rng_state); return (uint32_t)((rng_state >> 32) % n); }

/* ---- the machine ---- */
#define MAX_NODES 1024
#define PORTS 5               /* 4 links and the local port */
#define MAX_DESC 512
#define CH_CAP_MAX 1024u      /* words a channel may hold */
#define CH_WORMS 512u

typedef struct { uint64_t sum; uint32_t cnt, poison; } val;

typedef struct {
    uint32_t dst, put, words, off;   /* receiver, put flit, payload words, offset in window */
    uint32_t nread, nwritten;        /* words read by the sender, written by the receiver */
    uint32_t lines_counted;
} worm;

typedef struct {
    worm w[CH_WORMS];
    uint32_t head, tail;             /* worms [head, tail) */
    val buf[CH_CAP_MAX];             /* words read and not written, a ring */
    uint32_t bhead, bcount;
} channel;

typedef struct {
    struct ni_desc desc[MAX_DESC];
    uint16_t first[PORTS], count[PORTS];
    uint16_t recv_count[PORTS];
    uint32_t barrier_first, barrier_counters, barrier_last;
} node_plan;

typedef struct {
    uint32_t cur[PORTS];             /* current descriptor of each list */
    uint32_t lines_read[PORTS];      /* of the current descriptor's payload (chunks) */
    int busy[PORTS];                 /* the current descriptor's worm has begun */
    uint32_t counter[NI_COUNTERS];
    int started, done;
    uint32_t start_at;
} node_state;

typedef struct { uint32_t dst, counter; } flying_signal;

static uint32_t X, Y, N, COUNT, LINE_WORDS, LB;
/* the rings of the lines along dimension LINE (coll_ring_line_compile: 0 the rows, 1 the
 * columns), or of the whole machine (coll_ring.c's RING_NO_LINE); MEMBERS: the nodes a result
 * combines */
static unsigned LINE = RING_NO_LINE;
static uint32_t MEMBERS;
static uint32_t line_of(uint32_t n) { return LINE == 0u ? n / X : LINE == 1u ? n % X : 0u; }
static int APART;
/* DBL: the plans of coll_dbl.c (recursive doubling) on a torus or (TORUS 0) a mesh: their
 * window is K blocks in the workspace (WIN words), the result the last (at RES); send is only
 * read */
static int DBL, TORUS = 1;
static uint32_t WIN, RES;
/* SCAT: the reduce-scatter (coll_ring_reduce_scatter_compile): the result is node n's block
 * (BLK = COUNT / N words at blk_word, window 1), elements [n BLK, (n + 1) BLK); recv is its
 * accumulator */
static int SCAT;
static uint32_t BLK, blk_word;
static uint32_t recv_word, send_word, lo_word, hi_word;
static node_plan *plans;
static node_state *st;
static channel *chans;               /* N * PORTS */
static val *ram;                     /* N * (hi - lo) */
static uint64_t *expect;             /* per line (line_of) and element */
static flying_signal *flying;
static uint32_t nflying, flying_cap;
static uint32_t ch_cap, started_nodes;
static int force_late;   /* every run has a node far behind (a fault of the barrier) */
static char err[512];
/* per node and counter 0..3, per count k: the RAM line (lines) or the worm's first word and words
 * (worms) whose write brought the counter to k: to check the thresholds exactly */
static uint32_t *at_count, at_stride;
static uint32_t *at_slot(uint32_t n, uint32_t c, uint32_t k) { return &at_count[((size_t)n * 4u + c) * at_stride + 2u * k]; }

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
    if (err[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, sizeof err, fmt, ap);
    va_end(ap);
}

static uint64_t key(uint32_t s, uint32_t i) { return splitmix(((uint64_t)s << 32) ^ i ^ 0x5a5a000000000000ull); }
static val *word_at(uint32_t n, uint32_t w) { return &ram[(size_t)n * (hi_word - lo_word) + (w - lo_word)]; }
static uint32_t nx(uint32_t n) { return n % X; }
static uint32_t ny(uint32_t n) { return n / X; }
static uint32_t node_at(int32_t x, int32_t y)
{
    x %= (int32_t)X; if (x < 0) x += (int32_t)X;
    y %= (int32_t)Y; if (y < 0) y += (int32_t)Y;
    return (uint32_t)x + X * (uint32_t)y;
}

/* chunk (RAM line, or 16 words without lines) boundaries: the end of the chunk holding word w */
static uint32_t chunk_end(uint32_t w) { const uint32_t cl = LB ? LB : 4u; return ((w >> cl) + 1u) << cl; }

/* ---- compile every node's plan ---- */
static int compile_all(uint32_t rofs, uint32_t sofs, const char **why)
{
    static coll_ctx ctx;
    static coll_plan plan;
    const uint32_t ws_words = 4096;   /* the workspace: words [0, 4096) */
    recv_word = ws_words + rofs;
    send_word = APART ? ((recv_word + COUNT + 15u) & ~15u) + sofs : recv_word;
    lo_word = recv_word < send_word ? recv_word : send_word;
    hi_word = (APART ? send_word : recv_word) + COUNT;
    WIN = COUNT;
    RES = 0;
    if (SCAT) {   /* the block above both */
        BLK = COUNT / MEMBERS;
        blk_word = ((hi_word + 15u) & ~15u) + (rofs + sofs) % 16u;
        hi_word = blk_word + BLK;
    }
    if (DBL) {   /* the window in the workspace (known once compiled), send above it */
        send_word = ws_words + sofs;
        lo_word = 0;
        hi_word = send_word + COUNT;
    }
    if (hi_word > HOST_RAM_WORDS) { *why = "buffers do not fit the RAM"; return -1; }
    for (uint32_t n = 0; n < N; ++n) {
        memset(&ctx, 0, sizeof ctx);
        ctx.ni.dims = 2; ctx.ni.torus = (uint8_t)TORUS; ctx.ni.ports = 4;
        ctx.ni.size[0] = (uint8_t)X; ctx.ni.size[1] = (uint8_t)Y; ctx.ni.size[2] = 1;
        ctx.ni.coord[0] = (uint8_t)nx(n); ctx.ni.coord[1] = (uint8_t)ny(n); ctx.ni.coord[2] = 0;
        ctx.ni.node = (uint16_t)n; ctx.ni.nodes = (uint16_t)N;
        ctx.initialised = 1; ctx.line_words = (uint8_t)LINE_WORDS; ctx.barrier_ready = 0;
        const uint32_t scratch = DBL ? 0u : COLL_RING_SCRATCH;
        const uint32_t need = DBL ? coll_dbl_allreduce_workspace(&ctx, COUNT)
                              : LINE == RING_NO_LINE ? coll_ring_allreduce_workspace(&ctx) : coll_ring_line_workspace(&ctx, LINE);
        if (need + scratch > ws_words * 4u) { *why = "workspace too large for the checker"; return -1; }
        memset(host_ram, 0xee, ws_words * 4u);
        /* exactly what the compiler says it needs (a byte less is refused) */
        for (uint32_t less = 4u;; less = 0u) {
            const uint32_t bytes = need + scratch - less;
            int rc = DBL ? coll_dbl_allreduce_compile(&plan, &ctx, &host_ram[send_word], COUNT, NI_COMBINE_SUM, host_ram,
                                                      bytes, "check")
                   : SCAT && LINE != RING_NO_LINE
                         ? coll_ring_line_reduce_scatter_compile(&plan, &ctx, LINE, &host_ram[send_word], &host_ram[recv_word],
                                                                 &host_ram[blk_word], COUNT, NI_COMBINE_SUM, host_ram, bytes,
                                                                 "check")
                   : SCAT ? coll_ring_reduce_scatter_compile(&plan, &ctx, &host_ram[send_word], &host_ram[recv_word],
                                                             &host_ram[blk_word], COUNT, NI_COMBINE_SUM, host_ram, bytes, "check")
                   : LINE == RING_NO_LINE
                         ? coll_ring_allreduce_compile(&plan, &ctx, &host_ram[send_word], &host_ram[recv_word], COUNT,
                                                       NI_COMBINE_SUM, host_ram, bytes, "check")
                         : coll_ring_line_compile(&plan, &ctx, LINE, &host_ram[send_word], &host_ram[recv_word], COUNT,
                                                  NI_COMBINE_SUM, host_ram, bytes, "check");
            if (less && rc == COLL_EARG) {   /* refused whatever the workspace */
                *why = "the compiler refused the call (COLL_EARG)";
                return rc;
            }
            if (less && rc != COLL_EWORKSPACE) {
                *why = "a workspace 4 bytes short of what the compiler says it needs was taken";
                return -1;
            }
            if (less)
                continue;
            if (rc != COLL_OK) {
                static char b[128];
                snprintf(b, sizeof b, "node %u: compile returned %d", n, rc);
                *why = b;
                return rc;
            }
            break;
        }
        node_plan *np = &plans[n];
        uint32_t total = 0;
        for (unsigned p = 0; p < PORTS; ++p) {
            np->first[p] = plan.list_first[p];
            np->count[p] = plan.list_count[p];
            np->recv_count[p] = plan.recv_count[p];
            if ((uint32_t)plan.list_first[p] + plan.list_count[p] > total)
                total = (uint32_t)plan.list_first[p] + plan.list_count[p];
        }
        for (unsigned p = PORTS; p <= NI_MAX_PORTS; ++p)
            if (plan.list_count[p]) { *why = "a list past the local port"; return -1; }
        if (total > MAX_DESC || total * 16u > need) { *why = "descriptors past the workspace size"; return -1; }
        memcpy(np->desc, plan.desc, total * sizeof(struct ni_desc));
        np->barrier_first = plan.barrier.first;
        np->barrier_counters = plan.barrier.counters;
        np->barrier_last = plan.barrier.last;
        if (DBL) {
            const uint32_t w = (uint32_t)(((uintptr_t)plan.recv - (uintptr_t)host_ram) / 4u);
            if (n > 0 && (w != recv_word || plan.recv_words != WIN)) { *why = "the nodes' windows differ"; return -1; }
            if ((uint8_t *)plan.recv < (uint8_t *)host_ram + 16u * total || 4u * (w + plan.recv_words) > need ||
                plan.recv_words % COUNT || (const uint8_t *)coll_dbl_result(&plan) != (uint8_t *)plan.recv + 4u * (plan.recv_words - COUNT)) {
                *why = "the plan's window (its K blocks) is not past its descriptors within its workspace";
                return -1;
            }
            recv_word = w;
            WIN = plan.recv_words;
            RES = WIN - COUNT;
        } else if (plan.recv != (uint8_t *)&host_ram[recv_word] || plan.recv_words != COUNT) { *why = "plan's recv"; return -1; }
        if (SCAT ? plan.transit != (uint8_t *)&host_ram[blk_word] || plan.transit_words != BLK
                 : plan.transit != 0 || plan.transit_words != 0) {
            *why = "the plan's window 1 (the reduce-scatter's block)";
            return -1;
        }
    }
    return 0;
}

/* ---- one run ---- */
static void init_run(void)
{
    const uint32_t span = hi_word - lo_word;
    for (uint32_t n = 0; n < N; ++n) {
        memset(&st[n], 0, sizeof st[n]);
        if (DBL) {   /* send holds the node's own elements, the window garbage */
            for (uint32_t i = 0; i < COUNT; ++i) {
                val own = {key(n, i), 1, 0};
                *word_at(n, send_word + i) = own;
            }
            for (uint32_t i = 0; i < WIN; ++i) {
                val poison = {0x1234, 0, 1};
                *word_at(n, recv_word + i) = poison;
            }
        }
        for (uint32_t i = 0; i < COUNT && !DBL; ++i) {
            val own = {key(n, i), 1, 0};
            if (APART) {
                *word_at(n, send_word + i) = own;
                val poison = {0x1234, 0, 1};
                *word_at(n, recv_word + i) = poison;
            } else {
                *word_at(n, recv_word + i) = own;
            }
        }
        for (uint32_t i = 0; i < BLK && SCAT; ++i) {
            val poison = {0x4321, 0, 1};
            *word_at(n, blk_word + i) = poison;
        }
        (void)span;
        for (unsigned p = 0; p < PORTS; ++p) {
            channel *c = &chans[n * PORTS + p];
            c->head = c->tail = c->bhead = c->bcount = 0;
        }
    }
    nflying = 0;
    started_nodes = 0;
    err[0] = 0;
}

static int trig_ok(const node_state *s, uint32_t trigger, uint32_t line)
{
    if (!(trigger & (1u << 20)))
        return 1;
    const uint32_t c = (trigger >> 16) & 15u, thr = trigger & 0xffffu;
    const uint32_t need = thr + ((trigger & NI_PACED) ? line : 0u);
    return s->counter[c] >= need;
}

/* PLAN_STATUS.done: every list sent, counters 0..3 at their targets. Nothing may reach a node
 * after that (it would land in the caller's buffers, or count in the next run). */
static void check_done(uint32_t n)
{
    node_state *s = &st[n];
    if (s->done)
        return;
    for (unsigned p = 0; p < PORTS; ++p)
        if (s->cur[p] < plans[n].count[p])
            return;
    for (unsigned c = 0; c < PORTS; ++c)   /* (the rings set no target on the local port's; the doubling does) */
        if (s->counter[c] < plans[n].recv_count[c])
            return;
    s->done = 1;
}

static void count(uint32_t n, uint32_t counter, uint32_t by)
{
    if (st[n].done)
        failf("node %u: a worm counted on counter %u after the node was done", n, counter);
    st[n].counter[counter] += by;
    if (st[n].counter[counter] > 0xffffu)
        failf("node %u: counter %u passed 0xffff", n, counter);
}

/* the sender side of list p of node n: one step; 1 if it moved */
static int tx_step(uint32_t n, unsigned p)
{
    node_state *s = &st[n];
    const node_plan *np = &plans[n];
    if (!s->started || s->cur[p] >= np->count[p])
        return 0;
    const struct ni_desc *d = &np->desc[np->first[p] + s->cur[p]];
    const uint32_t words = d->payload >> 16, pw = d->payload & 0xffffu;
    channel *c = &chans[n * PORTS + p];
    if (!s->busy[p]) {
        if (!trig_ok(s, d->trigger, 0))
            return 0;
        /* the worm's receiver */
        const int dx = NOC_HEAD_COUNT(d->head, 0), dy = NOC_HEAD_COUNT(d->head, 1);
        const uint32_t dst = node_at((int32_t)nx(n) + dx, (int32_t)ny(n) + dy);
        const int want = ni_port_for(dx, dy, 0, NOC_HEAD_START(d->head));
        if (p == 4u ? (dx || dy) : want != (int)p) {
            failf("node %u port %u desc %u: head %08x leaves by another port (%d)", n, p, s->cur[p], d->head, want);
            return 0;
        }
        const uint32_t kind = d->put >> 28;
        if (kind == 1u) {
            if (words)
                failf("node %u port %u desc %u: a signal with a payload", n, p, s->cur[p]);
            const uint32_t ctr = (d->put >> 18) & 15u;
            const int onehop = p == 4u || abs(dx) + abs(dy) == 1;
            if (!onehop) {   /* multi-hop: travels alone */
                if (nflying == flying_cap) { failf("too many signals in flight"); return 0; }
                flying[nflying].dst = dst;
                flying[nflying++].counter = ctr;
                s->cur[p]++;
                check_done(n);
                return 1;
            }
        } else if (kind != 0u && kind != 2u) {
            failf("node %u port %u desc %u: put kind %u", n, p, s->cur[p], kind);
            return 0;
        }
        if (words && started_nodes < N) {
            failf("node %u port %u desc %u: sends data while %u nodes have not started (the barrier let it through)", n, p,
                  s->cur[p], N - started_nodes);
            return 0;
        }
        if (words && (pw < lo_word || pw + words > hi_word)) {
            failf("node %u port %u desc %u: payload [%u, +%u) outside the buffers", n, p, s->cur[p], pw, words);
            return 0;
        }
        if (c->tail - c->head >= CH_WORMS) return 0;
        worm *w = &c->w[c->tail % CH_WORMS];
        w->dst = dst; w->put = d->put; w->words = words; w->off = d->put & 0xffffu;
        w->nread = w->nwritten = w->lines_counted = 0;
        c->tail++;
        s->busy[p] = 1;
        s->lines_read[p] = 0;
        if (!words) { s->busy[p] = 0; s->cur[p]++; check_done(n); }
        return 1;
    }
    /* the payload, a line (chunk) at a time */
    worm *w = &c->w[(c->tail - 1u) % CH_WORMS];
    if (!trig_ok(s, d->trigger, s->lines_read[p]))
        return 0;
    const uint32_t from = pw + w->nread;
    uint32_t to = chunk_end(from);
    if (to > pw + words) to = pw + words;
    if (c->bcount + (to - from) > ch_cap)
        return 0;
    for (uint32_t a = from; a < to; ++a)
        c->buf[(c->bhead + c->bcount++) % CH_CAP_MAX] = *word_at(n, a);
    w->nread += to - from;
    s->lines_read[p]++;
    if (w->nread == words) { s->busy[p] = 0; s->cur[p]++; check_done(n); }
    return 1;
}

/* the receiver side of channel (n, p): one step */
static int rx_step(uint32_t n, unsigned p)
{
    channel *c = &chans[n * PORTS + p];
    if (c->head == c->tail)
        return 0;
    worm *w = &c->w[c->head % CH_WORMS];
    node_state *r = &st[w->dst];
    const uint32_t kind = w->put >> 28, ctr = (w->put >> 18) & 15u;
    if (kind == 1u) {   /* a one-hop signal: counts, whatever the epoch */
        if (!r->started && ctr <= NI_MAX_PORTS) {
            failf("node %u: a signal on counter %u from node %u port %u before its start (the start clears it)", w->dst, ctr, n, p);
            return 0;
        }
        count(w->dst, ctr, 1);
        c->head++;
        check_done(w->dst);
        return 1;
    }
    if (!r->started)
        return 0;   /* a put of the next plan waits at the port */
    const uint32_t win = (w->put >> 16) & 3u, win_base = win ? blk_word : recv_word, win_words = win ? BLK : WIN;
    if (win > (SCAT ? 1u : 0u)) { failf("node %u: a put to window %u", n, win); return 0; }
    if (w->off + w->words > win_words) {
        failf("node %u port %u: put [%u, +%u) outside node %u's window %u of %u", n, p, w->off, w->words, w->dst, win,
              win_words);
        return 0;
    }
    const int lines = (w->put & NI_PUT_LINES) != 0;
    if (w->words == 0) {
        count(w->dst, ctr, 1);
        c->head++;
        check_done(w->dst);
        return 1;
    }
    const uint32_t from = win_base + w->off + w->nwritten;
    uint32_t to = chunk_end(from);
    if (to > win_base + w->off + w->words) to = win_base + w->off + w->words;
    const uint32_t k = to - from;
    if (w->nread - w->nwritten < k)
        return 0;   /* the line's words are not all in */
    for (uint32_t a = from; a < to; ++a) {
        val v = c->buf[c->bhead];
        c->bhead = (c->bhead + 1u) % CH_CAP_MAX;
        c->bcount--;
        val *m = word_at(w->dst, a);
        if (r->done && !err[0])
            failf("node %u: element %u written after the node was done", w->dst, a - recv_word);
        if (kind == 0u) {
            *m = v;
        } else {
            m->sum += v.sum;
            m->cnt += v.cnt;
            m->poison |= v.poison;
            if (m->cnt > MEMBERS && !err[0])
                failf("node %u: element %u combined from %u contributions (double count; put from node %u port %u)",
                      w->dst, a - recv_word, m->cnt, n, p);
        }
    }
    w->nwritten += k;
    if (lines) {
        count(w->dst, ctr, 1);
        if (ctr < 4u && r->counter[ctr] < at_stride / 2u)
            at_slot(w->dst, ctr, r->counter[ctr])[0] = from >> LB;
    }
    if (w->nwritten == w->words) {
        if (!lines) {
            count(w->dst, ctr, 1);
            if (ctr < 4u && r->counter[ctr] < at_stride / 2u) {
                at_slot(w->dst, ctr, r->counter[ctr])[0] = recv_word + w->off;
                at_slot(w->dst, ctr, r->counter[ctr])[1] = w->words;
            }
        }
        c->head++;
    }
    check_done(w->dst);
    return 1;
}

static int run_sim(uint64_t seed)
{
    rng_state = splitmix(seed * 7919u + 17u);
    init_run();
    const uint32_t actors = 2u * N * PORTS;
    static uint32_t perm[2u * MAX_NODES * PORTS];
    static uint8_t speed[2u * MAX_NODES * PORTS];
    for (uint32_t a = 0; a < actors; ++a) {
        perm[a] = a;
        /* of 64: how often it acts (some actors slow, a few very slow) */
        speed[a] = (uint8_t)(rnd(4) ? 64u : rnd(4) ? 16u + rnd(48) : 4u + rnd(8));
    }
    for (uint32_t a = actors; a > 1; --a) {
        uint32_t b = rnd(a), t = perm[a - 1u];
        perm[a - 1u] = perm[b]; perm[b] = t;
    }
    const uint32_t stagger = rnd(3) == 0 ? 0u : rnd(40);
    for (uint32_t n = 0; n < N; ++n)
        st[n].start_at = stagger ? rnd(stagger) : 0u;
    if (rnd(3) == 0 || force_late)   /* one node far behind */
        st[rnd(N)].start_at = 200u + rnd(200);
    ch_cap = rnd(2) ? CH_CAP_MAX : 32u << rnd(3);   /* two lines at least: a line read, a line written */
    for (uint32_t sweep = 0;; ++sweep) {
        uint32_t progress = 0, waiting = 0;
        for (uint32_t n = 0; n < N; ++n)
            if (!st[n].started) {
                if (sweep >= st[n].start_at) {
                    st[n].started = 1;
                    ++started_nodes;
                    /* a node's start clears its counters 0 .. NI_MAX_PORTS (and checks none came early) */
                    ++progress;
                } else
                    ++waiting;
            }
        const uint32_t off = rnd(actors);
        for (uint32_t i = 0; i < actors && !err[0]; ++i) {
            const uint32_t a = perm[(i + off) % actors];
            if (speed[a] < 64u && rnd(64) >= speed[a])
                continue;
            const uint32_t burst = 1u + rnd(4);
            const uint32_t n = (a / 2u) / PORTS, p = (a / 2u) % PORTS;
            for (uint32_t b = 0; b < burst; ++b)
                if (a & 1u ? rx_step(n, p) : tx_step(n, p)) ++progress;
                else break;
        }
        for (uint32_t f = 0; f < nflying && !err[0];) {
            if (rnd(2)) {
                const uint32_t dst = flying[f].dst, ctr = flying[f].counter;
                if (!st[dst].started && ctr <= NI_MAX_PORTS) {
                    failf("node %u: a signal on counter %u before its start", dst, ctr);
                    break;
                }
                count(dst, ctr, 1);
                flying[f] = flying[--nflying];
                check_done(dst);
                ++progress;
            } else
                ++f;
        }
        if (err[0])
            return 0;
        if (progress || waiting || nflying)
            continue;
        /* nothing moved this sweep: try every actor once */
        for (uint32_t a = 0; a < actors && !progress && !err[0]; ++a) {
            const uint32_t n = (a / 2u) / PORTS, p = (a / 2u) % PORTS;
            progress += (uint32_t)(a & 1u ? rx_step(n, p) : tx_step(n, p));
        }
        if (err[0])
            return 0;
        if (progress)
            continue;
        /* done, or stuck */
        for (uint32_t n = 0; n < N; ++n)
            for (unsigned p = 0; p < PORTS; ++p) {
                if (st[n].cur[p] < plans[n].count[p]) {
                    const struct ni_desc *d = &plans[n].desc[plans[n].first[p] + st[n].cur[p]];
                    const uint32_t c = (d->trigger >> 16) & 15u;
                    failf("deadlock: node %u (%u,%u) port %u desc %u of %u waits (head %08x payload %08x trigger %08x put %08x: "
                              "counter %u >= %u%s, %s line %u; counter is %u; channel %u worms, %u words)",
                              n, nx(n), ny(n), p, st[n].cur[p], plans[n].count[p], d->head, d->payload, d->trigger, d->put, c,
                              d->trigger & 0xffffu, d->trigger & NI_PACED ? " + line" : "", st[n].busy[p] ? "sending" : "not begun",
                              st[n].lines_read[p], st[n].counter[c], chans[n * PORTS + p].tail - chans[n * PORTS + p].head,
                              chans[n * PORTS + p].bcount);
                    return 0;
                }
                if (chans[n * PORTS + p].head != chans[n * PORTS + p].tail) {
                    failf("deadlock: a worm of node %u port %u never delivered", n, p);
                    return 0;
                }
            }
        break;
    }
    /* the end */
    for (uint32_t n = 0; n < N; ++n) {
        if (!st[n].done) { failf("node %u never done", n); return 0; }
        for (unsigned q = 0; q < PORTS; ++q)
            if (st[n].counter[q] != plans[n].recv_count[q] && (q < 4u || plans[n].recv_count[q])) {
                failf("node %u: counter %u is %u, the plan's target %u", n, q, st[n].counter[q], plans[n].recv_count[q]);
                return 0;
            }
        for (uint32_t r = 0; r < plans[n].barrier_counters; ++r) {
            const uint32_t c = plans[n].barrier_first + r, want = r + 1u == plans[n].barrier_counters ? plans[n].barrier_last : coll_barrier_heard(r);
            if (st[n].counter[c] != want) {
                failf("node %u: barrier counter %u is %u, not %u", n, c, st[n].counter[c], want);
                return 0;
            }
        }
        /* the block: its elements of the sum (its line's: block `rank` of the line's), and nothing else */
        const uint32_t rank = LINE == 0u ? nx(n) : LINE == 1u ? ny(n) : n;
        for (uint32_t i = 0; i < BLK && SCAT; ++i) {
            const val *v = word_at(n, blk_word + i);
            if (v->poison || v->cnt != MEMBERS || v->sum != expect[(size_t)line_of(n) * COUNT + rank * BLK + i]) {
                failf("node %u (%u,%u): block element %u (element %u): %s%u contributions%s", n, nx(n), ny(n), i, rank * BLK + i,
                      v->poison ? "garbage, " : "", v->cnt, v->cnt == MEMBERS && !v->poison ? " but the wrong ones" : "");
                return 0;
            }
        }
        for (uint32_t i = 0; i < COUNT; ++i) {
            const val *v = word_at(n, recv_word + RES + i);
            if (SCAT) {   /* the accumulator is scratch; send stays apart */
                if (APART && (word_at(n, send_word + i)->cnt != 1 || word_at(n, send_word + i)->sum != key(n, i))) {
                    failf("node %u: send element %u changed", n, i);
                    return 0;
                }
                continue;
            }
            if (v->poison || v->cnt != MEMBERS || v->sum != expect[(size_t)line_of(n) * COUNT + i]) {
                failf("node %u (%u,%u): element %u: %s%u contributions%s", n, nx(n), ny(n), i, v->poison ? "garbage, " : "", v->cnt,
                      v->cnt == MEMBERS && !v->poison ? " but the wrong ones" : "");
                return 0;
            }
            if (APART || DBL) {
                const val *o = word_at(n, send_word + i);
                if (o->cnt != 1 || o->sum != key(n, i)) { failf("node %u: send element %u changed", n, i); return 0; }
            }
        }
        /* the thresholds, exactly: a paced relay's line j waits for the count that wrote that very
         * line; a relay counted by worms waits for a worm that wrote part of its payload */
        for (unsigned p = 0; p < 4u; ++p)
            for (unsigned k = 0; k < plans[n].count[p]; ++k) {
                const struct ni_desc *d = &plans[n].desc[plans[n].first[p] + k];
                const uint32_t c = (d->trigger >> 16) & 15u, t = d->trigger & 0xffffu;
                const uint32_t pw = d->payload & 0xffffu, words = d->payload >> 16;
                if (!(d->trigger & (1u << 20)) || c >= 4u || !words || pw < recv_word || pw >= recv_word + WIN)
                    continue;
                if (d->trigger & NI_PACED) {
                    const uint32_t L = ((pw + words - 1u) >> LB) - (pw >> LB) + 1u;
                    for (uint32_t j = 0; j < L; ++j)
                        if (t + j > plans[n].recv_count[c] || t + j == 0 || at_slot(n, c, t + j)[0] != (pw >> LB) + j) {
                            failf("node %u port %u desc %u: paced threshold %u on counter %u: line %u of the payload (RAM line %u) is not the one counted at %u (%u)",
                                  n, p, k, t, c, j, (pw >> LB) + j, t + j, t + j <= plans[n].recv_count[c] ? at_slot(n, c, t + j)[0] : 0u);
                            return 0;
                        }
                } else if (!LB) {
                    if (t == 0 || t > plans[n].recv_count[c]) {
                        failf("node %u port %u desc %u: threshold %u past counter %u's %u", n, p, k, t, c, plans[n].recv_count[c]);
                        return 0;
                    }
                    const uint32_t *w = at_slot(n, c, t);
                    if (w[0] >= pw + words || pw >= w[0] + w[1]) {
                        failf("node %u port %u desc %u: waits for worm %u on counter %u, which wrote [%u, +%u), none of its payload [%u, +%u)",
                              n, p, k, t, c, w[0], w[1], pw, words);
                        return 0;
                    }
                }
            }
    }
    return 1;
}

static int setup(uint32_t x, uint32_t y, uint32_t count_, int apart, uint32_t line_words, uint32_t rofs, uint32_t sofs,
                 const char **why)
{
    X = x; Y = y; N = x * y; COUNT = count_; APART = apart; LINE_WORDS = line_words;
    MEMBERS = LINE == 0u ? X : LINE == 1u ? Y : N;
    LB = 0;
    while ((1u << LB) < line_words) ++LB;
    if (line_words < 4u) LB = 0;
    int rc = compile_all(rofs, sofs, why);
    if (rc)
        return rc;
    const size_t span = hi_word - lo_word;
    free(ram);
    ram = malloc((size_t)N * span * sizeof(val));
    free(expect);
    expect = malloc((size_t)N * COUNT * sizeof(uint64_t));
    uint32_t most = 0;
    for (uint32_t n = 0; n < N; ++n)
        for (unsigned c = 0; c < 4u; ++c)
            if (plans[n].recv_count[c] > most) most = plans[n].recv_count[c];
    at_stride = 2u * (most + 2u);
    free(at_count);
    at_count = calloc((size_t)N * 4u * at_stride, sizeof(uint32_t));
    if (!ram || !expect || !at_count) { *why = "out of memory"; return -1; }
    MEMBERS = LINE == 0u ? X : LINE == 1u ? Y : N;
    memset(expect, 0, (size_t)N * COUNT * sizeof(uint64_t));
    for (uint32_t s = 0; s < N; ++s)
        for (uint32_t i = 0; i < COUNT; ++i)
            expect[(size_t)line_of(s) * COUNT + i] += key(s, i);
    return 0;
}

static uint32_t configs, runs, failures;
static const char *line_name(void)
{
    return DBL ? (TORUS ? " doubling torus" : " doubling mesh")
           : SCAT ? (LINE == 0u ? " rows reduce-scatter" : LINE == 1u ? " columns reduce-scatter" : " reduce-scatter")
           : LINE == 0u ? " rows" : LINE == 1u ? " columns" : "";
}

static void check_config(uint32_t x, uint32_t y, uint32_t count_, int apart, uint32_t lw, uint32_t rofs, uint32_t sofs,
                         uint32_t seeds)
{
    const char *why = NULL;
    int rc = setup(x, y, count_, apart, lw, rofs, sofs, &why);
    ++configs;
    if (rc) {
        ++failures;
        printf("bad coll-ring %ux%u%s count %u %s lines %u recv+%u send+%u: %s\n", x, y, line_name(), count_,
               apart ? "apart" : "in-place", lw, rofs, sofs, why ? why : "setup failed");
        return;
    }
    for (uint32_t s = 0; s < seeds; ++s) {
        ++runs;
        if (!run_sim(s + 1000u * count_ + 7u * x + 131u * y)) {
            ++failures;
            printf("bad coll-ring %ux%u%s count %u %s lines %u recv+%u send+%u seed %u: %s\n", x, y, line_name(), count_,
                   apart ? "apart" : "in-place", lw, rofs, sofs, s, err);
            return;
        }
    }
}

/* ---- planted faults ---- */
typedef void (*mutation)(void);
static uint32_t victim;

/* the first paced descriptor of port 0 after `skip` of them: threshold - 1 */
static void lower_paced(void)
{
    node_plan *np = &plans[victim];
    unsigned seen = 0;
    for (unsigned k = 0; k < np->count[0]; ++k) {
        struct ni_desc *d = &np->desc[np->first[0] + k];
        if ((d->trigger & NI_PACED) && ++seen == 2u) { d->trigger -= 1u; return; }
    }
}
/* two relays of port 0 (phase A's steps 2 and 3) swapped */
static void swap_two(void)
{
    node_plan *np = &plans[victim];
    unsigned seen = 0, first = 0;
    for (unsigned k = 0; k < np->count[0]; ++k) {
        struct ni_desc *d = &np->desc[np->first[0] + k];
        if ((d->trigger & (1u << 20)) && ((d->trigger >> 16) & 15u) < 4u && (d->payload >> 16)) {
            if (++seen == 1u) first = k;
            else {
                struct ni_desc t = np->desc[np->first[0] + first];
                np->desc[np->first[0] + first] = *d;
                *d = t;
                return;
            }
        }
    }
}
/* a combining put made plain (phase B's first) */
static void combine_to_plain(void)
{
    node_plan *np = &plans[victim];
    unsigned seen = 0;
    for (unsigned k = 0; k < np->count[0]; ++k) {
        struct ni_desc *d = &np->desc[np->first[0] + k];
        if ((d->put >> 28) == 2u && ++seen == 2u) { d->put &= 0x0fffffffu; return; }
    }
}
/* the RING_DONE wait of phase B lowered (apart): 4 -> 3 */
static void ring_done_early(void)
{
    node_plan *np = &plans[victim];
    for (unsigned p = 0; p < 4u; ++p)
        for (unsigned k = 0; k < np->count[p]; ++k) {
            struct ni_desc *d = &np->desc[np->first[p] + k];
            if ((d->trigger & (1u << 20)) && ((d->trigger >> 16) & 15u) >= 5u && ((d->trigger >> 16) & 15u) <= 6u &&
                (d->trigger & 0xffffu) == 4u) { d->trigger -= 1u; return; }
        }
}

/* the reduce-scatter's finals (heads tagged 56 .. 59, on any list): the first part's trigger
 * one count short (its sub-segment read before phase B has combined it whole) */
static int is_final(const struct ni_desc *d) { return NOC_HEAD_TAG(d->head) >= 56u && NOC_HEAD_TAG(d->head) < 60u; }
static void scat_final_early(void)
{
    node_plan *np = &plans[victim];
    for (unsigned p = 0; p < PORTS; ++p)
        for (unsigned k = 0; k < np->count[p]; ++k) {
            struct ni_desc *d = &np->desc[np->first[p] + k];
            if (is_final(d) && (d->trigger & (1u << 20)) && (d->trigger & 0xffffu) > 1u)
                d->trigger -= 1u;
        }
}
/* an owner's local target one short: done before its block's last line */
static void scat_target_short(void) { plans[victim].recv_count[4]--; }
/* apart, the finals' second part (the node's own elements, combining) made plain */
static void scat_own_plain(void)
{
    node_plan *np = &plans[victim];
    for (unsigned p = 0; p < PORTS; ++p)
        for (unsigned k = 0; k < np->count[p]; ++k) {
            struct ni_desc *d = &np->desc[np->first[p] + k];
            if (is_final(d) && (d->put >> 28) == 2u) { d->put &= 0x0fffffffu; return; }
        }
}

/* the data's wait for the barrier (the last round's counter >= 2) lowered to 1 */
static void barrier_early(void)
{
    node_plan *np = &plans[victim];
    for (unsigned p = 0; p < 4u; ++p)
        for (unsigned k = 0; k < np->count[p]; ++k) {
            struct ni_desc *d = &np->desc[np->first[p] + k];
            if ((d->payload >> 16) && (d->trigger & (1u << 20)) && ((d->trigger >> 16) & 15u) >= COLL_BARRIER_COUNTER)
                d->trigger -= 1u;
        }
}

/* port 0's receive target one short: the node is done before its last line */
static void target_short(void) { plans[victim].recv_count[0]--; }

/* the doubling (coll_dbl.c): the local port's signal that round 0's block is whole sent once
 * the partner's put is in (>= 1, not 2): round 1's own combine may read the block before this
 * node's own elements are combined into it */
static void dbl_signal_early(void)
{
    node_plan *np = &plans[victim];
    for (unsigned k = 0; k < np->count[4]; ++k) {
        struct ni_desc *d = &np->desc[np->first[4] + k];
        if ((d->put >> 28) == 1u && (d->trigger & (1u << 20)) && ((d->trigger >> 16) & 15u) < COLL_BARRIER_COUNTER &&
            (d->trigger & 0xffffu) == 2u) { d->trigger -= 1u; return; }
    }
}
/* the doubling: round 1's put to the partner once round 0's block has the partner's part (>= 1) */
static void dbl_put_early(void)
{
    node_plan *np = &plans[victim];
    for (unsigned p = 0; p < 4u; ++p)
        for (unsigned k = 0; k < np->count[p]; ++k) {
            struct ni_desc *d = &np->desc[np->first[p] + k];
            if ((d->payload >> 16) && (d->trigger & (1u << 20)) && ((d->trigger >> 16) & 15u) < COLL_BARRIER_COUNTER &&
                (d->trigger & 0xffffu) == 2u) { d->trigger -= 1u; return; }
        }
}
/* the doubling: the local counter's target one short (done before the last round's block is whole) */
static void dbl_target_short(void) { plans[victim].recv_count[4]--; }
/* the doubling: the local combine of the first round made plain (the partner's part lost) */
static void dbl_combine_to_plain(void)
{
    node_plan *np = &plans[victim];
    for (unsigned k = 0; k < np->count[4]; ++k) {
        struct ni_desc *d = &np->desc[np->first[4] + k];
        if ((d->put >> 28) == 2u) { d->put &= 0x0fffffffu; return; }
    }
}

static void fault(const char *name, uint32_t x, uint32_t y, uint32_t count_, int apart, uint32_t lw, mutation m,
                  int one_node, uint32_t seeds)
{
    const char *why = NULL;
    if (setup(x, y, count_, apart, lw, 1, 9, &why)) {
        printf("bad coll-ring-fault %s: setup: %s\n", name, why ? why : "?");
        ++failures;
        return;
    }
    /* the same descriptor of every node (one_node: of node (1,1) alone) */
    node_plan *copy = malloc(N * sizeof *copy);
    if (!copy) { printf("bad coll-ring-fault %s: out of memory\n", name); ++failures; return; }
    memcpy(copy, plans, N * sizeof *copy);
    for (victim = one_node ? 1u + X : 0u; victim < (one_node ? 2u + X : N); ++victim) {
        m();
        if (!memcmp(&copy[victim], &plans[victim], sizeof *copy)) {
            printf("bad coll-ring-fault %s: found nothing to change\n", name);
            ++failures;
            free(copy);
            return;
        }
    }
    uint32_t caught = 0;
    char example[512] = "";
    for (uint32_t s = 0; s < seeds; ++s)
        if (!run_sim(s + 99991u)) {
            if (!caught) snprintf(example, sizeof example, "%s", err);
            ++caught;
        }
    memcpy(plans, copy, N * sizeof *copy);
    free(copy);
    if (2u * caught > seeds)
        printf("ok coll-ring-fault %s caught in %u of %u seeds (e.g. %s)\n", name, caught, seeds, example);
    else {
        printf("bad coll-ring-fault %s: caught in only %u of %u seeds\n", name, caught, seeds);
        ++failures;
    }
}

int main(int argc, char **argv)
{
    uint32_t seeds = argc > 1 ? (uint32_t)atoi(argv[1]) : 20u;
    const int big = argc > 2 ? atoi(argv[2]) : 1;
    plans = calloc(MAX_NODES, sizeof *plans);
    st = calloc(MAX_NODES, sizeof *st);
    chans = calloc((size_t)MAX_NODES * PORTS, sizeof *chans);
    flying_cap = 16u * MAX_NODES;
    flying = calloc(flying_cap, sizeof *flying);
    if (!plans || !st || !chans || !flying) { printf("bad coll-ring: out of memory\n"); return 1; }
    const clock_t t0 = clock();

    if (argc > 3) {   /* ring_check SEEDS 0 wide: every torus of sides 3 .. 32 up to 256 nodes (not in the test) */
        for (uint32_t x = 3; x <= 32; ++x)
            for (uint32_t y = 3; y <= 32 && x * y <= 256u; ++y)
                for (int apart = 0; apart < 2; ++apart)
                    for (uint32_t lw = 1; lw <= 16; lw += 15)
                        check_config(x, y, 4u * x * y * (1u + (x * y) % 2u), apart, lw, (x + y) % 16u, (x * 3u) % 16u, seeds);
        printf("%s coll-ring-wide (%u configurations, %u runs)\n", failures ? "bad" : "ok", configs, runs);
        return failures ? 1 : 0;
    }
    /* the faults first: the checker must see them */
    fault("paced-threshold-minus-1 (4x5 in place, lines 16)", 4, 5, 4u * 20u * 3u, 0, 16, lower_paced, 0, 20);
    fault("paced-threshold-minus-1 (5x4 apart, lines 16)", 5, 4, 4u * 20u * 3u, 1, 16, lower_paced, 0, 20);
    fault("two-descriptors-swapped (4x5 in place, lines 16)", 4, 5, 4u * 20u * 2u, 0, 16, swap_two, 1, 20);
    fault("two-descriptors-swapped (4x4 apart, lines 1)", 4, 4, 4u * 16u * 2u, 1, 1, swap_two, 1, 20);
    fault("combining-put-made-plain (3x4 in place, lines 16)", 3, 4, 4u * 12u * 2u, 0, 16, combine_to_plain, 1, 20);
    fault("combining-put-made-plain (4x3 apart, lines 1)", 4, 3, 4u * 12u * 2u, 1, 1, combine_to_plain, 1, 20);
    fault("ring-done-wait-3 (4x4 apart, lines 16)", 4, 4, 4u * 16u * 4u, 1, 16, ring_done_early, 0, 40);

    fault("target-minus-1 (6x3 in place, lines 16)", 6, 3, 4u * 18u * 2u, 0, 16, target_short, 1, 20);
    force_late = 1;
    fault("barrier-wait-1 (5x5 apart, lines 16; a node starts late)", 5, 5, 4u * 25u, 1, 16, barrier_early, 0, 40);
    force_late = 0;
    /* the rows' rings (coll_ring_line_compile) */
    LINE = 0;
    fault("rows: paced-threshold-minus-1 (5x4 apart, lines 16)", 5, 4, 2u * 5u * 6u, 1, 16, lower_paced, 0, 20);
    fault("rows: two-descriptors-swapped (4x3 in place, lines 1)", 4, 3, 2u * 4u * 4u, 0, 1, swap_two, 1, 20);
    fault("rows: combining-put-made-plain (4x4 apart, lines 16)", 4, 4, 2u * 4u * 4u, 1, 16, combine_to_plain, 1, 20);
    fault("rows: target-minus-1 (6x3 in place, lines 16)", 6, 3, 2u * 6u * 2u, 0, 16, target_short, 1, 20);
    LINE = RING_NO_LINE;
    /* the reduce-scatter's finals to the blocks' owners */
    SCAT = 1;
    fault("reduce-scatter: final-before-whole (4x4 apart, lines 16)", 4, 4, 4u * 16u * 2u, 1, 16, scat_final_early, 0, 20);
    fault("reduce-scatter: final-before-whole (5x3 apart, lines 1)", 5, 3, 4u * 15u * 2u, 1, 1, scat_final_early, 0, 20);
    {   /* in place is refused (nothing would order a node's finals after its own phase A) */
        const char *why = NULL;
        const int rc = setup(4, 4, 4u * 16u, 0, 16, 1, 9, &why);
        printf("%s coll-ring reduce-scatter in place refused%s%s\n", rc == COLL_EARG ? "ok" : "bad",
               rc == COLL_EARG ? "" : ": compile returned ", rc == COLL_EARG ? "" : rc ? "another error" : "OK");
        if (rc != COLL_EARG)
            ++failures;
    }
    fault("reduce-scatter: owner-target-minus-1 (4x5 apart, lines 16)", 4, 5, 4u * 20u * 2u, 1, 16, scat_target_short, 1, 20);
    fault("reduce-scatter: own-part-made-plain (3x4 apart, lines 1)", 3, 4, 4u * 12u, 1, 1, scat_own_plain, 1, 20);
    LINE = 0;
    fault("rows reduce-scatter: final-before-whole (5x4 apart, lines 16)", 5, 4, 2u * 5u * 2u, 1, 16, scat_final_early, 0, 20);
    fault("rows reduce-scatter: owner-target-minus-1 (4x3 in place, lines 1)", 4, 3, 2u * 4u * 2u, 0, 1, scat_target_short, 1, 20);
    LINE = 1;
    fault("columns reduce-scatter: own-part-made-plain (3x5 apart, lines 16)", 3, 5, 2u * 5u * 2u, 1, 16, scat_own_plain, 1, 20);
    LINE = RING_NO_LINE;
    SCAT = 0;
    /* the doubling (coll_dbl.c) */
    DBL = 1;
    fault("doubling: signal-before-whole (4x4 torus, 3 words)", 4, 4, 3, 0, 1, dbl_signal_early, 0, 40);
    fault("doubling: put-before-whole (8x4 torus, 5 words)", 8, 4, 5, 0, 16, dbl_put_early, 0, 40);
    fault("doubling: local-target-minus-1 (4x4 torus, 1 word)", 4, 4, 1, 0, 1, dbl_target_short, 1, 20);
    fault("doubling: combining-made-plain (2x4 torus, 2 words)", 2, 4, 2, 0, 1, dbl_combine_to_plain, 1, 20);
    force_late = 1;
    fault("doubling: barrier-wait-1 (4x4 torus; a node starts late)", 4, 4, 2, 0, 1, barrier_early, 0, 40);
    force_late = 0;
    DBL = 0;

    const uint32_t before_fail = failures;
    static const uint32_t ofs[3][2] = {{0, 8}, {1, 11}, {5, 2}};
    for (uint32_t x = 3; x <= 10; ++x)
        for (uint32_t y = 3; y <= 10; ++y)
            for (int apart = 0; apart < 2; ++apart)
                for (uint32_t lw = 1; lw <= 16; lw += 15)
                    for (uint32_t k = 1; k <= 3; ++k) {
                        const uint32_t n = x * y, cnt = 4u * n * (k == 3 ? 3u : k);
                        const uint32_t *o = ofs[(x + y + k) % 3u];
                        /* the smaller shapes get every seed, the larger fewer */
                        uint32_t sd = n <= 30 ? seeds : n <= 60 ? (seeds + 1u) / 2u : (seeds + 3u) / 4u;
                        check_config(x, y, cnt, apart, lw, o[0], o[1], sd);
                    }
    /* the reduce-scatter, apart (blocks of 4 .. 12 words) */
    SCAT = 1;
    for (uint32_t x = 3; x <= 8; ++x)
        for (uint32_t y = 3; y <= 8; ++y)
            for (uint32_t lw = 1; lw <= 16; lw += 15) {
                const uint32_t n = x * y, cnt = 4u * n * (1u + (x + y + lw) % 3u);
                const uint32_t *o = ofs[(x + y + lw) % 3u];
                check_config(x, y, cnt, 1, lw, o[0], o[1], n <= 30 ? (seeds + 1u) / 2u : (seeds + 3u) / 4u);
            }
    check_config(4, 4, 4u * 16u, 1, 4, 1, 3, seeds);
    /* every row's and every column's at once, in place and apart */
    for (LINE = 0; LINE < 2u; ++LINE) {
        for (uint32_t x = 3; x <= 8; ++x)
            for (uint32_t y = 3; y <= 8; y += 1 + (x & 1u))
                for (int apart = 0; apart < 2; ++apart)
                    for (uint32_t lw = 1; lw <= 16; lw += 15) {
                        const uint32_t n = LINE == 0u ? x : y, cnt = 2u * n * (1u + (x + y + lw) % 3u);
                        const uint32_t *o = ofs[(x + y + lw + (uint32_t)apart) % 3u];
                        check_config(x, y, cnt, apart, lw, o[0], o[1], (seeds + 3u) / 4u);
                    }
        check_config(LINE == 0u ? 16 : 4, LINE == 0u ? 4 : 16, 2u * 16u * 3u, 1, 4, 1, 3, 3);
    }
    LINE = RING_NO_LINE;
    SCAT = 0;
    /* lines of 4 words (the smallest that paces) on the smaller shapes */
    for (uint32_t x = 3; x <= 6; ++x)
        for (uint32_t y = 3; y <= 6; ++y)
            for (int apart = 0; apart < 2; ++apart)
                check_config(x, y, 4u * x * y * (1u + (x + y) % 3u), apart, 4, 1 + (x * y) % 4u, 3, (seeds + 1u) / 2u);
    /* every row's ring and every column's at once (the kit's rvm_allreduce_on ROW / COL) */
    for (LINE = 0; LINE < 2u; ++LINE) {
        for (uint32_t x = 3; x <= 9; ++x)
            for (uint32_t y = 3; y <= 9; y += 2)
                for (int apart = 0; apart < 2; ++apart)
                    for (uint32_t lw = 1; lw <= 16; lw += 15)
                        for (uint32_t k = 1; k <= 3; k += 2) {
                            const uint32_t n = LINE == 0u ? x : y, cnt = 2u * n * k * (1u + (x + y) % 2u);
                            const uint32_t *o = ofs[(x + y + k) % 3u];
                            check_config(x, y, cnt, apart, lw, o[0], o[1], (seeds + 1u) / 2u);
                        }
        check_config(LINE == 0u ? 32 : 3, LINE == 0u ? 3 : 32, 2u * 32u * 3u, 1, 16, 5, 2, 3);
        check_config(LINE == 0u ? 16 : 4, LINE == 0u ? 4 : 16, 2u * 16u * 5u, 0, 4, 1, 3, 3);
    }
    LINE = RING_NO_LINE;
    /* the doubling: every power-of-two shape of 2 .. 64 nodes, torus and mesh, counts of 1 word
     * to past a RAM line, send anywhere */
    DBL = 1;
    for (TORUS = 0; TORUS < 2; ++TORUS)
        for (uint32_t x = 1; x <= 8; x *= 2)
            for (uint32_t y = 1; y <= 8; y *= 2) {
                if (x * y < 2u)
                    continue;
                static const uint32_t dcounts[] = {1, 3, 16, 37};
                for (unsigned k = 0; k < 4; ++k)
                    check_config(x, y, dcounts[k], 0, k & 1u ? 16u : 1u, 0, (x + 3u * y + k) % 16u, x * y <= 16u ? seeds : (seeds + 1u) / 2u);
            }
    TORUS = 1;
    DBL = 0;
    if (big) {
        static const uint32_t shapes[][2] = {{16, 16}, {4, 16}, {16, 4}, {32, 3}, {3, 32}, {11, 13}};
        for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
            for (int apart = 0; apart < 2; ++apart)
                check_config(shapes[i][0], shapes[i][1], 4u * shapes[i][0] * shapes[i][1] * 2u, apart, 16, 5, 2, 3);
        static const uint32_t large[][2] = {{3, 3}, {4, 4}, {3, 5}, {8, 8}};
        for (unsigned i = 0; i < sizeof large / sizeof large[0]; ++i) {
            const uint32_t q = 4u * large[i][0] * large[i][1], cnt = (8192u / q) * q;
            for (int apart = 0; apart < 2; ++apart)
                for (uint32_t lw = 1; lw <= 16; lw += 15)
                    check_config(large[i][0], large[i][1], cnt, apart, lw, 1, 5, 2);
        }
    }
    const double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (failures == before_fail)
        printf("ok coll-ring-shapes (%u configurations, %u runs, %.1f s)\n", configs, runs, secs);
    else
        printf("bad coll-ring-shapes: %u of %u configurations failed (%u runs, %.1f s)\n", failures - before_fail, configs,
               runs, secs);
    return failures ? 1 : 0;
}
