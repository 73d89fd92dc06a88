/* SPDX-License-Identifier: ISC */
/* Host: dispatcher of the issue-5 algorithms and their bounds (lower bounds and the digests'
 * stated upper bounds). The MNB generators themselves are the partial-MNB rule run with every
 * node a source (sched_mnb_rule.c). */
#include "sched_coll.h"
#include "sched_pmnb.h"
#include "gen/sched_gen.h"
#include "base/sched_base.h"
#include "bcast/sched_bcast.h"
#include "baseline/sched_baseline.h"
#include "exchange/sched_exchange.h"
#include "dynamic/sched_dynsim.h"
#include "fault/sched_fault.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sched_coll_generate(sched_schedule *out, const sched_shape *shape, int algo, uint32_t root, char *err,
                        size_t errlen)
{
    return sched_coll_generate_dead(out, shape, algo, root, 0, 0, err, errlen);
}

int sched_coll_generate_dead(sched_schedule *out, const sched_shape *shape, int algo, uint32_t root,
                             const uint32_t *dead, uint32_t ndead, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->dead = dead;
    out->ndead = ndead;
    const char *problem = sched_subshape_problem(shape);
    if (problem) return sched_fail(err, errlen, "bad shape: %s", problem);
    if (shape->dims < 2) return sched_fail(err, errlen, "bad shape: the generators need 2 or 3 dimensions");
    out->shape = *shape;
    out->algo = (sched_algo)algo;
    out->root = root < sched_nodes(shape) ? root : 0;
    switch (algo) {
    case 32: case 33: {
        sched_pmnb_plan pl;
        const char *why = sched_pmnb_make_plan(&pl, shape, sched_nodes(shape), algo == 33, 1);
        if (why) return sched_fail(err, errlen, "%s: %s", sched_coll_algo_name(algo), why);
        return sched_gen_mnb(out, algo == 33, err, errlen);
    }
    case 40: return sched_gen_mnb_diag(out, err, errlen);
    case 41: return sched_dyn_burst(out, shape, SCHED_DYN_PRIO2, 1, err, errlen);
    case 34: return sched_gen_te_a3(out, err, errlen);
    case 35: return sched_gen_te_a2(out, err, errlen);
    case 36: return sched_gen_te_oneport(out, err, errlen);
    case 42: return sched_gen_mnb_opt(out, err, errlen);
    case 43: return sched_gen_allgather_ring(out, err, errlen);
    case 44: return sched_gen_alltoall_pairwise(out, err, errlen);
    case 46: case 47: case 48: case 49: case 50: return sched_gen_ft(out, err, errlen);
    case 37: case 38: case 39:
        return sched_fail(err, errlen, "%s needs a source set: use schedgen --sources or sched_sim_pmnb()",
                         sched_coll_algo_name(algo));
    case 45:
        return sched_fail(err, errlen, "pg needs a destination set: use schedgen --sources or sched_sim_pg()");
    }
    return sched_fail(err, errlen, "unknown algorithm %d", algo);
}

/* A decimal number at p: digits only (no sign, no blanks). Returns the digits read (0: not a
 * number) and the value in *v, capped at 2^32 (so anything past 0xffffffff reads as too big). */
static size_t src_number(const char *p, unsigned long long *v)
{
    size_t k = 0;
    *v = 0;
    for (; p[k] >= '0' && p[k] <= '9'; k++) {
        *v = *v * 10u + (unsigned)(p[k] - '0');
        if (*v > 0x100000000ull) *v = 0x100000000ull;
    }
    return k;
}

int sched_coll_parse_sources(const char *text, const sched_shape *shape, uint8_t *sources, char *err, size_t errlen)
{
    const uint32_t n = sched_nodes(shape);
    unsigned long long v;
    size_t k;
    memset(sources, 0, n);
    if (!*text) return sched_fail(err, errlen, "bad --sources '': give node ids 0 .. %u separated by commas (like 0,5,9) "
                                 "or random:M[:SEED]", (unsigned)(n - 1u));
    if (strncmp(text, "random:", 7) == 0) {
        const char *p = text + 7;
        unsigned long long m, seed = 1;
        k = src_number(p, &m);
        if (!k || (p[k] && p[k] != ':'))
            return sched_fail(err, errlen, "bad --sources '%s': M must be a decimal number of sources: random:M or "
                             "random:M:SEED", text);
        if (m < 1 || m > n) return sched_fail(err, errlen, "bad --sources '%s': M must be 1 .. %u", text, (unsigned)n);
        if (p[k] == ':') {
            p += k + 1;
            k = src_number(p, &seed);
            if (!k || p[k])
                return sched_fail(err, errlen, "bad --sources '%s': SEED must be a decimal number: random:M:SEED", text);
            if (seed > 0xffffffffull)
                return sched_fail(err, errlen, "bad --sources '%s': SEED must be 0 .. 4294967295", text);
        }
        uint32_t st = (uint32_t)seed * 2654435761u + 1u;
        for (unsigned long long c = 0; c < m;) {
            st = st * 1103515245u + 12345u;
            uint32_t r = (st >> 8) % n;
            if (!sources[r]) { sources[r] = 1; c++; }
        }
        return 0;
    }
    const char *p = text;
    for (;;) {
        k = src_number(p, &v);
        if (!k) {
            size_t len = strcspn(p, ",");
            return sched_fail(err, errlen, "bad --sources '%s': '%.*s' is not a node id: give node ids 0 .. %u "
                             "separated by commas (like 0,5,9), or random:M[:SEED]", text, (int)(len < 40 ? len : 40),
                             p, (unsigned)(n - 1u));
        }
        if (v >= n)
            return sched_fail(err, errlen, "bad --sources '%s': node %.*s is outside the shape: node ids 0 .. %u",
                             text, (int)(k < 40 ? k : 40), p, (unsigned)(n - 1u));
        if (sources[v]) return sched_fail(err, errlen, "bad --sources '%s': node %u given twice", text, (unsigned)v);
        sources[v] = 1;
        p += k;
        if (*p == 0) break;
        if (*p != ',' || p[1] == 0)
            return sched_fail(err, errlen, "bad --sources '%s': node ids 0 .. %u separated by commas, nothing else "
                             "(like 0,5,9)", text, (unsigned)(n - 1u));
        p++;
    }
    return 0;
}

void sched_coll_partial_bounds(const sched_schedule *s, const uint8_t *sources, uint32_t *m, uint32_t *bound,
                               uint32_t *lower)
{
    const sched_shape *sh = &s->shape;
    const uint32_t n = sched_nodes(sh), parts = sched_coll_parts(s), deg = sh->torus ? 2u * sh->dims : sh->dims;
    *m = 0;
    for (uint32_t v = 0; v < n; v++) *m += sources[v] != 0;
    *bound = sched_coll_expected_slots(sh, (int)s->algo, *m);
    if (s->algo == SCHED_ALGO_PE || s->algo == SCHED_ALGO_PG) *lower = sched_pe_lb_placement(sh, sources);
    else *lower = (parts * (*m - 1u) + deg - 1u) / deg;
}

int sched_coll_generate_partial(sched_schedule *out, const sched_shape *shape, int algo, const uint8_t *sources,
                                char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (algo == 37 || algo == 38) return sched_sim_pmnb(out, shape, sources, algo == 38, 0, 0, err, errlen);
    if (algo == 39) return sched_sim_pe(out, shape, sources, err, errlen);
    if (algo == 45) return sched_sim_pg(out, shape, sources, err, errlen);
    return sched_fail(err, errlen, "--sources applies to pmnb, pmnb-split, pe and pg only");
}

/* ---------------------------------------------------------------- bounds */

uint32_t sched_coll_lower_bound(const sched_schedule *s)
{
    const sched_shape *sh = &s->shape;
    if (s->coll == SCHED_COLL_PARTIAL_ALLGATHER || s->coll == SCHED_COLL_PARTIAL_ALLTOALL ||
        s->coll == SCHED_COLL_PARTIAL_GATHER)
        return 0;   /* needs the set */
    /* the -ft schedules of the rooted collectives: the undamaged machine's bounds still hold */
    if (s->coll == SCHED_COLL_BCAST) return sched_eccentricity(sh, s->root);
    if (s->coll == SCHED_COLL_SCATTER || s->coll == SCHED_COLL_GATHER) return sched_lb_scatter(sh, s->root);
    if (s->coll == SCHED_COLL_ALLTOALL && s->model == SCHED_MODEL_WORMHOLE_CONTENDED) {
        /* rounds, not slots: a node sends N-1 worms, at most one per port per round */
        const uint32_t n = sched_nodes(sh), mindeg = sh->torus ? 2u * sh->dims : sh->dims;
        return (n - 1u + mindeg - 1u) / mindeg;
    }
    if (s->coll == SCHED_COLL_ALLTOALL || s->coll == SCHED_COLL_PARTIAL_ALLTOALL)
        return s->model == SCHED_MODEL_SAF_ONEPORT ? sched_lb_te_status(sh) : sched_lb_te_cut(sh);
    if (s->algo == SCHED_ALGO_MNB_OPT) return sched_mnb_opt_lower_bound(sh);
    const uint32_t parts = sched_coll_parts(s), n = sched_nodes(sh), mindeg = sh->torus ? 2u * sh->dims : sh->dims;
    const uint32_t by_ports = (parts * (n - 1u) + mindeg - 1u) / mindeg, lb = sched_lb_mnb(sh) * parts;
    return parts > 1u ? by_ports : lb;
}

static uint32_t te_1d_time(uint32_t n, int torus)
{
    uint32_t sq = n * n - 1u;
    return torus ? (sq + 7u) / 8u : (sq + 3u) / 4u;
}

/* Digest bounds. mnb: corollary of sec. 4.2 (A7 item 7); mnb-split: Theorem 6 (7)/(8) with
 * t_p = 0, times d (mini-slots); pmnb: A7 item 4 general formula, t_p = 0 (slots after the
 * prefix); pmnb-split: (7)/(8) times d. te-a3: n T_H; te-a2: sum_k (N/n_k) T_k; te-oneport:
 * s_G. Real-valued bounds are rounded down (an integer slot count meets x iff <= floor x). */
uint32_t sched_coll_expected_slots(const sched_shape *sh, int algo, uint32_t m)
{
    const uint32_t d = sh->dims, p = sh->side[0], n = sched_nodes(sh);
    const double gamma = sh->torus ? 2.0 : 1.0, frac = (double)(n - 1u) / (double)n;
    const uint32_t cg = sh->torus ? p / 2u : p - 1u;   /* ceil((p-1)/gamma) */
    switch (algo) {
    case 32: m = n; /* fall through */
    case 37: {
        if (m == 0) return 0;   /* partial: depends on M */
        double md = (double)((m + d - 1u) / d);
        double b = md * cg / (double)(p - 1u) * frac + (double)((p - 1u) * d) + (double)(d * cg);
        return (uint32_t)(b + 1e-9);
    }
    case 33: m = n; /* fall through */
    case 38: {
        if (m == 0) return 0;
        double b = (double)m / (gamma * d) * frac + (1.0 + 1.0 / gamma) * (double)(p - 1u);
        /* (7) assumes half-packet splitting on rings; mini-packets are not split again, so on an
         * even ring a subphase with an odd number of rounds pays half a mini-slot more: + d/2. */
        double extra = (sh->torus && p % 2u == 0) ? d / 2.0 : 0.0;
        return (uint32_t)(b * d + extra + 1e-9);
    }
    case 34: return sh->side[0] * te_1d_time(sh->side[0], sh->torus);
    case 35: {
        uint32_t t = 0;
        for (uint32_t k = 0; k < d; k++) t += n / sh->side[k] * te_1d_time(sh->side[k], sh->torus);
        return t;
    }
    case 36: return sched_lb_te_status(sh);
    case 39: case 45: return m ? sched_pe_bound(sh, m) : 0;   /* the gather is the exchange reversed */
    case 42: return sched_mnb_opt_lower_bound(sh);   /* [BeT89]: ceil((N-1)/4) on a p x p torus */
    case 43: case 44: return n - 1u;
    case 40: {   /* the plan's own length (no digest bound: not in the paper) */
        sched_pmnb_plan pl;
        return sched_pmnb_make_plan_diag(&pl, sh) ? 0 : pl.total_slots;
    }
    }
    return 0;
}
