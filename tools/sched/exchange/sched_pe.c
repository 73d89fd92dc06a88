/* SPDX-License-Identifier: ISC */
/* Partial exchange on a 2-D mesh (Varvarigos-Bertsekas sec. 5, digest A8).
 * Active node (i, j) (row i = dimension-1 coordinate, column j = dimension-0 coordinate) is
 * in R when r_i <= c_j (its row has no more sources than its column), else in C. R packets go
 * along the row first (dimension 0), then the column; C packets the column first. On every
 * link first-leg packets go before second-leg packets; otherwise FIFO; links never idle while
 * a packet waits (work-conserving). The routing function is portable; the slot simulation
 * (host) records every hop for the checker (collective partial-alltoall). */
#include "sched_coll.h"
#include "exchange/sched_exchange.h"
#include "base/sched_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sched_pe_next_port(const sched_shape *sh, uint32_t node, uint32_t dst, int row_first, int *first_leg)
{
    int32_t a[SCHED_MAX_DIMS], b[SCHED_MAX_DIMS];
    sched_node_coord(sh, node, a);
    sched_node_coord(sh, dst, b);
    const uint32_t first = row_first ? 0u : 1u, second = 1u - first;
    if (a[first] != b[first]) {
        *first_leg = 1;
        return sched_port((uint8_t)first, b[first] > a[first] ? +1 : -1);
    }
    if (a[second] != b[second]) {
        *first_leg = 0;
        return sched_port((uint8_t)second, b[second] > a[second] ? +1 : -1);
    }
    return -1;
}

static uint32_t isqrt(uint32_t m)
{
    uint32_t r = 0;
    while ((r + 1u) * (r + 1u) <= m) r++;
    return r;
}

uint32_t sched_pe_bound(const sched_shape *sh, uint32_t m)
{
    const uint32_t p = sh->side[0], n = sched_nodes(sh);
    return 2u * isqrt(m) * (n - p) + 2u * (p - 1u);
}

uint32_t sched_pe_lb_worst(const sched_shape *sh, uint32_t m)
{
    return isqrt(m) * sched_nodes(sh) / 4u;
}

uint32_t sched_pe_lb_placement(const sched_shape *sh, const uint8_t *src)
{
    const uint32_t n = sched_nodes(sh);
    uint64_t best = 0;
    uint32_t m = 0;
    for (uint32_t v = 0; v < n; v++) m += src[v] != 0;
    for (uint32_t v = 0; v < n; v++) {   /* a source sends N-1 packets, a node receives M or M-1 */
        uint32_t deg = sched_degree(sh, v);
        uint64_t out = src[v] ? (n - 1u + deg - 1u) / deg : 0, in = ((m - (src[v] != 0)) + deg - 1u) / deg;
        if (out > best) best = out;
        if (in > best) best = in;
    }
    for (uint32_t dim = 0; dim < sh->dims; dim++) {   /* every cut across dim, both directions */
        const uint32_t side = sh->side[dim], links = n / side;
        for (uint32_t k = 0; k + 1u < side; k++) {
            uint64_t src_low = 0, src_high = 0;
            for (uint32_t v = 0; v < n; v++) {
                int32_t c[SCHED_MAX_DIMS];
                sched_node_coord(sh, v, c);
                if (!src[v]) continue;
                if ((uint32_t)c[dim] <= k) src_low++; else src_high++;
            }
            uint64_t low_nodes = (uint64_t)links * (k + 1u), high_nodes = n - low_nodes;
            uint64_t up = (src_low * high_nodes + links - 1u) / links, down = (src_high * low_nodes + links - 1u) / links;
            if (up > best) best = up;
            if (down > best) best = down;
        }
    }
    return (uint32_t)best;
}

typedef struct {
    uint32_t piece;
    int32_t next;
    uint8_t row_first;
} pe_entry;

int sched_sim_pe(sched_schedule *out, const sched_shape *sh, const uint8_t *src, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *problem = sched_shape_problem(sh);
    if (problem) return sched_fail(err, errlen, "pe: %s", problem);
    if (sh->dims != 2 || sh->torus) return sched_fail(err, errlen, "pe: the algorithm is for 2-D meshes (p x q, no wrap links)");
    const uint32_t n = sched_nodes(sh), cols = sh->side[0], rows = sh->side[1], ports = 4;
    out->shape = *sh;
    out->algo = SCHED_ALGO_PE;
    out->coll = SCHED_COLL_PARTIAL_ALLTOALL;
    out->model = SCHED_MODEL_SAF_ALLPORT;
    /* Phase 1: row and column source counts (a reduction; p t_p in the paper). */
    uint32_t *rsum = calloc(rows, sizeof *rsum), *csum = calloc(cols, sizeof *csum);
    int32_t *head = malloc(sizeof *head * n * ports * 2u), *tail = malloc(sizeof *tail * n * ports * 2u);
    uint64_t total = 0;
    uint32_t m = 0;
    for (uint32_t v = 0; v < n; v++) if (src[v]) { rsum[v / cols]++; csum[v % cols]++; m++; }
    total = (uint64_t)m * (n - 1u);
    pe_entry *pool = malloc(sizeof *pool * (total + 1u));
    typedef struct { uint32_t node; uint32_t entry; } flight;
    flight *fl = malloc(sizeof *fl * n * ports);
    int rc = -1;
    if (!rsum || !csum || !head || !tail || !pool || !fl) { sched_fail(err, errlen, "out of memory"); goto done; }
    if (m == 0) { sched_fail(err, errlen, "pe: the source set is empty"); goto done; }
    for (uint32_t k = 0; k < n * ports * 2u; k++) head[k] = tail[k] = -1;
    uint32_t used = 0;
#define PE_QUEUE(node, port, leg) ((((node) * ports) + (port)) * 2u + ((leg) ? 0u : 1u))
    for (uint32_t v = 0; v < n; v++) {
        if (!src[v]) continue;
        const uint8_t row_first = rsum[v / cols] <= csum[v % cols];
        for (uint32_t t = 0; t < n; t++) {
            if (t == v) continue;
            int leg;
            int port = sched_pe_next_port(sh, v, t, row_first, &leg);
            uint32_t qi = PE_QUEUE(v, (uint32_t)port, leg);
            pool[used] = (pe_entry){v * n + t, -1, row_first};
            if (tail[qi] >= 0) pool[tail[qi]].next = (int32_t)used; else head[qi] = (int32_t)used;
            tail[qi] = (int32_t)used++;
        }
    }
    uint64_t left = total;
    for (uint32_t slot = 1; left; slot++) {
        if (slot > 65000u) { sched_fail(err, errlen, "pe: does not finish"); goto done; }
        uint32_t nf = 0;
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t p = 0; p < ports; p++) {
                uint32_t qi = PE_QUEUE(v, p, 1);
                if (head[qi] < 0) qi = PE_QUEUE(v, p, 0);
                if (head[qi] < 0) continue;
                uint32_t e = (uint32_t)head[qi];
                head[qi] = pool[e].next;
                if (head[qi] < 0) tail[qi] = -1;
                int64_t nb = sched_neighbour(sh, v, (uint8_t)p);
                if (nb < 0) { sched_fail(err, errlen, "pe: routes off the mesh"); goto done; }
                sched_msg msg;
                memset(&msg, 0, sizeof msg);
                msg.src = v;
                msg.dst = (uint32_t)nb;
                msg.piece = pool[e].piece;
                msg.step = (uint16_t)slot;
                msg.start_dim = (uint8_t)(p / 2u);
                msg.hops[p / 2u] = (p & 1u) ? -1 : 1;
                msg.reserved = msg.dst == pool[e].piece % n ? 0 : SCHED_MSG_TRANSIT;
                if (sched_push(out, &msg)) { sched_fail(err, errlen, "out of memory"); goto done; }
                fl[nf].node = (uint32_t)nb;
                fl[nf++].entry = e;
            }
        for (uint32_t k = 0; k < nf; k++) {
            uint32_t e = fl[k].entry, at = fl[k].node, dst = pool[e].piece % n;
            if (at == dst) { left--; continue; }
            int leg;
            int port = sched_pe_next_port(sh, at, dst, pool[e].row_first, &leg);
            uint32_t qi = PE_QUEUE(at, (uint32_t)port, leg);
            pool[e].next = -1;
            if (tail[qi] >= 0) pool[tail[qi]].next = (int32_t)e; else head[qi] = (int32_t)e;
            tail[qi] = (int32_t)e;
        }
    }
#undef PE_QUEUE
    sched_finish(out);
    rc = 0;
done:
    free(rsum); free(csum); free(head); free(tail); free(pool); free(fl);
    if (rc) sched_free(out);
    return rc;
}
