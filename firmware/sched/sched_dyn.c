/* SPDX-License-Identifier: ISC */
/* Dynamic broadcast routing rule: STAR (tori) and ARC (meshes). See sched_dyn.h.
 * Portable, no allocation. */
#include "sched_dyn.h"

#include <string.h>

/* Adaptive STAR leaves the base draw only for an order whose weighted backlog is below a
 * third of the base order's: without such a margin the sources chase their own noise and
 * the loads oscillate (the abstract model: 4x8 torus at rho 0.9, 2-class priority, mean
 * broadcast delay 122 slots with no margin, 27 with STAR, 24 with a margin of 3). */
#define ADAPT_MARGIN 3u

/* Phase k of the order ending in dimension l: forward l+1, l+2, ..., l; reverse l-1, ..., l. */
static uint32_t order_dim(const sched_dyn_plan *pl, uint32_t ending, uint32_t reverse, uint32_t k)
{
    const uint32_t d = pl->shape.dims;
    return reverse ? (ending + 2u * d - 1u - k) % d : (ending + 1u + k) % d;
}

uint32_t sched_dyn_order_dim(const sched_dyn_plan *pl, const sched_dyn_packet *pkt, uint32_t k)
{
    return order_dim(pl, pkt->ending, pkt->reverse, k);
}

/* Product of the sides of the phases after k. */
static uint32_t later_product(const sched_dyn_plan *pl, uint32_t ending, uint32_t reverse, uint32_t k)
{
    uint32_t prod = 1;
    for (uint32_t q = k + 1u; q < pl->shape.dims; q++) prod *= pl->shape.side[order_dim(pl, ending, reverse, q)];
    return prod;
}

/* The balance system of the forward (reverse = 0) or reverse orders (digest B3):
 * sum_l a[i][l] x_l = (N-1)/d. Every column sums to N-1, so x is proportional to
 * A^-1 (1,..,1): Cramer with a column of ones, in integers. Fills num[] (x_l = num[l]/total,
 * total returned in *den, below 2^31) or says why not. uniform: x_l = 1/d. */
static const char *solve_balance(const sched_dyn_plan *pl, uint32_t reverse, int uniform, uint32_t out_num[SCHED_MAX_DIMS],
                                 uint32_t threshold[SCHED_MAX_DIMS], uint32_t *den)
{
    const sched_shape *sh = &pl->shape;
    const uint32_t d = sh->dims;
    int64_t num[SCHED_MAX_DIMS], total = 0;
    if (uniform) {
        for (uint32_t l = 0; l < d; l++) num[l] = 1;
        total = d;
    } else {
        int64_t a[SCHED_MAX_DIMS][SCHED_MAX_DIMS];
        for (uint32_t l = 0; l < d; l++) {
            int64_t before = 1;
            for (uint32_t k = 0; k < d; k++) {
                uint32_t i = order_dim(pl, l, reverse, k);
                a[i][l] = (int64_t)(sh->side[i] - 1u) * before;
                before *= sh->side[i];
            }
        }
        for (uint32_t l = 0; l < d; l++) {
            int64_t m[SCHED_MAX_DIMS][SCHED_MAX_DIMS];
            for (uint32_t i = 0; i < d; i++)
                for (uint32_t k = 0; k < d; k++) m[i][k] = k == l ? 1 : a[i][k];
            if (d == 1) num[l] = 1;
            else if (d == 2) num[l] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
            else num[l] = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                          m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
            total += num[l];
        }
        if (total == 0) return "STAR balance system is singular";
        if (total < 0) { total = -total; for (uint32_t l = 0; l < d; l++) num[l] = -num[l]; }
        for (uint32_t l = 0; l < d; l++)
            if (num[l] < 0) return "STAR balance system has a negative ending-dimension probability for this shape";
        while (total >= (1ll << 31)) { total >>= 1; for (uint32_t l = 0; l < d; l++) num[l] >>= 1; }
    }
    int64_t cum = 0;
    for (uint32_t l = 0; l < d; l++) {
        out_num[l] = (uint32_t)num[l];
        cum += num[l];
        uint64_t t = ((uint64_t)cum << 32) / (uint64_t)total;
        threshold[l] = l + 1u == d || t > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)t;
    }
    *den = (uint32_t)total;
    return 0;
}

const char *sched_dyn_routing_name(int routing)
{
    return routing == SCHED_DYN_ROUTE_STAR ? "star" : routing == SCHED_DYN_ROUTE_REDO ? "redo"
         : routing == SCHED_DYN_ROUTE_ADAPTIVE ? "adaptive" : "?";
}

int sched_dyn_routing_from_name(const char *name)
{
    for (int r = 0; r <= SCHED_DYN_ROUTE_ADAPTIVE; r++)
        if (!strcmp(name, sched_dyn_routing_name(r))) return r;
    return -1;
}

const char *sched_dyn_make_plan(sched_dyn_plan *pl, const sched_shape *sh)
{
    return sched_dyn_make_plan_ex(pl, sh, SCHED_DYN_ROUTE_STAR, 0);
}

const char *sched_dyn_make_plan_ex(sched_dyn_plan *pl, const sched_shape *sh, int routing, int uniform)
{
    memset(pl, 0, sizeof *pl);
    if (routing < SCHED_DYN_ROUTE_STAR || routing > SCHED_DYN_ROUTE_ADAPTIVE) return "unknown routing variant";
    const char *problem = sched_shape_problem(sh);
    if (problem) return problem;
    const uint32_t d = sh->dims;
    pl->shape = *sh;
    pl->nodes = sched_nodes(sh);
    if (!sh->torus) {
        if (routing != SCHED_DYN_ROUTE_STAR || uniform) return "a mesh runs ARC only (REDO, adaptive and uniform probabilities are for tori)";
        pl->arc = 1;
        pl->receivers = 1;
        for (uint32_t k = 0; k < d; k++) {
            if (sh->side[k] < 4) return "ARC needs every mesh side >= 4 (an interior of at least 2 per dimension)";
            pl->receivers *= sh->side[k] - 2u;
        }
        return 0;
    }
    for (uint32_t k = 0; k < d; k++)
        if (sh->side[k] < 3) return "STAR needs every torus side >= 3";
    pl->receivers = pl->nodes;
    if (pl->nodes > 65536u) return "STAR plan: at most 65536 nodes (integer balance solver)";
    pl->routing = (uint8_t)routing;
    pl->uniform = (uint8_t)(uniform != 0);
    const char *why = solve_balance(pl, 0, uniform, pl->ending_num, pl->ending_threshold, &pl->ending_den);
    if (!why && routing == SCHED_DYN_ROUTE_REDO)
        why = solve_balance(pl, 1, uniform, pl->reverse_num, pl->reverse_threshold, &pl->reverse_den);
    if (why) return why;
    for (uint32_t l = 0; l < d; l++) {
        uint32_t before = 1;
        for (uint32_t k = 0; k < d; k++) {
            uint32_t i = order_dim(pl, l, 0, k);
            pl->trans[i][l] = (sh->side[i] - 1u) * before;
            before *= sh->side[i];
        }
    }
    return 0;
}

void sched_dyn_future_load(const sched_dyn_plan *pl, const sched_dyn_packet *p, uint32_t load[SCHED_MAX_DIMS])
{
    if (pl->arc || p->stage != SCHED_DYN_STAR) return;
    /* this transmission reaches hops_left + 1 nodes of its ring; each starts the later phases */
    uint32_t reach = p->hops_left + 1u;
    load[order_dim(pl, p->ending, p->reverse, p->phase)] += reach;
    for (uint32_t q = p->phase + 1u; q < pl->shape.dims; q++) {
        const uint32_t dim = order_dim(pl, p->ending, p->reverse, q), side = pl->shape.side[dim];
        load[dim] += reach * (side - 1u);
        reach *= side;
    }
}

int sched_dyn_is_receiver(const sched_dyn_plan *pl, uint32_t node)
{
    if (node >= pl->nodes) return 0;
    if (!pl->arc) return 1;
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(&pl->shape, node, c);
    for (uint32_t k = 0; k < pl->shape.dims; k++)
        if (c[k] < 1 || c[k] > (int32_t)pl->shape.side[k] - 2) return 0;
    return 1;
}

static uint32_t mix3(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9E3779B1u ^ b * 0x85EBCA77u ^ c * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    return h ^ (h >> 12);
}

static void add_send(sched_dyn_send *sends, int *n, uint32_t dim, int dir, const sched_dyn_packet *pkt)
{
    sends[*n].port = sched_port((uint8_t)dim, dir);
    sends[*n].pkt = *pkt;
    sends[*n].pkt.dir = (int8_t)dir;
    (*n)++;
}

/* STAR: node u starts the two-way ring broadcast of phase k. */
static void star_ring(const sched_dyn_plan *pl, uint32_t u, const sched_dyn_packet *base, uint32_t k,
                      sched_dyn_send *sends, int *n)
{
    const uint32_t dim = order_dim(pl, base->ending, base->reverse, k), side = pl->shape.side[dim];
    const uint32_t longer = side / 2u, shorter = (side - 1u) / 2u;
    const int plus_long = (side % 2u == 1u) || (mix3(base->source, base->seq, u * 4u + dim) & 1u);
    for (int s = 0; s < 2; s++) {
        const int dir = s ? -1 : 1;
        const uint32_t leg = (dir > 0) == plus_long ? longer : shorter;
        if (leg == 0) continue;
        sched_dyn_packet p = *base;
        p.phase = (uint8_t)k;
        p.hops_left = (uint16_t)(leg - 1u);
        p.prio = k + 1u == pl->shape.dims ? SCHED_DYN_LOW : SCHED_DYN_HIGH;
        p.descendants = leg * later_product(pl, base->ending, base->reverse, k);
        add_send(sends, n, dim, dir, &p);
    }
}

/* ARC: the face dimensions (all but the face dimension i), in increasing order. */
static uint32_t face_dim(const sched_dyn_plan *pl, uint32_t i, uint32_t k)
{
    uint32_t seen = 0;
    for (uint32_t j = 0; j < pl->shape.dims; j++) {
        if (j == i) continue;
        if (seen == k) return j;
        seen++;
    }
    return 0;
}

/* ARC: face node z starts the face lines of phases >= k0 and the back-broadcast. */
static void arc_face_start(const sched_dyn_plan *pl, uint32_t z, const sched_dyn_packet *base, uint32_t k0,
                           sched_dyn_send *sends, int *n)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(&pl->shape, z, c);
    const uint32_t d = pl->shape.dims, i = base->ending;
    for (uint32_t k = k0; k + 1u < d; k++) {
        const uint32_t j = face_dim(pl, i, k);
        for (int s = 0; s < 2; s++) {
            const int dir = s ? -1 : 1;
            const int32_t leg = dir > 0 ? (int32_t)pl->shape.side[j] - 2 - c[j] : c[j] - 1;
            if (leg <= 0) continue;
            sched_dyn_packet p = *base;
            p.stage = SCHED_DYN_FACE;
            p.phase = (uint8_t)k;
            p.hops_left = (uint16_t)(leg - 1);
            p.prio = SCHED_DYN_HIGH;
            p.descendants = (uint32_t)leg;
            add_send(sends, n, j, dir, &p);
        }
    }
    sched_dyn_packet p = *base;
    p.stage = SCHED_DYN_BACK;
    p.hops_left = (uint16_t)(pl->shape.side[i] - 3u);
    p.prio = SCHED_DYN_HIGH;   /* the first hop back is high priority */
    p.descendants = pl->shape.side[i] - 2u;
    add_send(sends, n, i, base->face_side ? -1 : 1, &p);
}

int sched_dyn_originate(const sched_dyn_plan *pl, uint32_t source, uint32_t seq, uint32_t rnd,
                        sched_dyn_send sends[SCHED_DYN_MAX_SENDS])
{
    return sched_dyn_originate_ex(pl, source, seq, rnd, 0, 0, sends);
}

/* The ending dimension a threshold table draws for rnd. */
static uint32_t draw(const uint32_t *threshold, uint32_t d, uint32_t rnd)
{
    uint32_t l = 0;
    while (l + 1u < d && rnd > threshold[l]) l++;
    return l;
}

int sched_dyn_originate_ex(const sched_dyn_plan *pl, uint32_t source, uint32_t seq, uint32_t rnd, uint32_t rnd2,
                           const uint32_t *backlog, sched_dyn_send sends[SCHED_DYN_MAX_SENDS])
{
    int n = 0;
    if (!sched_dyn_is_receiver(pl, source)) return 0;
    sched_dyn_packet p;
    memset(&p, 0, sizeof p);
    p.source = source;
    p.seq = seq;
    const uint32_t d = pl->shape.dims;
    if (!pl->arc) {
        uint32_t l = draw(pl->ending_threshold, d, rnd);
        if (pl->routing == SCHED_DYN_ROUTE_REDO && (rnd2 >> 31)) {
            p.reverse = 1;
            l = draw(pl->reverse_threshold, d, rnd);
        } else if (pl->routing == SCHED_DYN_ROUTE_ADAPTIVE && backlog) {
            /* the order whose transmissions fall on the least busy dimensions: the smallest
             * sum_i backlog[i] a_{i,l}, taken only when below the base draw's by the margin
             * (an empty backlog leaves the base draw) */
            uint32_t any = 0;
            for (uint32_t i = 0; i < d; i++) any |= backlog[i];
            if (any) {
                uint64_t best = UINT64_MAX, base = 0;
                uint32_t pick = l;
                for (uint32_t o = 0; o < d; o++) {
                    const uint32_t c = (l + o) % d;
                    uint64_t worst = 0;
                    for (uint32_t i = 0; i < d; i++) worst += (uint64_t)backlog[i] * pl->trans[i][c];
                    if (o == 0) base = worst;
                    if (worst < best) { best = worst; pick = c; }
                }
                if (best * ADAPT_MARGIN < base) l = pick;
            }
        }
        p.stage = SCHED_DYN_STAR;
        p.ending = (uint8_t)l;
        for (uint32_t k = 0; k < d; k++) star_ring(pl, source, &p, k, sends, &n);
        return n;
    }
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(&pl->shape, source, c);
    uint32_t sum = 0;
    for (uint32_t k = 0; k < d; k++) sum += (uint32_t)(c[k] - 1);
    const uint32_t i = sum % d;
    const int32_t to_low = c[i], to_high = (int32_t)pl->shape.side[i] - 1 - c[i];
    p.stage = SCHED_DYN_OUT;
    p.ending = (uint8_t)i;
    p.face_side = to_low <= to_high ? 0 : 1;
    const int32_t dist = p.face_side ? to_high : to_low;
    p.hops_left = (uint16_t)(dist - 1);
    p.prio = SCHED_DYN_HIGH;
    p.descendants = pl->receivers;
    add_send(sends, &n, i, p.face_side ? 1 : -1, &p);
    return n;
}

int sched_dyn_on_receive(const sched_dyn_plan *pl, uint32_t node, const sched_dyn_packet *in, int *deliver,
                         sched_dyn_send sends[SCHED_DYN_MAX_SENDS])
{
    int n = 0;
    *deliver = 0;
    if (in->stage == SCHED_DYN_STAR) {
        *deliver = node != in->source;
        const uint32_t dim = order_dim(pl, in->ending, in->reverse, in->phase);
        if (in->hops_left > 0) {
            sched_dyn_packet p = *in;
            p.hops_left = (uint16_t)(in->hops_left - 1u);
            /* the next hop's class from its phase, as star_ring gives it (not the incoming
             * header's: a wire that carries only the routing state delivers prio = 0) */
            p.prio = in->phase + 1u == pl->shape.dims ? SCHED_DYN_LOW : SCHED_DYN_HIGH;
            p.descendants = in->hops_left * later_product(pl, in->ending, in->reverse, in->phase);
            add_send(sends, &n, dim, in->dir, &p);
        }
        for (uint32_t k = in->phase + 1u; k < pl->shape.dims; k++) star_ring(pl, node, in, k, sends, &n);
        return n;
    }
    if (in->stage == SCHED_DYN_OUT || in->stage == SCHED_DYN_FACE) {
        const uint32_t dim = in->stage == SCHED_DYN_OUT ? in->ending : face_dim(pl, in->ending, in->phase);
        if (in->hops_left > 0) {
            sched_dyn_packet p = *in;
            p.hops_left = (uint16_t)(in->hops_left - 1u);
            p.prio = SCHED_DYN_HIGH;
            p.descendants = in->stage == SCHED_DYN_OUT ? pl->receivers : in->hops_left;
            add_send(sends, &n, dim, in->dir, &p);
            if (in->stage == SCHED_DYN_OUT) return n;   /* still on the way out */
        }
        arc_face_start(pl, node, in, in->stage == SCHED_DYN_OUT ? 0u : in->phase + 1u, sends, &n);
        return n;
    }
    if (in->stage == SCHED_DYN_BACK) {
        *deliver = node != in->source;
        if (in->hops_left > 0) {
            sched_dyn_packet p = *in;
            p.hops_left = (uint16_t)(in->hops_left - 1u);
            p.prio = SCHED_DYN_LOW;
            p.descendants = in->hops_left;
            add_send(sends, &n, in->ending, in->dir, &p);
        }
        return n;
    }
    return 0;
}
