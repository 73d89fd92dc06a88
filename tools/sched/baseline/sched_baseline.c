/* SPDX-License-Identifier: ISC */
/* The schedules a user would otherwise write (host; allocates):
 *   bcast-binomial     binomial tree over node ids relative to the root: in round r the
 *                      nodes with relative id below 2^(r-1) send to relative id + 2^(r-1);
 *   allgather-ring     a Hamiltonian cycle through neighbour links: in slot t every node sends
 *                      its successor the piece it got in slot t-1 (its own in slot 1);
 *   alltoall-pairwise  in round i node v sends its block for (v+i) mod N to that node.
 * The binomial and pairwise messages are worms routed in dimension order, the shortest way
 * round each ring; the worms of a round may share links (model wormhole-contended: the router
 * resolves the contention at run time, so a round is not a fixed time).
 */
#include "baseline/sched_baseline.h"
#include "base/sched_base.h"
#include "sched_coll.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE_MAX_NODES 4096u   /* the ring and the pairwise exchange have N(N-1) messages */

int sched_route_dimension_order(const sched_shape *sh, uint32_t src, uint32_t dst, sched_msg *m)
{
    int32_t a[SCHED_MAX_DIMS], b[SCHED_MAX_DIMS];
    memset(m, 0, sizeof *m);
    m->src = src;
    m->dst = dst;
    if (src == dst) return -1;
    sched_node_coord(sh, src, a);
    sched_node_coord(sh, dst, b);
    int first = -1;
    for (unsigned d = 0; d < sh->dims; d++) {
        const int32_t side = sh->side[d];
        int32_t off = b[d] - a[d];
        if (sh->torus) {
            off = ((off % side) + side) % side;   /* 0 .. side-1 going + */
            if (off > side / 2) off -= side;     /* shorter going -; a tie goes + */
        }
        m->hops[d] = (int16_t)off;
        if (off && first < 0) first = (int)d;
    }
    m->start_dim = (uint8_t)first;
    return 0;
}

/* The port of a that reaches its neighbour b, or -1. */
static int port_to(const sched_shape *sh, uint32_t a, uint32_t b)
{
    for (uint8_t k = 0; k < 2u * sh->dims; k++)
        if (sched_neighbour(sh, a, k) == (int64_t)b) return k;
    return -1;
}

/* Coordinates (outside the lane dimension) of row r of the boustrophedon path through the
 * dimensions other[0 .. nother-1], other[0] fastest: a digit runs backwards when the number made
 * of the digits above it is odd, so consecutive rows are neighbours. */
static void row_coord(const sched_shape *sh, const unsigned *other, unsigned nother, uint32_t r, int32_t *c)
{
    for (int j = (int)nother - 1; j >= 0; j--) {
        uint32_t span = 1;
        for (int q = 0; q < j; q++) span *= sh->side[other[q]];
        const uint32_t digit = (r / span) % sh->side[other[j]], above = r / (span * sh->side[other[j]]);
        c[other[j]] = (int32_t)((above & 1u) ? sh->side[other[j]] - 1u - digit : digit);
    }
}

const char *sched_snake_cycle(const sched_shape *sh, uint32_t *order)
{
    /* A snake with a return lane. The rows are the boustrophedon path through the dimensions
     * other than the lane dimension. The cycle starts at lane coordinate 0 of row 0, snakes
     * through lane coordinates 1 .. side-1 row by row (forward in even rows, backward in odd
     * ones), steps to coordinate 0 of the last row and comes back along coordinate 0 of the rows
     * rows-1 .. 1. The last row ends at coordinate 1 when the number of rows is even, else at
     * side-1, which reaches 0 only by the wrap link of a torus or when the side is 2. */
    const uint32_t n = sched_nodes(sh);
    unsigned lane = 0;
    if (!sh->torus) {
        int found = 0;
        for (unsigned d = 0; d < sh->dims && !found; d++)
            if ((n / sh->side[d]) % 2u == 0 || sh->side[d] == 2) { lane = d; found = 1; }
        if (!found)
            return "a mesh with every side odd has no Hamiltonian cycle (an odd number of nodes): allgather-ring "
                   "needs a torus, or a mesh with an even side";
    }
    const uint32_t side = sh->side[lane], rows = n / side;
    unsigned other[SCHED_MAX_DIMS], nother = 0;
    for (unsigned d = 0; d < sh->dims; d++) if (d != lane) other[nother++] = d;
    int32_t c[SCHED_MAX_DIMS] = {0, 0, 0};
    uint32_t k = 0;
    row_coord(sh, other, nother, 0, c);
    c[lane] = 0;
    order[k++] = sched_node_id(sh, c);
    for (uint32_t r = 0; r < rows; r++) {
        row_coord(sh, other, nother, r, c);
        for (uint32_t i = 1; i < side; i++) {
            c[lane] = (int32_t)(r % 2u == 0 ? i : side - i);
            order[k++] = sched_node_id(sh, c);
        }
    }
    for (uint32_t r = rows - 1u; r >= 1u; r--) {
        row_coord(sh, other, nother, r, c);
        c[lane] = 0;
        order[k++] = sched_node_id(sh, c);
    }
    for (uint32_t i = 0; i < n; i++)   /* every step is a link, the last one back to the start too */
        if (port_to(sh, order[i], order[(i + 1u) % n]) < 0) return "no Hamiltonian cycle found for this shape";
    return 0;
}

int sched_gen_bcast_binomial(sched_schedule *s, char *err, size_t errlen)
{
    const sched_shape *sh = &s->shape;
    const uint32_t n = sched_nodes(sh);
    s->coll = SCHED_COLL_BCAST;
    s->model = SCHED_MODEL_WORMHOLE_CONTENDED;
    for (uint32_t round = 1, span = 1; span < n; round++, span *= 2u)
        for (uint32_t rel = 0; rel < span && rel + span < n; rel++) {
            sched_msg m;
            sched_route_dimension_order(sh, (s->root + rel) % n, (s->root + rel + span) % n, &m);
            m.piece = 0;
            m.step = (uint16_t)round;
            if (sched_push(s, &m)) return sched_fail(err, errlen, "out of memory");
        }
    sched_finish(s);
    return 0;
}

int sched_gen_allgather_ring(sched_schedule *s, char *err, size_t errlen)
{
    const sched_shape *sh = &s->shape;
    const uint32_t n = sched_nodes(sh);
    s->coll = SCHED_COLL_ALLGATHER;
    s->model = SCHED_MODEL_SAF_ALLPORT;
    s->root = 0;
    if (n > BASE_MAX_NODES)
        return sched_fail(err, errlen, "allgather-ring is limited to %u nodes (it has N(N-1) messages); this shape "
                          "has %lu", BASE_MAX_NODES, (unsigned long)n);
    /* a line of a machine: every side but one is 1 (a row, a column, a pillar) */
    unsigned ones = 0, dim = 0;
    for (unsigned d = 0; d < sh->dims; d++) {
        if (sh->side[d] == 1) ones++;
        else dim = d;
    }
    if (!sh->torus && sh->dims >= 2 && ones == sh->dims - 1u) {
        /* a linear array (a row, column or pillar of a mesh) has no cycle: two pipelines,
         * every block one hop a slot towards both ends, n-1 slots (the distance end to end) */
        for (uint32_t t = 1; t < n; t++)
            for (uint32_t v = 0; v < n; v++)
                for (int dir = 1; dir >= -1; dir -= 2) {
                    /* the block that came in at slot t-1 from the other side (its own at t = 1) */
                    const int64_t owner = (int64_t)v - dir * (int64_t)(t - 1u), to = (int64_t)v + dir;
                    if (owner < 0 || owner >= (int64_t)n || to < 0 || to >= (int64_t)n) continue;
                    sched_msg m;
                    memset(&m, 0, sizeof m);
                    m.src = v;
                    m.dst = (uint32_t)to;
                    m.piece = (uint32_t)owner;
                    m.step = (uint16_t)t;
                    m.start_dim = (uint8_t)dim;
                    m.hops[dim] = (int16_t)dir;
                    if (sched_push(s, &m)) return sched_fail(err, errlen, "out of memory");
                }
        sched_finish(s);
        return 0;
    }
    uint32_t *order = malloc((size_t)n * sizeof *order);
    if (!order) return sched_fail(err, errlen, "out of memory");
    const char *why = sched_snake_cycle(sh, order);
    if (why) { free(order); return sched_fail(err, errlen, "%s", why); }
    for (uint32_t t = 1; t < n; t++)
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t from = order[k], to = order[(k + 1u) % n];
            const int port = port_to(sh, from, to);
            sched_msg m;
            memset(&m, 0, sizeof m);
            m.src = from;
            m.dst = to;
            m.piece = order[(k + n - (t - 1u)) % n];   /* the piece that came in at slot t-1 */
            m.step = (uint16_t)t;
            m.start_dim = (uint8_t)(port >> 1);
            m.hops[port >> 1] = (int16_t)((port & 1) ? -1 : 1);
            if (sched_push(s, &m)) { free(order); return sched_fail(err, errlen, "out of memory"); }
        }
    free(order);
    sched_finish(s);
    return 0;
}

int sched_gen_alltoall_pairwise(sched_schedule *s, char *err, size_t errlen)
{
    const sched_shape *sh = &s->shape;
    const uint32_t n = sched_nodes(sh);
    s->coll = SCHED_COLL_ALLTOALL;
    s->model = SCHED_MODEL_WORMHOLE_CONTENDED;
    s->root = 0;
    if (n > BASE_MAX_NODES)
        return sched_fail(err, errlen, "alltoall-pairwise is limited to %u nodes (it has N(N-1) messages); this shape "
                          "has %lu", BASE_MAX_NODES, (unsigned long)n);
    for (uint32_t round = 1; round < n; round++)
        for (uint32_t v = 0; v < n; v++) {
            sched_msg m;
            const uint32_t to = (v + round) % n;
            sched_route_dimension_order(sh, v, to, &m);
            m.piece = v * n + to;
            m.step = (uint16_t)round;
            if (sched_push(s, &m)) return sched_fail(err, errlen, "out of memory");
        }
    sched_finish(s);
    return 0;
}
