/* SPDX-License-Identifier: ISC */
/* Tsay-Wang broadcast on an all-port wormhole n^d torus (d = 2, 3), any n >= 2, as
 * corrected in the digest (B3, B4): rank positions shared by all columns for any odd n,
 * duplicate suppression in the final phase, the (n-1)^d subtorus plus the pairwise
 * ceil(d/2)-step fill for even n. Routes: start dimension + one direction throughout, in
 * the real n-torus. Host only (allocates). */
#include "sched.h"
#include "bcast/sched_bcast.h"
#include "base/sched_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int32_t p, delta, pn; } triple;   /* source position, rank offset, new position */

typedef struct {
    uint32_t nsteps;
    uint32_t *start;    /* nsteps + 1 offsets into t */
    triple *t;
    uint32_t count;
} pattern;

static void pattern_free(pattern *pat) { free(pat->start); free(pat->t); }

/* Digest B4 rank_positions: cycle of m positions, 2d new nodes per interval. */
static int pattern_build(pattern *pat, int32_t m, int32_t d)
{
    const int32_t q = 2 * d + 1;
    memset(pat, 0, sizeof *pat);
    uint8_t *old = calloc((size_t)m, 1);
    int32_t *olds = malloc((size_t)m * sizeof *olds);
    pat->t = malloc((size_t)m * sizeof *pat->t);
    pat->start = malloc(((size_t)m + 2u) * sizeof *pat->start);
    if (!old || !olds || !pat->t || !pat->start) { free(old); free(olds); return -1; }
    old[0] = 1;
    int32_t have = 1;
    pat->start[0] = 0;
    while (have < m) {
        int32_t nold = 0;
        for (int32_t i = 0; i < m; i++) if (old[i]) olds[nold++] = i;
        uint32_t before = pat->count;
        for (int32_t k = 0; k < nold; k++) {
            int32_t P = olds[k], Pn = k + 1 < nold ? olds[k + 1] : m, g = Pn - P;
            if (g >= q) {
                for (int32_t i = 1; i <= 2 * d; i++) {
                    int32_t o = i * g / q;
                    triple tr = i <= d ? (triple){P, i, P + o} : (triple){Pn % m, i - q, P + o};
                    pat->t[pat->count++] = tr;
                }
            } else {
                for (int32_t o = 1; o < g; o++) {
                    triple tr = o <= d ? (triple){P, o, P + o} : (triple){Pn % m, o - g, P + o};
                    pat->t[pat->count++] = tr;
                }
            }
        }
        for (uint32_t i = before; i < pat->count; i++) old[pat->t[i].pn] = 1;
        have += (int32_t)(pat->count - before);
        pat->start[++pat->nsteps] = pat->count;
    }
    free(old);
    free(olds);
    return 0;
}

typedef struct {
    sched_schedule *s;
    int32_t n, m, d;
    int32_t root[SCHED_MAX_DIMS];
    uint16_t step;
    uint32_t emitted_in_step;
    int oom;
} tw_ctx;

static int32_t mod(int32_t a, int32_t m) { return ((a % m) + m) % m; }

/* Virtual coordinates (root at the origin) -> real message. */
static void emit(tw_ctx *c, const int32_t *vs, const int32_t *vt, int32_t dim, int32_t dir)
{
    const sched_shape *sh = &c->s->shape;
    int32_t rs[SCHED_MAX_DIMS] = {0, 0, 0}, rt[SCHED_MAX_DIMS] = {0, 0, 0};
    sched_msg msg = {0};
    for (int32_t k = 0; k < c->d; k++) {
        rs[k] = mod(vs[k] + c->root[k], c->n);
        rt[k] = mod(vt[k] + c->root[k], c->n);
        msg.hops[k] = (int16_t)(dir > 0 ? mod(rt[k] - rs[k], c->n) : -mod(rs[k] - rt[k], c->n));
    }
    msg.src = sched_node_id(sh, rs);
    msg.dst = sched_node_id(sh, rt);
    msg.start_dim = (uint8_t)dim;
    msg.step = c->step;
    msg.piece = 0;
    if (sched_push(c->s, &msg)) c->oom = 1;
    c->emitted_in_step++;
}

static void step_begin(tw_ctx *c) { c->step++; c->emitted_in_step = 0; }
static void step_end(tw_ctx *c) { if (c->emitted_in_step == 0) c->step--; }   /* drop empty steps */

int sched_gen_tsay_wang(sched_schedule *s, char *err, size_t errlen)
{
    tw_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.d = s->shape.dims;
    c.n = s->shape.side[0];
    c.m = c.n % 2 ? c.n : c.n - 1;
    sched_node_coord(&s->shape, s->root, c.root);
    const int32_t d = c.d, m = c.m, n = c.n;
    pattern pat;
    if (pattern_build(&pat, m, d)) return sched_fail(err, errlen, "out of memory");

    /* D0: informed nodes, virtual coordinates, d per node. Up to m^(d-1) entries. */
    uint32_t cap = 1;
    for (int32_t k = 0; k < d - 1; k++) cap *= (uint32_t)m;
    int32_t *D0 = malloc((size_t)cap * (size_t)d * sizeof *D0);
    int32_t *D1 = malloc((size_t)cap * (size_t)d * sizeof *D1);
    int32_t *lookup = malloc((size_t)cap * sizeof *lookup);
    uint8_t *informed = calloc(sched_nodes(&s->shape), 1);
    int rc = -1;
    if (!D0 || !D1 || !lookup || !informed) { sched_fail(err, errlen, "out of memory"); goto out; }

    /* Phase 1: along the main diagonal. */
    for (uint32_t st = 0; st < pat.nsteps; st++) {
        step_begin(&c);
        for (uint32_t i = pat.start[st]; i < pat.start[st + 1]; i++) {
            int32_t a[SCHED_MAX_DIMS], b[SCHED_MAX_DIMS];
            for (int32_t k = 0; k < d; k++) { a[k] = pat.t[i].p; b[k] = pat.t[i].pn; }
            int32_t dl = pat.t[i].delta;
            emit(&c, a, b, (dl < 0 ? -dl : dl) - 1, dl < 0 ? -1 : 1);
        }
        step_end(&c);
    }
    uint32_t nD0 = 0;
    for (int32_t P = 0; P < m; P++, nD0++) for (int32_t k = 0; k < d; k++) D0[nD0 * (uint32_t)d + (uint32_t)k] = P;

    /* Phases h = 2 .. d-1: diagonals to diagonals. */
    for (int32_t h = 2; h <= d - 1; h++) {
        const int32_t w = d - h + 1;   /* repeated coordinates 0..w-1, trailing w..d-1 */
        /* Lemma 7 lookups, one per trailing coordinate j (absolute index w-1+j): key is
         * (x0, trailing coordinates except j) in mixed radix m. */
        for (uint32_t st = 0; st < pat.nsteps; st++) {
            step_begin(&c);
            for (uint32_t oi = 0; oi < nD0; oi++) {
                const int32_t *o = &D0[oi * (uint32_t)d];
                for (uint32_t i = pat.start[st]; i < pat.start[st + 1]; i++) {
                    int32_t P = pat.t[i].p, Pn = pat.t[i].pn, dl = pat.t[i].delta;
                    int32_t ad = dl < 0 ? -dl : dl, dir = dl < 0 ? -1 : 1;
                    int32_t a[SCHED_MAX_DIMS], b[SCHED_MAX_DIMS];
                    for (int32_t k = 0; k < w - 1; k++) a[k] = mod(o[0] + P, m);
                    a[w - 1] = mod(o[0] - P, m);
                    for (int32_t k = w; k < d; k++) a[k] = o[k];
                    if (ad <= w) {
                        for (int32_t k = 0; k < w - 1; k++) b[k] = mod(o[0] + Pn, m);
                        b[w - 1] = mod(o[0] - Pn, m);
                        for (int32_t k = w; k < d; k++) b[k] = o[k];
                        emit(&c, a, b, ad - 1, dir);
                    } else {
                        int32_t j = ad - w;             /* 1 .. h-1 */
                        int32_t y0 = mod(o[0] + P - Pn, m);
                        /* Find o2 in D0 with x0 = y0 and the same trailing coords except j. */
                        const int32_t *o2 = 0;
                        for (uint32_t k2 = 0; k2 < nD0 && !o2; k2++) {
                            const int32_t *cand = &D0[k2 * (uint32_t)d];
                            if (cand[0] != y0) continue;
                            int same = 1;
                            for (int32_t k = w; k < d; k++)
                                if (k != w - 1 + j && cand[k] != o[k]) same = 0;
                            if (same) o2 = cand;
                        }
                        if (!o2) { sched_fail(err, errlen, "tsay-wang: no column for a cross-column send (n=%d)", (int)n); goto out; }
                        for (int32_t k = 0; k < w - 1; k++) b[k] = mod(o2[0] + Pn, m);
                        b[w - 1] = mod(o2[0] - Pn, m);
                        for (int32_t k = w; k < d; k++) b[k] = o2[k];
                        emit(&c, a, b, w + j - 1, dir);
                    }
                }
            }
            step_end(&c);
        }
        /* D0 <- all columns. */
        uint32_t n1 = 0;
        for (uint32_t oi = 0; oi < nD0; oi++) {
            const int32_t *o = &D0[oi * (uint32_t)d];
            for (int32_t P = 0; P < m; P++, n1++) {
                int32_t *b = &D1[n1 * (uint32_t)d];
                for (int32_t k = 0; k < w - 1; k++) b[k] = mod(o[0] + P, m);
                b[w - 1] = mod(o[0] - P, m);
                for (int32_t k = w; k < d; k++) b[k] = o[k];
            }
        }
        int32_t *tmp = D0; D0 = D1; D1 = tmp;
        nD0 = n1;
    }

    /* Phase d: step A moves each line's node to sigma = sum of the other coordinates. */
    for (uint32_t oi = 0; oi < nD0; oi++) {
        int32_t idc[SCHED_MAX_DIMS] = {0, 0, 0};
        for (int32_t k = 0; k < d; k++) idc[k] = D0[oi * (uint32_t)d + (uint32_t)k];
        informed[sched_node_id(&s->shape, idc)] = 1;
    }
    step_begin(&c);
    for (uint32_t oi = 0; oi < nD0; oi++) {
        const int32_t *o = &D0[oi * (uint32_t)d];
        int32_t sigma = 0, b[SCHED_MAX_DIMS];
        for (int32_t k = 1; k < d; k++) sigma += o[k];
        sigma = mod(sigma, m);
        if (o[0] == sigma) continue;
        memcpy(b, o, (size_t)d * sizeof *b);
        b[0] = sigma;
        emit(&c, o, b, 0, 1);
    }
    step_end(&c);
    /* Spreading steps along every line, duplicates of D0 suppressed. */
    uint32_t lines = nD0;   /* m^(d-1) lines */
    for (uint32_t st = 0; st < pat.nsteps; st++) {
        step_begin(&c);
        for (uint32_t li = 0; li < lines; li++) {
            int32_t L[SCHED_MAX_DIMS] = {0, 0, 0}, sigma = 0;
            uint32_t x = li;
            for (int32_t k = 1; k < d; k++) { L[k] = (int32_t)(x % (uint32_t)m); x /= (uint32_t)m; sigma += L[k]; }
            sigma = mod(sigma, m);
            for (uint32_t i = pat.start[st]; i < pat.start[st + 1]; i++) {
                int32_t P = pat.t[i].p, Pn = pat.t[i].pn, dl = pat.t[i].delta;
                int32_t ad = dl < 0 ? -dl : dl, sgn = dl < 0 ? -1 : 1;
                int32_t a[SCHED_MAX_DIMS], b[SCHED_MAX_DIMS], dim, dir;
                memcpy(a, L, sizeof a);
                a[0] = mod(sigma + P, m);
                memcpy(b, a, sizeof b);
                if (ad == 1) { b[0] = mod(sigma + Pn, m); dim = 0; dir = sgn; }
                else { b[ad - 1] = mod(b[ad - 1] + P - Pn, m); dim = ad - 1; dir = -sgn; }
                if (informed[sched_node_id(&s->shape, b)]) continue;
                emit(&c, a, b, dim, dir);
            }
        }
        step_end(&c);
    }

    /* Even n: pairwise fill of the layer n-1 (virtual), ceil(d/2) steps. */
    if (n % 2 == 0) {
        for (int32_t a0 = 0; a0 < d; a0 += 2) {
            const int32_t b0 = a0 + 1 < d ? a0 + 1 : -1;
            step_begin(&c);
            /* Other coordinates: dims < a0 in 0..n-1, dims > b0 (or > a0) in 0..n-2. */
            int32_t others[SCHED_MAX_DIMS], no = 0;
            for (int32_t k = 0; k < d; k++) if (k != a0 && k != b0) others[no++] = k;
            uint32_t combos = 1;
            for (int32_t k = 0; k < no; k++) combos *= (uint32_t)(others[k] < a0 ? n : n - 1);
            for (uint32_t ci = 0; ci < combos; ci++) {
                int32_t base[SCHED_MAX_DIMS] = {0, 0, 0};
                uint32_t x = ci;
                for (int32_t k = 0; k < no; k++) {
                    uint32_t r = (uint32_t)(others[k] < a0 ? n : n - 1);
                    base[others[k]] = (int32_t)(x % r);
                    x /= r;
                }
                int32_t sa[SCHED_MAX_DIMS], ta[SCHED_MAX_DIMS];
                if (b0 < 0) {
                    memcpy(sa, base, sizeof sa); memcpy(ta, base, sizeof ta);
                    sa[a0] = n - 2; ta[a0] = n - 1;
                    emit(&c, sa, ta, a0, 1);
                    continue;
                }
                for (int32_t y = 0; y <= n - 2; y++) {
                    memcpy(sa, base, sizeof sa); memcpy(ta, base, sizeof ta);
                    sa[a0] = n - 2; sa[b0] = y; ta[a0] = n - 1; ta[b0] = y;
                    emit(&c, sa, ta, a0, 1);
                    memcpy(sa, base, sizeof sa); memcpy(ta, base, sizeof ta);
                    sa[a0] = y; sa[b0] = n - 2; ta[a0] = y; ta[b0] = n - 1;
                    emit(&c, sa, ta, b0, 1);
                }
                memcpy(sa, base, sizeof sa); memcpy(ta, base, sizeof ta);
                sa[a0] = 0; sa[b0] = 0; ta[a0] = n - 1; ta[b0] = n - 1;
                emit(&c, sa, ta, a0, -1);
            }
            step_end(&c);
        }
    }
    if (c.oom) { sched_fail(err, errlen, "out of memory"); goto out; }
    sched_finish(s);
    rc = 0;
out:
    pattern_free(&pat);
    free(D0);
    free(D1);
    free(lookup);
    free(informed);
    return rc;
}
