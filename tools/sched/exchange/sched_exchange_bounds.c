/* SPDX-License-Identifier: ISC */
/* Lower bounds of the exchange family, from the shape alone: every node takes N-1 packets over
 * its in-links (allgather), the busiest cut (alltoall, all-port), the status (alltoall,
 * one-port). */
#include "exchange/sched_exchange.h"

uint32_t sched_lb_mnb(const sched_shape *sh)
{
    const uint32_t n = sched_nodes(sh);
    uint32_t best = 0;
    /* The fewest in-links give the largest bound: a corner on a mesh. On a torus every node has
     * 2d in-links, also where a side is 2 (the + and - links to the one neighbour are two links;
     * sched_degree counts that neighbour once). */
    uint32_t mindeg = sh->torus ? 2u * sh->dims : UINT32_MAX;
    for (uint32_t v = 0; v < n && !sh->torus; v++) {
        uint32_t deg = sched_degree(sh, v);
        if (deg < mindeg) mindeg = deg;
        if (mindeg == sh->dims) break;
    }
    if (mindeg && mindeg != UINT32_MAX) best = (n - 1u + mindeg - 1u) / mindeg;
    uint32_t diam = 0;
    for (uint32_t k = 0; k < sh->dims; k++) diam += sh->torus ? sh->side[k] / 2u : sh->side[k] - 1u;
    return best > diam ? best : diam;
}

uint32_t sched_lb_te_cut(const sched_shape *sh)
{
    const uint64_t n = sched_nodes(sh);
    uint32_t best = 0;
    for (uint32_t k = 0; k < sh->dims; k++) {
        const uint64_t nk = sh->side[k];
        const uint64_t v1 = n / nk * (nk / 2u), v2 = n - v1;
        const uint64_t links = (sh->torus && nk > 2u ? 2u : 1u) * (n / nk);
        uint64_t b = (v1 * v2 + links - 1u) / links;
        if (b > best) best = (uint32_t)b;
    }
    return best;
}

uint32_t sched_lb_te_status(const sched_shape *sh)
{
    const uint32_t n = sched_nodes(sh);
    uint64_t sum = 0;
    if (sh->torus) {
        for (uint32_t v = 1; v < n; v++) sum += sched_distance(sh, 0, v);
        return (uint32_t)sum;
    }
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++) sum += sched_distance(sh, a, b);
    return (uint32_t)((sum + n - 1u) / n);   /* average status, rounded up */
}
