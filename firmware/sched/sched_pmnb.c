/* SPDX-License-Identifier: ISC */
/* Partial multinode broadcast rule (see sched_pmnb.h). Portable, no allocation. */
#include "sched_pmnb.h"

#include <string.h>

static uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1u) / b; }

const char *sched_pmnb_make_plan(sched_pmnb_plan *pl, const sched_shape *shape, uint32_t m, int split,
                                 int packing_needed)
{
    memset(pl, 0, sizeof *pl);
    const char *problem = sched_shape_problem(shape);
    if (problem) return problem;
    const uint32_t d = shape->dims, p = shape->side[0];
    for (uint32_t i = 1; i < d; i++)
        if (shape->side[i] != p) return "the rotated classes need all sides equal (p x p or p x p x p)";
    if (shape->torus && p < 3) return "a torus needs sides of at least 3";
    if (p > 255) return "sides above 255 are not supported by the rule";
    const uint32_t n = sched_nodes(shape);
    if (m < 1 || m > n) return "the number of sources must be 1 .. N";
    pl->shape = *shape;
    pl->split = split ? 1u : 0u;
    pl->classes = (uint8_t)d;
    pl->parts = split ? (uint8_t)d : 1u;
    pl->p = (uint16_t)p;
    pl->nodes = n;
    pl->m = m;
    pl->class_size = split ? m : ceil_div(m, d);
    pl->prefix_steps = (split ? 2u : 4u) * d * (p - 1u);
    pl->pack_slots = packing_needed ? d * (p - 1u) : 0u;
    const uint32_t a = p / 2u, b = (p - 1u) / 2u; /* ceil((p-1)/2), floor((p-1)/2) */
    uint32_t first = pl->pack_slots + 1u, span = n;    /* span = p^(d-l+1) */
    for (uint32_t l = 1; l <= d; l++) {
        uint32_t r = ceil_div(pl->class_size, span);
        pl->rounds[l - 1] = r;
        pl->sub_slots[l - 1] = shape->torus ? ceil_div(r, 2u) * a + (r / 2u) * b : r * (p - 1u);
        pl->sub_first[l - 1] = first;
        first += pl->sub_slots[l - 1];
        span /= p;
    }
    pl->total_slots = first - 1u;
    return 0;
}

/* Most tuples over the given dimensions (digit k in 0..side[dim_k]-1) with one digit sum
 * mod d. */
static uint32_t max_residue_count(const sched_shape *sh, uint32_t d, const uint32_t *dims, uint32_t k)
{
    uint32_t cnt[SCHED_MAX_DIMS] = {1, 0, 0}, next[SCHED_MAX_DIMS];
    for (uint32_t step = 0; step < k; step++) {
        for (uint32_t r = 0; r < d; r++) next[r] = 0;
        for (uint32_t r = 0; r < d; r++)
            for (uint32_t x = 0; x < sh->side[dims[step]]; x++) next[(r + x) % d] += cnt[r];
        for (uint32_t r = 0; r < d; r++) cnt[r] = next[r];
    }
    uint32_t best = 0;
    for (uint32_t r = 0; r < d; r++) if (cnt[r] > best) best = cnt[r];
    return best;
}

/* Broadcast dimension of class c in subphase l (1-based): virtual d-l, rotated by c. */
static uint32_t bcast_dim(uint32_t d, uint32_t l, uint32_t c) { return (d - l + c) % d; }

const char *sched_pmnb_make_plan_diag(sched_pmnb_plan *pl, const sched_shape *shape)
{
    memset(pl, 0, sizeof *pl);
    const char *problem = sched_shape_problem(shape);
    if (problem) return problem;
    const uint32_t d = shape->dims;
    for (uint32_t k = 0; k < d; k++) {
        if (shape->torus && shape->side[k] < 3) return "a torus needs sides of at least 3";
        if (shape->side[k] > 255) return "sides above 255 are not supported by the rule";
    }
    pl->shape = *shape;
    pl->classes = (uint8_t)d;
    pl->parts = 1;
    pl->p = shape->side[0];
    pl->nodes = sched_nodes(shape);
    pl->m = pl->nodes;
    uint32_t all[SCHED_MAX_DIMS] = {0, 1, 2};
    pl->class_size = max_residue_count(shape, d, all, d);
    /* Subphase l lasts as long as its slowest class: the classes stay in lock step, so at any
     * slot they use distinct dimensions even when the sides differ. */
    uint32_t first = 1;
    for (uint32_t l = 1; l <= d; l++) {
        uint32_t longest = 0, most = 0;
        for (uint32_t c = 0; c < d; c++) {
            uint32_t covered[SCHED_MAX_DIMS];
            for (uint32_t k = 1; k < l; k++) covered[k - 1u] = bcast_dim(d, k, c);
            const uint32_t r = max_residue_count(shape, d, covered, l - 1u), p = shape->side[bcast_dim(d, l, c)];
            const uint32_t slots = shape->torus ? (r + 1u) / 2u * (p / 2u) + (r / 2u) * ((p - 1u) / 2u) : r * (p - 1u);
            if (slots > longest) longest = slots;
            if (r > most) most = r;
        }
        pl->rounds[l - 1] = most;
        pl->sub_slots[l - 1] = longest;
        pl->sub_first[l - 1] = first;
        first += longest;
    }
    pl->total_slots = first - 1u;
    return 0;
}

uint8_t sched_pmnb_diag_class(const sched_pmnb_plan *pl, uint32_t id)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(&pl->shape, id, c);
    uint32_t sum = 0;
    for (uint32_t k = 0; k < pl->classes; k++) sum += (uint32_t)c[k];
    return (uint8_t)(sum % pl->classes);
}

/* ---------------------------------------------------------------- prefix */

void sched_prefix_init(sched_prefix_node *st, const sched_pmnb_plan *pl, uint32_t id, uint8_t rot, uint32_t value)
{
    memset(st, 0, sizeof *st);
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(&pl->shape, id, c);
    st->rot = rot;
    for (uint32_t k = 0; k < pl->classes; k++) st->vdig[k] = c[(k + rot) % pl->classes];
    st->b[0] = value;
}

static int prefix_participant(const sched_pmnb_plan *pl, const sched_prefix_node *st, uint32_t j)
{
    for (uint32_t k = 0; k < j; k++) if (st->vdig[k] != (int32_t)pl->p - 1) return 0;
    return 1;
}

/* Decode a control step into (reverse?, virtual dim j, relative step t 1..p-1). */
static void prefix_where(const sched_pmnb_plan *pl, uint32_t step, int *reverse, uint32_t *j, uint32_t *t)
{
    const uint32_t len = pl->p - 1u, d = pl->classes;
    uint32_t idx = (step - 1u) / len;
    *t = (step - 1u) % len + 1u;
    if (idx < d) { *reverse = 0; *j = idx; }
    else { *reverse = 1; *j = d - 1u - (idx - d); }
}

int sched_prefix_send(const sched_pmnb_plan *pl, sched_prefix_node *st, uint32_t step, uint32_t word[2])
{
    const uint32_t d = pl->classes, p = pl->p;
    if (step < 1 || step > 2u * d * (p - 1u)) return -1;
    int reverse;
    uint32_t j, t;
    prefix_where(pl, step, &reverse, &j, &t);
    if (!prefix_participant(pl, st, j)) return -1;
    const uint32_t real = (j + st->rot) % d;
    const uint32_t k = (uint32_t)st->vdig[j];
    if (t == 1) {   /* entering the subphase: block value and the line root's own results */
        if (!reverse) { if (j > 0) st->b[j] = st->pf[j - 1]; if (k == 0) st->pf[j] = st->b[j]; }
        else if (k == p - 1u) {
            if (j == d - 1u) { st->e[d] = 0; st->m = st->pf[d - 1]; }
            st->e[j] = st->e[j + 1] + st->pf[j] - st->b[j];
        }
    }
    if (!reverse) {
        if (k + 1u != t || k == p - 1u) return -1;
        word[0] = st->pf[j];
        word[1] = 0;
        return (int)sched_port((uint8_t)real, +1);
    }
    if (k == 0 || p - k != t) return -1;
    word[0] = k == p - 1u ? st->e[j + 1] : st->e[j] - st->pf[j] + st->b[j]; /* E_{j+1} of the line */
    word[1] = st->m;
    return (int)sched_port((uint8_t)real, -1);
}

void sched_prefix_receive(const sched_pmnb_plan *pl, sched_prefix_node *st, uint32_t step, const uint32_t word[2])
{
    int reverse;
    uint32_t j, t;
    prefix_where(pl, step, &reverse, &j, &t);
    if (!reverse) {
        if (j > 0) st->b[j] = st->pf[j - 1];
        st->pf[j] = word[0] + st->b[j];
    } else {
        st->e[j] = word[0] + st->pf[j] - st->b[j];
        st->m = word[1];
    }
}

uint32_t sched_prefix_rank(const sched_prefix_node *st) { return st->e[0]; }
uint32_t sched_prefix_total(const sched_prefix_node *st) { return st->m; }

/* ---------------------------------------------------------------- node rule */

uint32_t sched_pmnb_target(const sched_pmnb_plan *pl, uint8_t cls, uint32_t rank)
{
    int32_t c[SCHED_MAX_DIMS] = {0, 0, 0};
    for (uint32_t k = 0; k < pl->classes; k++) {
        c[(k + cls) % pl->classes] = (int32_t)(rank % pl->p);
        rank /= pl->p;
    }
    return sched_node_id(&pl->shape, c);
}

void sched_pmnb_node_init(sched_pmnb_node *n, const sched_pmnb_plan *pl, uint32_t id, uint32_t *store,
                          uint32_t store_cap)
{
    memset(n, 0, sizeof *n);
    n->id = id;
    sched_node_coord(&pl->shape, id, n->coord);
    n->store = store;
    n->store_cap = store_cap;
}

static int pack_add(sched_pmnb_node *n, const sched_pmnb_packet *pkt)
{
    for (uint32_t i = 0; i < SCHED_PMNB_PACK_BUF; i++)
        if (n->pack[pkt->cls][i].kind == SCHED_PMNB_NONE) { n->pack[pkt->cls][i] = *pkt; return 0; }
    return -1;
}

static int store_add(sched_pmnb_node *n, uint8_t cls, uint32_t piece)
{
    if (n->count[cls] >= n->store_cap) return -1;
    n->store[cls * n->store_cap + n->count[cls]++] = piece;
    return 0;
}

int sched_pmnb_node_source(sched_pmnb_node *n, const sched_pmnb_plan *pl, uint8_t cls, uint32_t class_rank,
                           uint32_t piece)
{
    if (cls >= pl->classes || class_rank >= pl->class_size) return -1;
    sched_pmnb_packet pkt;
    memset(&pkt, 0, sizeof pkt);
    pkt.kind = SCHED_PMNB_PACK;
    pkt.cls = cls;
    pkt.piece = piece;
    pkt.target = sched_pmnb_target(pl, cls, class_rank);
    return pack_add(n, &pkt);
}

int sched_pmnb_node_own(sched_pmnb_node *n, const sched_pmnb_plan *pl, uint8_t cls, uint32_t piece)
{
    if (cls >= pl->classes) return -1;
    sched_pmnb_packet pkt;
    memset(&pkt, 0, sizeof pkt);
    pkt.kind = SCHED_PMNB_PACK;
    pkt.cls = cls;
    pkt.piece = piece;
    pkt.target = n->id;
    return pack_add(n, &pkt);
}

static int put_out(sched_pmnb_packet out[], uint32_t port, const sched_pmnb_packet *pkt)
{
    if (out[port].kind != SCHED_PMNB_NONE) return -1;
    out[port] = *pkt;
    return 0;
}

int sched_pmnb_node_send(const sched_pmnb_plan *pl, sched_pmnb_node *n, uint32_t slot,
                         sched_pmnb_packet out[2 * SCHED_MAX_DIMS])
{
    const uint32_t d = pl->classes, p = pl->p;
    memset(out, 0, sizeof(sched_pmnb_packet) * 2u * SCHED_MAX_DIMS);
    if (slot < 1 || slot > pl->total_slots) return 0;
    if (slot <= pl->pack_slots) {
        const uint32_t l = (slot - 1u) / (p - 1u);
        for (uint32_t c = 0; c < d; c++) {
            const uint32_t dim = (l + c) % d;
            for (uint32_t i = 0; i < SCHED_PMNB_PACK_BUF; i++) {
                sched_pmnb_packet *pk = &n->pack[c][i];
                if (pk->kind == SCHED_PMNB_NONE) continue;
                int32_t tc[SCHED_MAX_DIMS];
                sched_node_coord(&pl->shape, pk->target, tc);
                if (tc[dim] == n->coord[dim]) continue;
                uint32_t port = sched_port((uint8_t)dim, tc[dim] > n->coord[dim] ? +1 : -1);
                if (put_out(out, port, pk)) return -1;
                pk->kind = SCHED_PMNB_NONE;
            }
        }
        return 0;
    }
    if (!n->packed_moved) {   /* packing over: every packed packet is at its target */
        n->packed_moved = 1;
        for (uint32_t c = 0; c < d; c++)
            for (uint32_t i = 0; i < SCHED_PMNB_PACK_BUF; i++) {
                sched_pmnb_packet *pk = &n->pack[c][i];
                if (pk->kind == SCHED_PMNB_NONE) continue;
                if (pk->target != n->id || store_add(n, (uint8_t)c, pk->piece)) return -1;
                pk->kind = SCHED_PMNB_NONE;
            }
    }
    uint32_t l = 1;
    while (l < d && slot >= pl->sub_first[l]) l++;
    if (n->cur_sub != l) {
        n->cur_sub = l;
        for (uint32_t c = 0; c < d; c++) n->inject_count[c] = n->count[c];
    }
    const uint32_t rel = slot - pl->sub_first[l - 1];
    for (uint32_t c = 0; c < d; c++) {
        const uint32_t dim = (d - l + c) % d;
        const int32_t x = n->coord[dim];
        const uint32_t ring = pl->shape.side[dim], a = ring / 2u, b = (ring - 1u) / 2u;   /* this class's ring */
        for (int side = 0; side < 2; side++) {
            const int dir = side ? -1 : +1;
            const uint32_t port = sched_port((uint8_t)dim, dir);
            if (n->fwd[port].kind != SCHED_PMNB_NONE) {
                if (put_out(out, port, &n->fwd[port])) return -1;
                n->fwd[port].kind = SCHED_PMNB_NONE;
                continue;
            }
            uint32_t k, leg;
            if (pl->shape.torus) {
                const uint32_t pair = rel / (ring - 1u), r = rel % (ring - 1u);
                const uint32_t first_leg = dir > 0 ? a : b;
                if (r == 0) k = 2u * pair;
                else if (r == first_leg) k = 2u * pair + 1u;
                else continue;
                leg = ((k % 2u == 0) == (dir > 0)) ? a : b;
            } else {
                if (rel % (ring - 1u) != 0) continue;
                k = rel / (ring - 1u);
                leg = dir > 0 ? ring - 1u - (uint32_t)x : (uint32_t)x;
            }
            if (k >= n->inject_count[c] || leg == 0) continue;
            sched_pmnb_packet pkt;
            memset(&pkt, 0, sizeof pkt);
            pkt.kind = SCHED_PMNB_BCAST;
            pkt.cls = (uint8_t)c;
            pkt.hops_left = (uint16_t)(leg - 1u);
            pkt.piece = n->store[c * n->store_cap + k];
            if (put_out(out, port, &pkt)) return -1;
        }
    }
    return 0;
}

int sched_pmnb_node_receive(const sched_pmnb_plan *pl, sched_pmnb_node *n, uint32_t slot, uint8_t port,
                            const sched_pmnb_packet *pkt)
{
    (void)slot;
    if (pkt->cls >= pl->classes) return -1;
    const uint32_t origin = pkt->piece / pl->parts;
    if (pkt->kind == SCHED_PMNB_PACK) {
        if (pack_add(n, pkt)) return -1;
        return pkt->target == n->id && origin != n->id;
    }
    if (pkt->kind != SCHED_PMNB_BCAST) return -1;
    if (store_add(n, pkt->cls, pkt->piece)) return -1;
    if (pkt->hops_left > 0) {
        uint32_t out_port = port ^ 1u;   /* arrived through the - side: keeps going + */
        if (n->fwd[out_port].kind != SCHED_PMNB_NONE) return -1;
        n->fwd[out_port] = *pkt;
        n->fwd[out_port].hops_left = (uint16_t)(pkt->hops_left - 1u);
    }
    return origin != n->id;
}
