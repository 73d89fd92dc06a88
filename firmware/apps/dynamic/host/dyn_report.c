/* SPDX-License-Identifier: ISC
 * dyn-report (host): the checks and figures of a dynamic-broadcast run on the machine
 * (firmware/apps/dynamic), from every node's delivery log as mesh-sim --dump wrote it, beside
 * the abstract slot model (firmware/sched/sched_dyn_sim.c) run with the same parameters and
 * the paper's approximate analysis.
 *
 *   dyn-report --dump FILE [--json OUT] [--model-seeds K]
 *       exit 0: every broadcast generated reached every receiver exactly once with its data,
 *       every node's log is whole and the network drained; 1: a check failed (the first
 *       problems are named); 2: the run was cut before the network drained (saturated: the
 *       load is not sustained); 3: bad input
 *   dyn-report --model SHAPE RHO DISC ROUTING PROBS [WARMUP MEASURE TAIL SEEDS]
 *       the abstract model alone: one line per seed and the paper's formula
 *   dyn-report --svg OUT.svg ROWS.tsv
 *       the delay-against-load plot of make bench-dynamic (rows: panel, series, rho,
 *       machine mean, machine p95, model mean, model p95; tab-separated)
 *
 * Delays are in slots (the paper's unit: one packet over one link) counted on the machine:
 * a request arrives at slot - 1 + frac (its node's slot count, which is the same on every
 * node: the nodes exchange in step), a receipt in slot r is at time r. They are also given in
 * cycles of the machine-wide count (from the request's cycle to the receiver's end of the
 * exchange), and the slot in cycles (the mean length of a slot on the machine). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyn_log.h"
#include "sched.h"
#include "sched_dyn.h"
#include "sched_dynsim.h"

static int usage(void)
{
    fprintf(stderr, "usage: dyn-report --dump FILE [--json OUT] [--model-seeds K]\n"
                    "       dyn-report --svg OUT.svg ROWS.tsv\n"
                    "       dyn-report --model SHAPE RHO DISC ROUTING PROBS [WARMUP MEASURE TAIL SEEDS]\n"
                    "           (SHAPE as 8x8t; DISC fifo|prio2|desc; ROUTING star|redo|adaptive; PROBS solved|uniform)\n");
    return 3;
}

static uint32_t rd32(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    double *v;
    size_t n, cap;
} vec;

static void push(vec *a, double x)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 4096;
        a->v = realloc(a->v, sizeof *a->v * a->cap);
        if (!a->v) { fprintf(stderr, "dyn-report: out of memory\n"); exit(3); }
    }
    a->v[a->n++] = x;
}
static double mean(const vec *a)
{
    double s = 0;
    for (size_t k = 0; k < a->n; k++) s += a->v[k];
    return a->n ? s / (double)a->n : 0;
}
/* the same rank as the abstract model's: sorted[floor(0.95 (n - 1))] */
static double p95(vec *a)
{
    if (!a->n) return 0;
    qsort(a->v, a->n, sizeof *a->v, cmp_double);
    return a->v[(size_t)(0.95 * (double)(a->n - 1u))];
}

/* ---- problems: the first few named, all counted ---- */
static unsigned problems;
static char problem_text[2048];
static void problem(const char *fmt, ...)
{
    char line[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (problems < 8) fprintf(stderr, "dyn-report: %s\n", line);
    if (problems == 0) snprintf(problem_text, sizeof problem_text, "%s", line);
    problems++;
}

static const char *coord(const sched_shape *sh, uint32_t v, char *buf)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(sh, v, c);
    if (sh->dims == 3) sprintf(buf, "[%d,%d,%d]", c[0], c[1], c[2]);
    else sprintf(buf, "[%d,%d]", c[0], c[1]);
    return buf;
}

/* ---- the paper's approximate analysis (YVL Sec. 2.2), mean reception delay ----
 * Hops of a broadcast's tree (from node 0; every node is alike on a torus), weighted by the
 * orders' probabilities: E[h] all hops to a receiver, E[hH] / E[hL] those sent as high / low
 * priority. Every output link is taken as an M/D/1 queue with Poisson arrivals at load rho;
 * FIFO waits W = rho / (2 (1 - rho)) per hop; with the 2 classes, Cobham's non-preemptive
 * waits W_H = (rho/2) / (1 - rho_H), W_L = (rho/2) / ((1 - rho_H)(1 - rho)) (their average
 * is the conservation law the paper uses; rho_H is the high transmissions' share of rho).
 * Plus 0.5: a request waits for the next slot boundary. Returns -1 where the paper has no
 * formula (meshes, the descendant discipline). */
static double formula_reception(const sched_shape *sh, int routing, int uniform, int disc, double rho)
{
    if (!sh->torus || disc == SCHED_DYN_DESC || rho >= 1) return -1;
    sched_dyn_plan pl;
    if (sched_dyn_make_plan_ex(&pl, sh, routing == SCHED_DYN_ROUTE_REDO ? routing : SCHED_DYN_ROUTE_STAR, uniform)) return -1;
    const uint32_t n = pl.nodes, d = sh->dims;
    double eh = 0, ehh = 0, ehl = 0, high = 0;
    uint32_t *hops = calloc(n, sizeof *hops), *hh = calloc(n, sizeof *hh);
    typedef struct { uint32_t node; sched_dyn_packet pkt; } item;
    item *cur = malloc(sizeof *cur * n * 2u * d), *next = malloc(sizeof *next * n * 2u * d);
    if (!hops || !hh || !cur || !next) { fprintf(stderr, "dyn-report: out of memory\n"); exit(3); }
    for (int rev = 0; rev <= (routing == SCHED_DYN_ROUTE_REDO); rev++)
        for (uint32_t l = 0; l < d; l++) {
            const uint32_t *num = rev ? pl.reverse_num : pl.ending_num, *thr = rev ? pl.reverse_threshold : pl.ending_threshold;
            const double w = (double)num[l] / (double)(rev ? pl.reverse_den : pl.ending_den) /
                             (routing == SCHED_DYN_ROUTE_REDO ? 2.0 : 1.0);
            if (w <= 0) continue;
            const uint32_t rnd = l == 0 ? 0u : thr[l - 1] + 1u;
            sched_dyn_send s[SCHED_DYN_MAX_SENDS];
            int ns = sched_dyn_originate_ex(&pl, 0, 0, rnd, rev ? 0x80000000u : 0u, 0, s);
            memset(hops, 0, sizeof *hops * n);
            memset(hh, 0, sizeof *hh * n);
            uint32_t nc = 0, highs = 0;
            for (int k = 0; k < ns; k++) {
                cur[nc].node = (uint32_t)sched_neighbour(sh, 0, s[k].port);
                cur[nc].pkt = s[k].pkt;
                hops[cur[nc].node] = 1;
                hh[cur[nc].node] = s[k].pkt.prio == SCHED_DYN_HIGH;
                highs += s[k].pkt.prio == SCHED_DYN_HIGH;
                nc++;
            }
            while (nc) {
                uint32_t nn = 0;
                for (uint32_t k = 0; k < nc; k++) {
                    int deliver;
                    sched_dyn_send out[SCHED_DYN_MAX_SENDS];
                    int m = sched_dyn_on_receive(&pl, cur[k].node, &cur[k].pkt, &deliver, out);
                    for (int j = 0; j < m; j++) {
                        uint32_t to = (uint32_t)sched_neighbour(sh, cur[k].node, out[j].port);
                        hops[to] = hops[cur[k].node] + 1u;
                        hh[to] = hh[cur[k].node] + (out[j].pkt.prio == SCHED_DYN_HIGH);
                        highs += out[j].pkt.prio == SCHED_DYN_HIGH;
                        next[nn].node = to;
                        next[nn++].pkt = out[j].pkt;
                    }
                }
                item *t = cur; cur = next; next = t;
                nc = nn;
            }
            double sh_ = 0, shh = 0;
            for (uint32_t v = 1; v < n; v++) { sh_ += hops[v]; shh += hh[v]; }
            eh += w * sh_ / (n - 1u);
            ehh += w * shh / (n - 1u);
            ehl += w * (sh_ - shh) / (n - 1u);
            high += w * highs / (double)(n - 1u);
        }
    free(hops); free(hh); free(cur); free(next);
    if (disc == SCHED_DYN_FIFO) return eh * (1.0 + rho / (2.0 * (1.0 - rho))) + 0.5;
    const double rho_h = rho * high, wh = rho / 2.0 / (1.0 - rho_h), wl = rho / 2.0 / ((1.0 - rho_h) * (1.0 - rho));
    return eh + ehh * wh + ehl * wl + 0.5;
}

/* ---- --dump ---- */
typedef struct {
    sched_shape shape;
    uint32_t nodes, bytes, status;
    uint64_t cycles;
    const uint8_t *node_log[65536];
    uint32_t exited[65536], exit_code[65536];
} dump_t;

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "dyn-report: cannot read %s\n", path); return 0; }
    size_t cap = 1 << 20, n = 0;
    uint8_t *b = malloc(cap);
    for (size_t got; b && (got = fread(b + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) { cap *= 2; b = realloc(b, cap); }
    }
    fclose(f);
    *len = n;
    return b;
}

static const char *shape_id(const sched_shape *sh, char *buf)
{
    if (sh->dims == 3) sprintf(buf, "%ux%ux%u%c", sh->side[0], sh->side[1], sh->side[2], sh->torus ? 't' : 'm');
    else sprintf(buf, "%ux%u%c", sh->side[0], sh->side[1], sh->torus ? 't' : 'm');
    return buf;
}

typedef struct {
    uint32_t broadcasts, measured, late;
    uint64_t receptions;
    double mean_bc, p95_bc, mean_rec, p95_rec;        /* slots, counted */
    double mean_bc_cyc, p95_bc_cyc, mean_rec_cyc;      /* cycles */
    double slot_cycles, slot_cycles_idle;              /* mean slot in the window; the drain's */
    double exchange_share;                             /* of the nodes' time, in ni_exchange */
    uint32_t slots, max_queue, max_node_queue;
    uint64_t sent, expected_sent;
    double link_utilisation;
} machine_t;

static int check_dump(dump_t *dp, const struct dyn_log_head **first)
{
    const uint32_t n = dp->nodes;
    const struct dyn_log_head *h0 = (const struct dyn_log_head *)dp->node_log[0];
    *first = h0;
    for (uint32_t v = 0; v < n; v++) {
        const uint8_t *b = dp->node_log[v];
        const struct dyn_log_head *h = (const struct dyn_log_head *)b;
        if (rd32(b) != DYN_LOG_MAGIC || h->version != DYN_LOG_VERSION) {
            problem("node %u: no delivery log in its RAM (did it run firmware/apps/dynamic of this version?)", v);
            return -1;
        }
        if (h->node != v || h->nodes != n || h->max_seq != h0->max_seq || h->max_slots != h0->max_slots ||
            h->rho_ppm != h0->rho_ppm || h->discipline != h0->discipline || h->routing != h0->routing ||
            h->warmup != h0->warmup || h->measure != h0->measure || h->tail != h0->tail) {
            problem("node %u: its log's header disagrees with node 0's (or names another node)", v);
            return -1;
        }
        if (dyn_log_bytes(n, h->max_seq, h->max_slots) > dp->bytes) {
            problem("node %u: the log (%u bytes) is larger than the dumped area (%u)", v,
                    dyn_log_bytes(n, h->max_seq, h->max_slots), dp->bytes);
            return -1;
        }
    }
    return 0;
}

static int analyse(dump_t *dp, machine_t *m, const struct dyn_log_head *h0, int *drained)
{
    const sched_shape *sh = &dp->shape;
    const uint32_t n = dp->nodes, maxseq = h0->max_seq;
    char a[32], b[32];
    sched_dyn_plan pl;
    const char *why = sched_dyn_make_plan_ex(&pl, sh, (int)h0->routing, (int)h0->uniform);
    if (why) { problem("the rule refuses this shape: %s", why); return -1; }
    memset(m, 0, sizeof *m);
    *drained = 1;
    uint32_t slots = 0;
    for (uint32_t v = 0; v < n; v++) {
        const struct dyn_log_head *h = (const struct dyn_log_head *)dp->node_log[v];
        if (!dp->exited[v]) problem("node %s did not exit", coord(sh, v, a));
        if (h->status == DYN_E_SLOTS || h->left_queued) *drained = 0;
        else if (h->status != DYN_OK)
            problem("node %s: status %u (%s)", coord(sh, v, a), h->status,
                    h->status == DYN_E_SEQ ? "more broadcasts than the log holds" : h->status == DYN_E_POOL ? "its queue pool overflowed"
                    : h->status == DYN_E_WORM ? "a malformed worm" : h->status == DYN_E_DUP ? "a broadcast received twice"
                    : h->status == DYN_E_DATA ? "a broadcast's data arrived wrong" : h->status == DYN_E_STRAY ? "a broadcast never generated"
                    : h->status == DYN_E_PLAN ? "the rule refused the shape" : "?");
        if (h->duplicates) problem("node %s received %u broadcasts twice (the first: from %s, sequence %u, slot %u)", coord(sh, v, a),
                                   h->duplicates, coord(sh, h->first_bad_source, b), h->first_bad_seq, h->first_bad_slot);
        if (h->corrupt) problem("node %s received %u broadcasts with wrong data (the first: from %s, sequence %u, slot %u)",
                                coord(sh, v, a), h->corrupt, coord(sh, h->first_bad_source, b), h->first_bad_seq, h->first_bad_slot);
        if (h->stray) problem("node %s received %u packets of no broadcast", coord(sh, v, a), h->stray);
        if (h->bad_worms) problem("node %s: %u malformed worms", coord(sh, v, a), h->bad_worms);
        if (h->overflow) problem("node %s: its queues overflowed %u times (pool of %u entries)", coord(sh, v, a), h->overflow, h->pool);
        if (v == 0) slots = h->slots;
        else if (h->slots != slots) problem("node %s ran %u slots, node 0 %u: the nodes fell out of step", coord(sh, v, a), h->slots, slots);
        if (h->max_queue > m->max_queue) m->max_queue = h->max_queue;
        if (h->max_node_queue > m->max_node_queue) m->max_node_queue = h->max_node_queue;
        m->sent += h->sent;
        if (h->generated > maxseq) { problem("node %s: generated %u > the log's %u", coord(sh, v, a), h->generated, maxseq); return -1; }
    }
    m->slots = slots;
    const uint32_t w = h0->warmup, meas = h0->measure, gen_end = w + meas + h0->tail;
    /* every broadcast: every receiver exactly once (duplicates are counted by the receiver);
     * nothing received that was never generated */
    vec bc = {0}, rec = {0}, bc_cyc = {0}, rec_cyc = {0};
    uint64_t missing = 0;
    for (uint32_t s = 0; s < n; s++) {
        const uint8_t *sb = dp->node_log[s];
        const struct dyn_log_head *hs = (const struct dyn_log_head *)sb;
        for (uint32_t q = 0; q < maxseq; q++) {
            const int generated = q < hs->generated;
            const uint32_t sf = rd32(sb + dyn_log_gen_sf_off() + 4u * q), gcyc = rd32(sb + dyn_log_gen_cycle_off(maxseq) + 4u * q);
            const double gen = (double)(sf >> 16) - 1.0 + (double)(sf & 0xffffu) / 65536.0;
            const int measured = generated && gen >= (double)w && gen < (double)(w + meas);
            double last = -1, last_cyc = -1;
            uint32_t got = 0, last_slot = 0;
            for (uint32_t v = 0; v < n; v++) {
                if (v == s) continue;
                const uint8_t *vb = dp->node_log[v];
                const uint16_t r = rd16(vb + dyn_log_recv_off(maxseq) + 2u * ((size_t)s * maxseq + q));
                const int should = generated && sched_dyn_is_receiver(&pl, v);
                if (r && !generated) { problem("node %s received broadcast %u of %s, which never generated it", coord(sh, v, a), q, coord(sh, s, b)); continue; }
                if (r && !should) { problem("relay node %s delivered broadcast %u of %s", coord(sh, v, a), q, coord(sh, s, b)); continue; }
                if (!should) continue;
                if (!r) {
                    missing++;
                    if (*drained) problem("broadcast %u of %s (slot %u) never reached %s", q, coord(sh, s, a), sf >> 16, coord(sh, v, b));
                    continue;
                }
                got++;
                const double d = (double)r - gen;
                const double dc = (double)(uint32_t)(rd32(vb + dyn_log_slot_off(n, maxseq) + 4u * r) - gcyc);
                if (d > last) { last = d; last_slot = r; }
                if (dc > last_cyc) last_cyc = dc;
                if (measured) { push(&rec, d); push(&rec_cyc, dc); }
            }
            if (generated) m->broadcasts++;
            if (measured && got == pl.receivers - 1u) {
                m->measured++;
                push(&bc, last);
                push(&bc_cyc, last_cyc);
                if (last_slot > gen_end) m->late++;
            }
        }
    }
    if (!*drained && missing) fprintf(stderr, "dyn-report: the run was cut before the network drained: %llu receptions missing\n", (unsigned long long)missing);
    m->receptions = rec.n;
    m->mean_bc = mean(&bc);
    m->p95_bc = p95(&bc);
    m->mean_rec = mean(&rec);
    m->p95_rec = p95(&rec);
    m->mean_bc_cyc = mean(&bc_cyc);
    m->p95_bc_cyc = p95(&bc_cyc);
    m->mean_rec_cyc = mean(&rec_cyc);
    /* STAR/REDO use a spanning tree: N-1 transmissions a broadcast */
    if (sh->torus) {
        m->expected_sent = (uint64_t)m->broadcasts * (n - 1u);
        if (*drained && m->sent != m->expected_sent)
            problem("the nodes sent %llu packets; %u broadcasts over spanning trees take %llu",
                    (unsigned long long)m->sent, m->broadcasts, (unsigned long long)m->expected_sent);
    }
    /* the slot on the machine: mean over nodes of slot lengths in (warmup, gen_end], and in the drain */
    double sum = 0, sum_idle = 0, exch = 0, work = 0;
    uint64_t cnt = 0, cnt_idle = 0;
    for (uint32_t v = 0; v < n; v++) {
        const uint8_t *vb = dp->node_log[v];
        const struct dyn_log_head *h = (const struct dyn_log_head *)vb;
        const uint8_t *sc = vb + dyn_log_slot_off(n, maxseq);
        for (uint32_t s = 1; s <= slots; s++) {
            const double len = (double)(uint32_t)(rd32(sc + 4u * s) - rd32(sc + 4u * (s - 1u)));
            if (s > w && s <= gen_end) { sum += len; cnt++; }
            if (s > h->last_busy + 1u) { sum_idle += len; cnt_idle++; }
        }
        exch += h->exchange_cycles;
        work += h->work_cycles;
    }
    m->slot_cycles = cnt ? sum / (double)cnt : 0;
    m->slot_cycles_idle = cnt_idle ? sum_idle / (double)cnt_idle : 0;
    m->exchange_share = exch + work > 0 ? exch / (exch + work) : 0;
    {
        uint64_t links = 0;
        for (uint32_t v = 0; v < n; v++)
            for (uint8_t p = 0; p < 2u * sh->dims; p++) links += sched_neighbour(sh, v, p) >= 0;
        m->link_utilisation = links && slots ? (double)m->sent / ((double)links * slots) : 0;
    }
    free(bc.v); free(rec.v); free(bc_cyc.v); free(rec_cyc.v);
    return 0;
}

static void json_num(FILE *f, const char *key, double v, int last)
{
    if (isfinite(v)) fprintf(f, "\"%s\": %.4f%s", key, v, last ? "" : ", ");
    else fprintf(f, "\"%s\": null%s", key, last ? "" : ", ");
}

static int run_dump(const char *path, const char *json, int seeds)
{
    size_t len;
    uint8_t *b = read_all(path, &len);
    if (!b) return 3;
    static dump_t dp;
    if (len < 64 || memcmp(b, "RVMDUMP1", 8) != 0 || rd32(b + 8) != 64) {
        fprintf(stderr, "dyn-report: %s is not a mesh-sim --dump file\n", path);
        return 3;
    }
    dp.nodes = rd32(b + 12);
    dp.bytes = rd32(b + 16);
    memset(&dp.shape, 0, sizeof dp.shape);
    dp.shape.dims = (uint8_t)rd32(b + 20);
    for (int k = 0; k < 3; k++) dp.shape.side[k] = (uint16_t)rd32(b + 24 + 4 * k);
    dp.shape.torus = (uint8_t)rd32(b + 36);
    dp.cycles = rd32(b + 40) | (uint64_t)rd32(b + 44) << 32;
    dp.status = rd32(b + 48);
    const size_t per = 8u + ((dp.bytes + 3u) & ~3u);
    if (dp.nodes == 0 || dp.nodes > 65536 || sched_shape_problem(&dp.shape) || sched_nodes(&dp.shape) != dp.nodes ||
        len != 64u + per * dp.nodes) {
        fprintf(stderr, "dyn-report: %s: the header does not match its contents (truncated?)\n", path);
        return 3;
    }
    for (uint32_t v = 0; v < dp.nodes; v++) {
        const uint8_t *p = b + 64 + per * v;
        dp.exited[v] = rd32(p);
        dp.exit_code[v] = rd32(p + 4);
        dp.node_log[v] = p + 8;
        if (dp.bytes < DYN_LOG_HEAD_BYTES) { fprintf(stderr, "dyn-report: the dumped area is smaller than a log header\n"); return 3; }
    }
    const struct dyn_log_head *h0;
    machine_t m;
    int drained = 0;
    memset(&m, 0, sizeof m);
    if (check_dump(&dp, &h0) == 0) analyse(&dp, &m, h0, &drained);
    const double rho = h0->rho_ppm / 1e6;
    char sid[32];
    shape_id(&dp.shape, sid);
    /* the abstract model, same parameters, several seeds */
    sched_dyn_stats ms[16];
    int nms = 0;
    double mbc = 0, mbc95 = 0, mrec = 0, mrec95 = 0, mbc_lo = 1e300, mbc_hi = 0, mq = 0;
    int msat = 0;
    for (int k = 0; k < seeds && k < 16 && problems == 0; k++) {
        sched_dyn_sim_options o = {(int)h0->discipline, (int)h0->routing, (int)h0->uniform, rho, h0->warmup,
                                   h0->measure, h0->tail, 1000u + (uint64_t)k};
        char err[200];
        if (sched_dyn_simulate_ex(&dp.shape, &o, &ms[nms], err, sizeof err)) { fprintf(stderr, "dyn-report: model: %s\n", err); break; }
        if (ms[nms].saturated) { msat = 1; nms++; continue; }
        mbc += ms[nms].mean_broadcast_delay; mbc95 += ms[nms].p95_broadcast_delay;
        mrec += ms[nms].mean_delay; mrec95 += ms[nms].p95_delay;
        if (ms[nms].mean_broadcast_delay < mbc_lo) mbc_lo = ms[nms].mean_broadcast_delay;
        if (ms[nms].mean_broadcast_delay > mbc_hi) mbc_hi = ms[nms].mean_broadcast_delay;
        if (ms[nms].max_queue > mq) mq = ms[nms].max_queue;
        nms++;
    }
    if (nms && !msat) { mbc /= nms; mbc95 /= nms; mrec /= nms; mrec95 /= nms; }
    const double formula = formula_reception(&dp.shape, (int)h0->routing, (int)h0->uniform, (int)h0->discipline, rho);
    const char *result = problems ? "FAILED" : !drained ? "SATURATED" : "OK";
    printf("%s %s %s%s rho %.2f: %s; %u broadcasts (%u measured), %llu receptions measured; broadcast delay mean %.2f p95 %.2f slots "
           "(model %.2f p95 %.2f, ratio %.3f); reception delay mean %.2f (model %.2f, formula %.2f); slot %.0f cycles; "
           "max queue %u\n",
           sid, sched_dyn_routing_name((int)h0->routing), sched_dyn_discipline_name((int)h0->discipline),
           h0->uniform ? " uniform" : "", rho, result, m.broadcasts, m.measured, (unsigned long long)m.receptions, m.mean_bc,
           m.p95_bc, mbc, mbc95, mbc > 0 ? m.mean_bc / mbc : 0, m.mean_rec, mrec, formula, m.slot_cycles, m.max_queue);
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) { fprintf(stderr, "dyn-report: cannot write %s\n", json); return 3; }
        fprintf(f, "{\"shape\": \"%s\", \"routing\": \"%s\", \"discipline\": \"%s\", \"probs\": \"%s\", \"rho\": %.4f, "
                   "\"seed\": %u, \"warmup\": %u, \"measure\": %u, \"tail\": %u, \"data_words\": %u, \"exchange\": %u, ",
                sid, sched_dyn_routing_name((int)h0->routing), sched_dyn_discipline_name((int)h0->discipline),
                h0->uniform ? "uniform" : "solved", rho, h0->seed, h0->warmup, h0->measure, h0->tail, h0->data_words, h0->exchange);
        fprintf(f, "\"result\": \"%s%s%s\", \"problems\": %u, \"cycles\": %llu, ", result, problems ? ": " : "",
                problems ? problem_text : "", problems, (unsigned long long)dp.cycles);
        fprintf(f, "\"machine\": {\"broadcasts\": %u, \"measured\": %u, \"receptions\": %llu, \"late\": %u, \"slots\": %u, "
                   "\"max_queue\": %u, \"max_node_queue\": %u, \"transmissions\": %llu, ",
                m.broadcasts, m.measured, (unsigned long long)m.receptions, m.late, m.slots, m.max_queue, m.max_node_queue,
                (unsigned long long)m.sent);
        json_num(f, "mean_broadcast_delay", m.mean_bc, 0);
        json_num(f, "p95_broadcast_delay", m.p95_bc, 0);
        json_num(f, "mean_reception_delay", m.mean_rec, 0);
        json_num(f, "p95_reception_delay", m.p95_rec, 0);
        json_num(f, "mean_broadcast_delay_cycles", m.mean_bc_cyc, 0);
        json_num(f, "p95_broadcast_delay_cycles", m.p95_bc_cyc, 0);
        json_num(f, "mean_reception_delay_cycles", m.mean_rec_cyc, 0);
        json_num(f, "slot_cycles", m.slot_cycles, 0);
        json_num(f, "slot_cycles_drained", m.slot_cycles_idle, 0);
        json_num(f, "mean_broadcast_delay_from_cycles", m.slot_cycles > 0 ? m.mean_bc_cyc / m.slot_cycles : NAN, 0);
        json_num(f, "exchange_share", m.exchange_share, 0);
        json_num(f, "link_utilisation", m.link_utilisation, 1);
        fprintf(f, "}, \"model\": {\"seeds\": %d, \"saturated\": %s, ", nms, msat ? "true" : "false");
        json_num(f, "mean_broadcast_delay", nms && !msat ? mbc : NAN, 0);
        json_num(f, "p95_broadcast_delay", nms && !msat ? mbc95 : NAN, 0);
        json_num(f, "mean_reception_delay", nms && !msat ? mrec : NAN, 0);
        json_num(f, "p95_reception_delay", nms && !msat ? mrec95 : NAN, 0);
        json_num(f, "mean_broadcast_delay_min", nms && !msat ? mbc_lo : NAN, 0);
        json_num(f, "mean_broadcast_delay_max", nms && !msat ? mbc_hi : NAN, 0);
        json_num(f, "max_queue", nms ? mq : NAN, 1);
        fprintf(f, "}, \"formula\": {");
        json_num(f, "mean_reception_delay", formula >= 0 ? formula : NAN, 1);
        fprintf(f, "}, ");
        json_num(f, "ratio_mean_broadcast", nms && !msat && mbc > 0 && !problems && drained ? m.mean_bc / mbc : NAN, 0);
        json_num(f, "ratio_mean_reception", nms && !msat && mrec > 0 && !problems && drained ? m.mean_rec / mrec : NAN, 1);
        fprintf(f, "}\n");
        if (fclose(f)) { fprintf(stderr, "dyn-report: cannot write %s\n", json); return 3; }
    }
    free(b);
    return problems ? 1 : !drained ? 2 : 0;
}

/* ---- --svg ---- */
typedef struct {
    char panel[64], series[64];
    double rho, mm, m95, om, o95;
} row_t;

static int run_svg(const char *out, const char *rows_path)
{
    FILE *f = fopen(rows_path, "r");
    if (!f) { fprintf(stderr, "dyn-report: cannot read %s\n", rows_path); return 3; }
    row_t *rows = 0;
    size_t n = 0, cap = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        row_t r;
        char mm[32], m95[32], om[32], o95[32];
        if (sscanf(line, "%63[^\t]\t%63[^\t]\t%lf\t%31s\t%31s\t%31s\t%31s", r.panel, r.series, &r.rho, mm, m95, om, o95) != 7) continue;
        r.mm = strcmp(mm, "null") ? atof(mm) : -1;
        r.m95 = strcmp(m95, "null") ? atof(m95) : -1;
        r.om = strcmp(om, "null") ? atof(om) : -1;
        r.o95 = strcmp(o95, "null") ? atof(o95) : -1;
        if (n == cap) { cap = cap ? 2 * cap : 64; rows = realloc(rows, sizeof *rows * cap); if (!rows) return 3; }
        rows[n++] = r;
    }
    fclose(f);
    char panels[8][64];
    int np = 0;
    for (size_t k = 0; k < n; k++) {
        int found = 0;
        for (int p = 0; p < np; p++) found |= !strcmp(panels[p], rows[k].panel);
        if (!found && np < 8) strcpy(panels[np++], rows[k].panel);
    }
    const int pw = 420, ph = 320, ml = 50, mt = 40, cols = np < 2 ? 1 : 2, prow = (np + cols - 1) / cols;
    FILE *o = fopen(out, "w");
    if (!o) { fprintf(stderr, "dyn-report: cannot write %s\n", out); return 3; }
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n",
            cols * pw, prow * ph + 30);
    fprintf(o, "<text x=\"10\" y=\"18\" font-size=\"13\">Dynamic broadcast: mean broadcast delay (slots) against load rho; "
               "solid: the machine (mesh-sim), dashed: the abstract model; error bar: machine 95th percentile</text>\n");
    static const char *const colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
    for (int p = 0; p < np; p++) {
        const int x0 = (p % cols) * pw + ml, y0 = (p / cols) * ph + 30 + mt, w = pw - ml - 20, h = ph - mt - 40;
        double ymax = 1;
        for (size_t k = 0; k < n; k++)
            if (!strcmp(rows[k].panel, panels[p])) {
                if (rows[k].mm > ymax) ymax = rows[k].mm;
                if (rows[k].om > ymax) ymax = rows[k].om;
            }
        ymax = ceil(ymax * 1.1 / 5.0) * 5.0;
        fprintf(o, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n", x0, y0 - 12, panels[p]);
        fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n", x0, y0, w, h);
        for (int t = 0; t <= 5; t++) {
            const double yv = ymax * t / 5.0;
            const int yy = y0 + h - (int)(h * t / 5.0);
            fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text>\n", x0 - 4, yy + 4, yv);
            fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.1f</text>\n", x0 + (int)(w * t / 5.0), y0 + h + 14, t / 5.0);
        }
        fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">rho</text>\n", x0 + w / 2, y0 + h + 28);
        char series[8][64];
        int ns = 0;
        for (size_t k = 0; k < n; k++) {
            if (strcmp(rows[k].panel, panels[p])) continue;
            int found = 0;
            for (int s = 0; s < ns; s++) found |= !strcmp(series[s], rows[k].series);
            if (!found && ns < 8) strcpy(series[ns++], rows[k].series);
        }
        for (int s = 0; s < ns; s++) {
            const char *c = colours[s % 8];
            for (int which = 0; which < 2; which++) {
                fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s points=\"", c,
                        which ? " stroke-dasharray=\"5,3\"" : "");
                for (size_t k = 0; k < n; k++) {
                    if (strcmp(rows[k].panel, panels[p]) || strcmp(rows[k].series, series[s])) continue;
                    const double yv = which ? rows[k].om : rows[k].mm;
                    if (yv < 0) continue;
                    fprintf(o, "%.1f,%.1f ", x0 + w * rows[k].rho, y0 + h - h * (yv > ymax ? ymax : yv) / ymax);
                }
                fprintf(o, "\"/>\n");
            }
            for (size_t k = 0; k < n; k++) {
                if (strcmp(rows[k].panel, panels[p]) || strcmp(rows[k].series, series[s]) || rows[k].mm < 0) continue;
                const double x = x0 + w * rows[k].rho, y = y0 + h - h * (rows[k].mm > ymax ? ymax : rows[k].mm) / ymax;
                fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", x, y, c);
                if (rows[k].m95 >= 0)
                    fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"0.8\"/>\n", x, y, x,
                            y0 + h - h * (rows[k].m95 > ymax ? ymax : rows[k].m95) / ymax, c);
            }
            fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
                       "<text x=\"%d\" y=\"%d\">%s</text>\n", x0 + 8, y0 + 12 + 14 * s, x0 + 28, y0 + 12 + 14 * s, c, x0 + 32,
                    y0 + 16 + 14 * s, series[s]);
        }
    }
    fprintf(o, "</svg>\n");
    free(rows);
    if (fclose(o)) { fprintf(stderr, "dyn-report: cannot write %s\n", out); return 3; }
    return 0;
}

static int parse_shape(const char *text, sched_shape *sh)
{
    memset(sh, 0, sizeof *sh);
    unsigned v[3] = {1, 1, 1};
    char kind = 0;
    int n = sscanf(text, "%ux%ux%u%c", &v[0], &v[1], &v[2], &kind);
    if (n == 4) sh->dims = 3;
    else if (sscanf(text, "%ux%u%c", &v[0], &v[1], &kind) == 3) sh->dims = 2;
    else return -1;
    if (kind != 't' && kind != 'm') return -1;
    sh->torus = kind == 't';
    for (int k = 0; k < 3; k++) sh->side[k] = (uint16_t)(k < sh->dims ? v[k] : 1u);
    return sched_shape_problem(sh) ? -1 : 0;
}

static int run_model(int argc, char **argv)
{
    sched_shape sh;
    if (argc < 5 || parse_shape(argv[0], &sh)) return usage();
    sched_dyn_sim_options o = {sched_dyn_discipline_from_name(argv[2]), sched_dyn_routing_from_name(argv[3]),
                               !strcmp(argv[4], "uniform"), atof(argv[1]), 200, 2000, 200, 1};
    int seeds = 3;
    if (argc >= 9) { o.warmup = (uint32_t)atoi(argv[5]); o.measure = (uint32_t)atoi(argv[6]); o.tail = (uint32_t)atoi(argv[7]); seeds = atoi(argv[8]); }
    if (o.discipline < 0 || o.routing < 0) return usage();
    for (int k = 0; k < seeds; k++) {
        sched_dyn_stats st;
        char err[200];
        o.seed = 1000u + (uint64_t)k;
        if (sched_dyn_simulate_ex(&sh, &o, &st, err, sizeof err)) { fprintf(stderr, "dyn-report: %s\n", err); return 1; }
        printf("seed %d: %s broadcasts %u: broadcast delay mean %.3f p95 %.3f, reception mean %.3f p95 %.3f, max queue %u, "
               "node queue %u, late %u, utilisation %.3f (dims %.3f %.3f %.3f)\n", k, st.saturated ? "SATURATED" : "ok",
               st.packets, st.mean_broadcast_delay, st.p95_broadcast_delay, st.mean_delay, st.p95_delay, st.max_queue,
               st.max_node_queue, st.late, st.link_utilisation, st.dim_utilisation[0], st.dim_utilisation[1], st.dim_utilisation[2]);
    }
    printf("formula: mean reception delay %.3f\n", formula_reception(&sh, o.routing, o.uniform, o.discipline, o.rho));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--model")) return run_model(argc - 2, argv + 2);
    const char *dump = 0, *json = 0, *svg = 0;
    int seeds = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dump") && i + 1 < argc) dump = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--model-seeds") && i + 1 < argc) seeds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--svg") && i + 2 < argc) { svg = argv[++i]; return run_svg(svg, argv[++i]); }
        else return usage();
    }
    if (!dump || seeds < 0 || seeds > 16) return usage();
    return run_dump(dump, json, seeds);
}
