/* SPDX-License-Identifier: ISC */
/* Cang-Wu one-port wormhole broadcast on a 2^k x 2^k mesh with small total communication
 * distance (digest part A):
 *   - Algorithm 1 with the orientation choice the paper omits (A3.2);
 *   - the quadrant-recursive optimum by dynamic programming (A3.3), which beats Algorithm 1
 *     where Theorem 2 fails.
 * On a 2^k torus both run the eye broadcast on a virtual mesh placed so that the root is an
 * eye; routes keep the virtual mesh direction (A3.5). Routes are XY (start dimension x when
 * the message moves in x). Host only (allocates). */
#include "sched.h"
#include "bcast/sched_bcast.h"
#include "base/sched_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t a_k(unsigned k) { return (int32_t)(((1 << k) - ((k & 1) ? -1 : 1)) / 3); }
static int32_t p_k(unsigned k) { return ((1 << k) - 1 - a_k(k)) / 2; }

uint64_t sched_cw_eye_tcd(unsigned k)
{
    /* (3 * 2^(2k+1) - (-1)^k) / 5 - 2^k */
    int64_t v = (3ll * (1ll << (2 * k + 1)) - ((k & 1) ? -1 : 1)) / 5 - (1ll << k);
    return (uint64_t)v;
}

uint64_t sched_cw_corner_tcd(unsigned k)
{
    uint64_t md = 3;
    for (unsigned j = 2; j <= k; j++)
        md = 5ull * (1ull << (j - 1)) - 2u - 2u * (uint64_t)a_k(j - 1) + md + 3u * sched_cw_eye_tcd(j - 1);
    return md;
}

typedef struct {
    sched_schedule *s;
    int32_t n;
    int32_t origin[2];   /* virtual mesh origin in real coordinates (torus); 0 on a mesh */
    int oom;
    /* DP tables per level j (block side 2^j): choice per position. */
    int32_t *choice[16]; /* 6 ints per position: n2x n2y n3x n3y n4x n4y (block-relative) */
} cw_ctx;

static void emit(cw_ctx *c, uint16_t step, int32_t sx, int32_t sy, int32_t tx, int32_t ty)
{
    const sched_shape *sh = &c->s->shape;
    sched_msg m = {0};
    int32_t rs[SCHED_MAX_DIMS] = {0, 0, 0}, rt[SCHED_MAX_DIMS] = {0, 0, 0};
    rs[0] = (sx + c->origin[0]) % c->n; rs[1] = (sy + c->origin[1]) % c->n;
    rt[0] = (tx + c->origin[0]) % c->n; rt[1] = (ty + c->origin[1]) % c->n;
    m.src = sched_node_id(sh, rs);
    m.dst = sched_node_id(sh, rt);
    m.step = step;
    m.hops[0] = (int16_t)(tx - sx);
    m.hops[1] = (int16_t)(ty - sy);
    m.start_dim = tx != sx ? 0 : 1;
    if (sched_push(c->s, &m)) c->oom = 1;
}

static int32_t g_fn(int32_t w, int32_t a1)
{
    if (w <= 0) return 0;
    if (2 * w <= a1) return 2 * w;
    return w + (w > a1 ? w - a1 : a1 - w);
}

static int32_t max0(int32_t v) { return v > 0 ? v : 0; }

/* Algorithm 1 on block [ox, ox+2^k) x [oy, oy+2^k), informed node (sx, sy), first step t0. */
static void alg1(cw_ctx *c, unsigned k, int32_t ox, int32_t oy, int32_t sx, int32_t sy, uint16_t t0)
{
    if (k == 1) {
        int32_t n2x = 2 * ox + 1 - sx, n3y = 2 * oy + 1 - sy;
        emit(c, t0, sx, sy, n2x, sy);
        emit(c, (uint16_t)(t0 + 1), sx, sy, sx, n3y);
        emit(c, (uint16_t)(t0 + 1), n2x, sy, n2x, n3y);
        return;
    }
    const int32_t n = 1 << k, h = n / 2, A = a_k(k), A1 = a_k(k - 1), P = p_k(k);
    const int mx = sx - ox >= h, my = sy - oy >= h;
    int32_t x = mx ? n - 1 - (sx - ox) : sx - ox, y = my ? n - 1 - (sy - oy) : sy - oy;
    int32_t u = P - x, v = P - y;
    int tr = g_fn(v, A1) + 2 * max0(u) < g_fn(u, A1) + 2 * max0(v);
    int32_t uu = tr ? v : u;
    int32_t e[3][2] = {{P + A, P}, {0, 0}, {P + A, P + A}};   /* E2, E3, E4 in the oriented frame */
    if (2 * uu > A1) { e[1][0] = P - A1; e[1][1] = P + A; } else { e[1][0] = P; e[1][1] = P + A; }
    int32_t absx[3], absy[3];
    for (int i = 0; i < 3; i++) {
        int32_t lx = tr ? e[i][1] : e[i][0], ly = tr ? e[i][0] : e[i][1];
        absx[i] = ox + (mx ? n - 1 - lx : lx);
        absy[i] = oy + (my ? n - 1 - ly : ly);
    }
    emit(c, t0, sx, sy, absx[0], absy[0]);
    emit(c, (uint16_t)(t0 + 1), sx, sy, absx[1], absy[1]);
    emit(c, (uint16_t)(t0 + 1), absx[0], absy[0], absx[2], absy[2]);
    int32_t qx[4] = {sx, absx[0], absx[1], absx[2]}, qy[4] = {sy, absy[0], absy[1], absy[2]};
    for (int i = 0; i < 4; i++)
        alg1(c, k - 1, ox + ((qx[i] - ox) >= h ? h : 0), oy + ((qy[i] - oy) >= h ? h : 0), qx[i], qy[i],
             (uint16_t)(t0 + 2));
}

/* ---- Quadrant-recursive DP (digest A3.3). Q_1 = 3; for level j, S in block:
 * Q_j(S) = Q_{j-1}(S) + min over orders (B2,B3,B4) of the other quadrants of
 *          min_{N3 in B3}(|S-N3| + Q_{j-1}(N3)) + min_{N2 in B2}(|S-N2| + Q_{j-1}(N2) + M3(N2,B4)). */

static int32_t absd(int32_t v) { return v < 0 ? -v : v; }

/* Directed links of an XY route (x first, then y) in a b x b block, as x + y*b + cells*dir. */
static int xy_links(int32_t b, int32_t sx, int32_t sy, int32_t tx, int32_t ty, int32_t *out)
{
    int cnt = 0, cells = b * b;
    int32_t dx = tx > sx ? 1 : -1, dy = ty > sy ? 1 : -1;
    for (int32_t x = sx; x != tx; x += dx) out[cnt++] = x + sy * b + cells * (dx > 0 ? 0 : 1);
    for (int32_t y = sy; y != ty; y += dy) out[cnt++] = tx + y * b + cells * (dy > 0 ? 2 : 3);
    return cnt;
}

static int xy_conflict(int32_t b, int32_t ax, int32_t ay, int32_t atx, int32_t aty,
                       int32_t bx, int32_t by, int32_t btx, int32_t bty)
{
    int32_t la[128], lb[128];
    int na = xy_links(b, ax, ay, atx, aty, la), nb = xy_links(b, bx, by, btx, bty, lb);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (la[i] == lb[j]) return 1;
    return 0;
}

static int dp_build(cw_ctx *c, unsigned k, uint64_t **qout)
{
    /* Q per level: q[j][x + y*2^j]. */
    uint64_t *q[16] = {0};
    int rc = -1;
    q[1] = malloc(4 * sizeof(uint64_t));
    if (!q[1]) return -1;
    for (int i = 0; i < 4; i++) q[1][i] = 3;
    for (unsigned j = 2; j <= k; j++) {
        const int32_t b = 1 << j, h = b / 2, cells = b * b;
        q[j] = malloc((size_t)cells * sizeof(uint64_t));
        c->choice[j] = malloc((size_t)cells * 6 * sizeof(int32_t));
        uint64_t *m3 = malloc((size_t)cells * 4 * sizeof(uint64_t));   /* best cost into quadrant */
        int32_t *m3arg = malloc((size_t)cells * 4 * sizeof(int32_t));
        if (!q[j] || !c->choice[j] || !m3 || !m3arg) { free(m3); free(m3arg); goto out; }
        const uint64_t *qp = q[j - 1];
#define QP(X, Y) qp[((X) % h) + ((Y) % h) * h]
        for (int32_t s = 0; s < cells; s++) {
            int32_t sx = s % b, sy = s / b;
            for (int B = 0; B < 4; B++) {
                int32_t bx = (B & 1) * h, by = (B >> 1) * h;
                uint64_t best = UINT64_MAX;
                int32_t arg = -1;
                for (int32_t y = by; y < by + h; y++)
                    for (int32_t x = bx; x < bx + h; x++) {
                        uint64_t cost = (uint64_t)(absd(x - sx) + absd(y - sy)) + QP(x, y);
                        if (cost < best) { best = cost; arg = x + y * b; }
                    }
                m3[s * 4 + B] = best;
                m3arg[s * 4 + B] = arg;
            }
        }
        for (int32_t s = 0; s < cells; s++) {
            int32_t sx = s % b, sy = s / b, qs = (sx >= h) + 2 * (sy >= h);
            uint64_t best = UINT64_MAX;
            int32_t bn2 = -1, bn3 = -1, bn4 = -1;
            for (int B2 = 0; B2 < 4; B2++) {
                if (B2 == qs) continue;
                for (int B4 = 0; B4 < 4; B4++) {
                    if (B4 == qs || B4 == B2) continue;
                    int B3 = 6 - qs - B2 - B4;
                    int32_t bx = (B2 & 1) * h, by = (B2 >> 1) * h;
                    for (int32_t y = by; y < by + h; y++)
                        for (int32_t x = bx; x < bx + h; x++) {
                            int32_t n2 = x + y * b;
                            uint64_t base = (uint64_t)(absd(x - sx) + absd(y - sy)) + QP(x, y);
                            uint64_t lb = base + m3[n2 * 4 + B4] + m3[s * 4 + B3];
                            if (lb >= best) continue;
                            /* Step 2 sends S->N3 and N2->N4 at once: their XY routes must not
                             * share a directed link. Try the unconstrained best pair first. */
                            int32_t n3 = m3arg[s * 4 + B3], n4 = m3arg[n2 * 4 + B4];
                            if (!xy_conflict(b, sx, sy, n3 % b, n3 / b, x, y, n4 % b, n4 / b)) {
                                best = lb; bn2 = n2; bn3 = n3; bn4 = n4;
                                continue;
                            }
                            int32_t b3x = (B3 & 1) * h, b3y = (B3 >> 1) * h, b4x = (B4 & 1) * h, b4y = (B4 >> 1) * h;
                            for (int32_t y3 = b3y; y3 < b3y + h; y3++)
                                for (int32_t x3 = b3x; x3 < b3x + h; x3++) {
                                    uint64_t c3 = base + (uint64_t)(absd(x3 - sx) + absd(y3 - sy)) + QP(x3, y3);
                                    if (c3 + m3[n2 * 4 + B4] >= best) continue;
                                    for (int32_t y4 = b4y; y4 < b4y + h; y4++)
                                        for (int32_t x4 = b4x; x4 < b4x + h; x4++) {
                                            uint64_t c = c3 + (uint64_t)(absd(x4 - x) + absd(y4 - y)) + QP(x4, y4);
                                            if (c >= best || xy_conflict(b, sx, sy, x3, y3, x, y, x4, y4)) continue;
                                            best = c; bn2 = n2; bn3 = x3 + y3 * b; bn4 = x4 + y4 * b;
                                        }
                                }
                        }
                }
            }
            q[j][s] = QP(sx, sy) + best;
            int32_t *ch = &c->choice[j][s * 6];
            ch[0] = bn2 % b; ch[1] = bn2 / b; ch[2] = bn3 % b; ch[3] = bn3 / b; ch[4] = bn4 % b; ch[5] = bn4 / b;
        }
#undef QP
        free(m3);
        free(m3arg);
    }
    rc = 0;
    if (qout) { *qout = q[k]; q[k] = 0; }
out:
    for (unsigned j = 1; j < 16; j++) free(q[j]);
    return rc;
}

static void dp_emit(cw_ctx *c, unsigned k, int32_t ox, int32_t oy, int32_t sx, int32_t sy, uint16_t t0)
{
    if (k == 1) { alg1(c, 1, ox, oy, sx, sy, t0); return; }
    const int32_t b = 1 << k, h = b / 2;
    const int32_t *ch = &c->choice[k][((sx - ox) + (sy - oy) * b) * 6];
    int32_t n2x = ox + ch[0], n2y = oy + ch[1], n3x = ox + ch[2], n3y = oy + ch[3], n4x = ox + ch[4], n4y = oy + ch[5];
    emit(c, t0, sx, sy, n2x, n2y);
    emit(c, (uint16_t)(t0 + 1), sx, sy, n3x, n3y);
    emit(c, (uint16_t)(t0 + 1), n2x, n2y, n4x, n4y);
    int32_t qx[4] = {sx, n2x, n3x, n4x}, qy[4] = {sy, n2y, n3y, n4y};
    for (int i = 0; i < 4; i++)
        dp_emit(c, k - 1, ox + ((qx[i] - ox) >= h ? h : 0), oy + ((qy[i] - oy) >= h ? h : 0), qx[i], qy[i],
                (uint16_t)(t0 + 2));
}

int sched_gen_cang_wu(sched_schedule *s, int use_dp, char *err, size_t errlen)
{
    cw_ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.n = s->shape.side[0];
    unsigned k = 0;
    while ((1 << k) < c.n) k++;
    int32_t r[SCHED_MAX_DIMS];
    sched_node_coord(&s->shape, s->root, r);
    int32_t sx = r[0], sy = r[1];
    if (s->shape.torus) {
        /* Every torus node is an eye: put the virtual mesh so the root sits at E_k(1). */
        int32_t p = p_k(k);
        c.origin[0] = (r[0] - p + c.n) % c.n;
        c.origin[1] = (r[1] - p + c.n) % c.n;
        sx = sy = p;
    }
    int rc = 0;
    if (use_dp && k >= 2) {
        if (dp_build(&c, k, 0)) { rc = -1; snprintf(err, errlen, "out of memory"); }
        else dp_emit(&c, k, 0, 0, sx, sy, 1);
    } else {
        alg1(&c, k, 0, 0, sx, sy, 1);
    }
    for (unsigned j = 0; j < 16; j++) free(c.choice[j]);
    if (!rc && c.oom) { rc = -1; snprintf(err, errlen, "out of memory"); }
    if (!rc) sched_finish(s);
    return rc;
}
