/* SPDX-License-Identifier: ISC */
/* Host: total exchange (alltoall) generators (Dimakopoulos thesis, digest 2.4):
 *  - A3: n x n torus or mesh, all-port; n rounds of T_H slots, the A side (dimension 0)
 *    and the B side (dimension 1) running 1-D total exchanges in the same slots;
 *  - A2 generalised to d dimensions, all-port: phase k (k = d-1 .. 0) moves every message to
 *    its destination's coordinate k in N/n_k rounds, each an exact 1-D total exchange;
 *  - single-port node-invariant FIFO on a torus (thesis Fig. 4.5): time = status s_G.
 * 1-D engines: ring = modified message shift (furthest-first initial order, antipode
 * clockwise from even and counter-clockwise from odd positions); line = furthest destination
 * first, ties to the smallest (rightward) / largest (leftward) source position. */
#include "sched_coll.h"
#include "exchange/sched_exchange.h"
#include "base/sched_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1-D total exchange time on a ring (torus dimension) or a line (mesh dimension). */
static uint32_t te_1d(uint32_t n, int torus)
{
    uint32_t sq = n * n - 1u;
    return torus ? (sq + 7u) / 8u : (sq + 3u) / 4u;
}

typedef struct {
    uint32_t piece;   /* src * N + final */
    uint32_t at;      /* node it sits at */
    uint32_t target;  /* node it must reach in this round (same line) */
    uint32_t seq;     /* queue position (ring: FIFO order) */
    int32_t src_pos;  /* position on the line where the round started */
    int8_t dir;
    uint8_t done;
} te_msg;

typedef struct {
    sched_schedule *out;
    const sched_shape *sh;
    uint32_t nodes;
    uint32_t *best;   /* nodes * 2: index of the message chosen per (node, direction) */
} te_engine;

static int32_t coord_of(const sched_shape *sh, uint32_t id, uint32_t dim)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(sh, id, c);
    return c[dim];
}

/* Runs one round of 1-D total exchanges along `dim` on every line at once, from slot
 * `first`. Returns the slots used, or UINT32_MAX on error (out of memory / stuck). */
static uint32_t te_engine_round(te_engine *e, uint32_t dim, te_msg *msg, uint32_t count, uint32_t first)
{
    const sched_shape *sh = e->sh;
    const int32_t n = sh->side[dim];
    const int torus = sh->torus;
    uint32_t left = 0, seq = (uint32_t)n + 1u;
    for (uint32_t i = 0; i < count; i++) {
        te_msg *m = &msg[i];
        int32_t x = coord_of(sh, m->at, dim), y = coord_of(sh, m->target, dim);
        m->src_pos = x;
        m->done = m->at == m->target;
        if (m->done) continue;
        left++;
        if (torus) {
            int32_t off = ((y - x) % n + n) % n;
            if (2 * off < n) m->dir = 1;
            else if (2 * off > n) m->dir = -1;
            else m->dir = (x % 2 == 0) ? 1 : -1;
            int32_t dist = m->dir > 0 ? off : n - off;
            m->seq = (uint32_t)(n - dist);   /* furthest first */
        } else {
            m->dir = y > x ? 1 : -1;
            m->seq = 0;
        }
    }
    uint32_t slot = first;
    while (left) {
        if (slot - first > 4u * (uint32_t)n * (uint32_t)n + 16u) return UINT32_MAX;
        for (uint32_t k = 0; k < 2u * e->nodes; k++) e->best[k] = UINT32_MAX;
        for (uint32_t i = 0; i < count; i++) {
            te_msg *m = &msg[i];
            if (m->done) continue;
            uint32_t *b = &e->best[2u * m->at + (m->dir < 0)];
            if (*b == UINT32_MAX) { *b = i; continue; }
            te_msg *o = &msg[*b];
            int better;
            if (torus) better = m->seq < o->seq;
            else {
                int32_t ym = coord_of(sh, m->target, dim), yo = coord_of(sh, o->target, dim);
                if (ym != yo) better = m->dir > 0 ? ym > yo : ym < yo;
                else better = m->dir > 0 ? m->src_pos < o->src_pos : m->src_pos > o->src_pos;
            }
            if (better) *b = i;
        }
        for (uint32_t k = 0; k < 2u * e->nodes; k++) {
            if (e->best[k] == UINT32_MAX) continue;
            te_msg *m = &msg[e->best[k]];
            int64_t nb = sched_neighbour(sh, m->at, sched_port((uint8_t)dim, m->dir));
            if (nb < 0) return UINT32_MAX;
            sched_msg sm;
            memset(&sm, 0, sizeof sm);
            sm.src = m->at;
            sm.dst = (uint32_t)nb;
            sm.piece = m->piece;
            sm.step = (uint16_t)slot;
            sm.start_dim = (uint8_t)dim;
            sm.hops[dim] = (int16_t)m->dir;
            sm.reserved = sm.dst == m->piece % e->nodes ? 0 : SCHED_MSG_TRANSIT;
            if (sched_push(e->out, &sm)) return UINT32_MAX;
            m->at = (uint32_t)nb;
            if (m->at == m->target) { m->done = 1; left--; }
            else m->seq = seq++;
        }
        slot++;
    }
    return slot - first;
}

static int engine_open(te_engine *e, sched_schedule *out)
{
    e->out = out;
    e->sh = &out->shape;
    e->nodes = sched_nodes(&out->shape);
    e->best = malloc(sizeof *e->best * 2u * e->nodes);
    return e->best ? 0 : -1;
}

static uint32_t node_with(const sched_shape *sh, uint32_t id, uint32_t dim, int32_t value)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(sh, id, c);
    c[dim] = value;
    return sched_node_id(sh, c);
}

int sched_gen_te_a3(sched_schedule *out, char *err, size_t errlen)
{
    const sched_shape *sh = &out->shape;
    if (sh->dims != 2 || sh->side[0] != sh->side[1])
        return sched_fail(err, errlen, "te-a3 needs an n x n shape (use te-a2 for other shapes)");
    const uint32_t n = sh->side[0], nodes = n * n, th = te_1d(n, sh->torus);
    out->coll = SCHED_COLL_ALLTOALL;
    out->model = SCHED_MODEL_SAF_ALLPORT;
    te_engine e;
    if (engine_open(&e, out)) return sched_fail(err, errlen, "out of memory");
    /* Per node, the n-1 messages it received in the last B round (next A round's load). */
    te_msg *amsg = malloc(sizeof *amsg * nodes * (n - 1u)), *bmsg = malloc(sizeof *bmsg * nodes * (n - 1u));
    if (!amsg || !bmsg) { free(amsg); free(bmsg); free(e.best); return sched_fail(err, errlen, "out of memory"); }
    int rc = 0;
    for (uint32_t r = 1; r <= n && rc == 0; r++) {
        const uint32_t first = (r - 1u) * th + 1u;
        uint32_t na = 0, nb = 0;
        for (uint32_t v = 0; v < nodes; v++) {
            const uint32_t i = v % n, j = v / n;   /* (v_i, u_j): i = dim-0 coordinate, j = dim-1 */
            if (r == 1)
                for (uint32_t i2 = 0; i2 < n; i2++) {
                    if (i2 == i) continue;
                    uint32_t dst = i2 + n * j;
                    amsg[na++] = (te_msg){.piece = v * nodes + dst, .at = v, .target = dst};
                }
            for (uint32_t l = 1; l < n; l++) {
                uint32_t jj = (j + l) % n, ii;
                if (r < n) ii = (i + ((r - 2u + l) % (n - 1u)) + 1u) % n;
                else ii = i;
                uint32_t dst = ii + n * jj, mid = i + n * jj;
                bmsg[nb++] = (te_msg){.piece = v * nodes + dst, .at = v, .target = mid};
            }
        }
        uint32_t used_b, used_a;
        if (r > 1) {
            /* amsg holds, from the previous iteration, the B messages at their intermediates. */
            na = nodes * (n - 1u);
            for (uint32_t k = 0; k < na; k++) amsg[k].target = amsg[k].piece % nodes;
        }
        used_a = te_engine_round(&e, 0, amsg, na, first);
        used_b = te_engine_round(&e, 1, bmsg, nb, first);
        if (used_a == UINT32_MAX || used_b == UINT32_MAX) rc = sched_fail(err, errlen, "te-a3: engine failed (memory)");
        else if (used_a > th || used_b > th)
            rc = sched_fail(err, errlen, "te-a3: round %u took %u/%u slots, more than T_H = %u", (unsigned)r,
                          (unsigned)used_a, (unsigned)used_b, (unsigned)th);
        /* The B messages (now at their intermediates) feed the next A round. */
        te_msg *t = amsg; amsg = bmsg; bmsg = t;
    }
    free(amsg); free(bmsg); free(e.best);
    if (rc) return rc;
    sched_finish(out);
    return 0;
}

int sched_gen_te_a2(sched_schedule *out, char *err, size_t errlen)
{
    const sched_shape *sh = &out->shape;
    const uint32_t nodes = sched_nodes(sh), d = sh->dims;
    out->coll = SCHED_COLL_ALLTOALL;
    out->model = SCHED_MODEL_SAF_ALLPORT;
    if ((uint64_t)nodes * nodes > 20000000u) return sched_fail(err, errlen, "te-a2: shape too large for the host generator");
    te_engine e;
    if (engine_open(&e, out)) return sched_fail(err, errlen, "out of memory");
    const uint32_t total = nodes * (nodes - 1u);
    te_msg *all = malloc(sizeof *all * total), *round = malloc(sizeof *round * total);
    uint32_t *bucket_start = 0, *order = malloc(sizeof *order * total), *key = malloc(sizeof *key * total);
    if (!all || !round || !order || !key) { free(all); free(round); free(order); free(key); free(e.best); return sched_fail(err, errlen, "out of memory"); }
    uint32_t k = 0;
    for (uint32_t s = 0; s < nodes; s++)
        for (uint32_t t = 0; t < nodes; t++)
            if (s != t) all[k++] = (te_msg){.piece = s * nodes + t, .at = s};
    uint32_t slot = 1;
    int rc = 0;
    for (int dim = (int)d - 1; dim >= 0 && rc == 0; dim--) {
        const uint32_t nk = sh->side[dim], rounds = nodes / nk, tk = te_1d(nk, sh->torus);
        /* Round key: (source coordinates above dim, final coordinates below dim). */
        bucket_start = calloc(rounds + 1u, sizeof *bucket_start);
        if (!bucket_start) { rc = sched_fail(err, errlen, "out of memory"); break; }
        for (uint32_t i = 0; i < total; i++) {
            int32_t sc[SCHED_MAX_DIMS], tc[SCHED_MAX_DIMS];
            sched_node_coord(sh, all[i].piece / nodes, sc);
            sched_node_coord(sh, all[i].piece % nodes, tc);
            uint32_t kk = 0;
            for (int j = (int)d - 1; j >= 0; j--) {
                if (j == dim) continue;
                kk = kk * sh->side[j] + (uint32_t)(j > dim ? sc[j] : tc[j]);
            }
            key[i] = kk;
            bucket_start[kk + 1u]++;
        }
        for (uint32_t r = 0; r < rounds; r++) bucket_start[r + 1u] += bucket_start[r];
        for (uint32_t i = 0; i < total; i++) order[bucket_start[key[i]]++] = i;
        for (uint32_t r = rounds; r > 0; r--) bucket_start[r] = bucket_start[r - 1u];
        bucket_start[0] = 0;
        for (uint32_t r = 0; r < rounds && rc == 0; r++) {
            uint32_t cnt = 0;
            for (uint32_t q = bucket_start[r]; q < bucket_start[r + 1u]; q++) {
                te_msg m = all[order[q]];
                int32_t tc[SCHED_MAX_DIMS];
                sched_node_coord(sh, m.piece % nodes, tc);
                m.target = node_with(sh, m.at, (uint32_t)dim, tc[dim]);
                round[cnt++] = m;
            }
            uint32_t used = te_engine_round(&e, (uint32_t)dim, round, cnt, slot);
            if (used == UINT32_MAX) { rc = sched_fail(err, errlen, "te-a2: engine failed"); break; }
            if (used > tk) { rc = sched_fail(err, errlen, "te-a2: a round took %u slots, more than %u", (unsigned)used, (unsigned)tk); break; }
            for (uint32_t q = bucket_start[r], c = 0; q < bucket_start[r + 1u]; q++, c++) all[order[q]].at = round[c].at;
            slot += tk;
        }
        free(bucket_start);
        bucket_start = 0;
    }
    free(all); free(round); free(order); free(key); free(e.best);
    if (rc) return rc;
    sched_finish(out);
    return 0;
}

int sched_gen_te_oneport(sched_schedule *out, char *err, size_t errlen)
{
    const sched_shape *sh = &out->shape;
    if (!sh->torus) return sched_fail(err, errlen, "te-oneport: the node-invariant FIFO needs a torus (a Cayley graph)");
    const uint32_t n = sched_nodes(sh), d = sh->dims;
    if ((uint64_t)n * n > 20000000u) return sched_fail(err, errlen, "te-oneport: shape too large for the host generator");
    out->coll = SCHED_COLL_ALLTOALL;
    out->model = SCHED_MODEL_SAF_ONEPORT;
    /* Per node a circular FIFO of piece ids (capacity n). */
    uint32_t *q = malloc(sizeof *q * (size_t)n * n), *head = calloc(n, sizeof *head), *len = calloc(n, sizeof *len);
    uint32_t *arrive = malloc(sizeof *arrive * n);
    if (!q || !head || !len || !arrive) { free(q); free(head); free(len); free(arrive); return sched_fail(err, errlen, "out of memory"); }
    /* The same relative order everywhere: destination offset 1 .. n-1 (as a node id). */
    for (uint32_t v = 0; v < n; v++) {
        int32_t cv[SCHED_MAX_DIMS];
        sched_node_coord(sh, v, cv);
        for (uint32_t off = 1; off < n; off++) {
            int32_t co[SCHED_MAX_DIMS], ct[SCHED_MAX_DIMS] = {0, 0, 0};
            sched_node_coord(sh, off, co);
            for (uint32_t k = 0; k < d; k++) ct[k] = (cv[k] + co[k]) % sh->side[k];
            q[(size_t)v * n + len[v]++] = v * n + sched_node_id(sh, ct);
        }
    }
    uint64_t left = (uint64_t)n * (n - 1u);
    uint32_t slot = 1;
    int rc = 0;
    while (left && rc == 0) {
        for (uint32_t v = 0; v < n; v++) arrive[v] = UINT32_MAX;
        for (uint32_t v = 0; v < n && rc == 0; v++) {
            if (!len[v]) continue;
            uint32_t piece = q[(size_t)v * n + head[v]];
            head[v] = (head[v] + 1u) % n;
            len[v]--;
            int32_t cv[SCHED_MAX_DIMS], ct[SCHED_MAX_DIMS];
            sched_node_coord(sh, v, cv);
            sched_node_coord(sh, piece % n, ct);
            uint32_t dim = 0;
            int32_t rel = 0;
            for (dim = 0; dim < d; dim++) {
                rel = ((ct[dim] - cv[dim]) % sh->side[dim] + sh->side[dim]) % sh->side[dim];
                if (rel) break;
            }
            int dir = 2 * rel <= sh->side[dim] ? 1 : -1;
            uint32_t dst = (uint32_t)sched_neighbour(sh, v, sched_port((uint8_t)dim, dir));
            sched_msg sm;
            memset(&sm, 0, sizeof sm);
            sm.src = v;
            sm.dst = dst;
            sm.piece = piece;
            sm.step = (uint16_t)slot;
            sm.start_dim = (uint8_t)dim;
            sm.hops[dim] = (int16_t)dir;
            sm.reserved = dst == piece % n ? 0 : SCHED_MSG_TRANSIT;
            if (sched_push(out, &sm)) { rc = sched_fail(err, errlen, "out of memory"); break; }
            if (arrive[dst] != UINT32_MAX) { rc = sched_fail(err, errlen, "te-oneport: node %u receives twice in slot %u", (unsigned)dst, (unsigned)slot); break; }
            arrive[dst] = piece;
        }
        for (uint32_t v = 0; v < n && rc == 0; v++) {
            if (arrive[v] == UINT32_MAX) continue;
            if (arrive[v] % n == v) left--;
            else q[(size_t)v * n + (head[v] + len[v]++) % n] = arrive[v];
        }
        slot++;
        if (slot > 65000u) rc = sched_fail(err, errlen, "te-oneport: too many slots");
    }
    free(q); free(head); free(len); free(arrive);
    if (rc) return rc;
    sched_finish(out);
    return 0;
}
