/* SPDX-License-Identifier: ISC */
/* Checker for the issue-5 collectives (allgather, alltoall, partial allgather) on the
 * store-and-forward models. Independent of the generators; portable, no allocation.
 *
 * Rules: every message is one hop between neighbours (route consistent with the shape);
 * one packet per directed link per slot; single-port also one send and one receive per node
 * per slot; the contended wormhole model instead takes multi-hop worms (route inside the
 * shape and ending at the receiver, one worm per send port per step) that may share links; a node sends only a piece it held before the slot (from the start, delivered or
 * relayed); a delivery (message without SCHED_MSG_TRANSIT) must be for a node the piece is
 * due at and must be the first delivery of that piece there; at the end every due
 * (piece, node) pair has been delivered.
 */
#include "check/sched_check.h"
#include "sched_coll.h"

#include <stdio.h>
#include <string.h>

enum { KIND_ORIGIN = 1, KIND_DELIVERED = 2, KIND_RELAY = 3 };

typedef struct {
    uint32_t piece;
    uint32_t node;   /* UINT32_MAX: empty */
    uint32_t step;
    uint32_t kind;
} cc_hold;

typedef struct {
    uint32_t nodes, ports, parts;
    uint32_t *link_stamp, *link_count, *send_stamp, *recv_stamp;
    cc_hold *hash;
    uint32_t mask;
} cc_ws;

static uint64_t initial_count(const sched_schedule *s)
{
    uint64_t n = sched_nodes(&s->shape);
    if (s->coll == SCHED_COLL_ALLTOALL || s->coll == SCHED_COLL_PARTIAL_ALLTOALL ||
        s->coll == SCHED_COLL_PARTIAL_GATHER)
        return n * (n - 1u);
    return n * sched_coll_parts(s);
}

static uint32_t cc_hash_cap(const sched_schedule *s)
{
    uint64_t need = 2ull * (initial_count(s) + s->count) + 16u;
    uint32_t cap = 16;
    while (cap < need && cap < 0x80000000u) cap <<= 1;
    return cap;
}

size_t sched_check_coll_workspace_bytes(const sched_schedule *s)
{
    size_t nodes = sched_nodes(&s->shape), ports = 2u * s->shape.dims;
    return sizeof(uint32_t) * (2u * nodes * ports + 2u * nodes) + sizeof(cc_hold) * cc_hash_cap(s) + 16u;
}

static uint32_t cc_mix(uint32_t piece, uint32_t node)
{
    uint32_t h = piece * 0x9E3779B1u ^ (node + 0x632BE5ABu) * 0x85EBCA77u;
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    return h ^ (h >> 15);
}

static cc_hold *cc_find(cc_ws *ws, uint32_t piece, uint32_t node)
{
    uint32_t i = cc_mix(piece, node) & ws->mask;
    while (ws->hash[i].node != UINT32_MAX) {
        if (ws->hash[i].node == node && ws->hash[i].piece == piece) return &ws->hash[i];
        i = (i + 1u) & ws->mask;
    }
    return &ws->hash[i];
}

static void cc_put(cc_hold *h, uint32_t piece, uint32_t node, uint32_t step, uint32_t kind)
{
    h->piece = piece;
    h->node = node;
    h->step = step;
    h->kind = kind;
}

static int cc_fail(sched_check_result *r, const sched_schedule *s, uint32_t index, const char *what)
{
    if (index < s->count) {
        const sched_msg *m = &s->msgs[index];
        snprintf(r->error, sizeof r->error, "slot %u, message %lu #%lu->#%lu piece %lu: %s", (unsigned)m->step,
                 (unsigned long)index, (unsigned long)m->src, (unsigned long)m->dst, (unsigned long)m->piece, what);
    } else {
        snprintf(r->error, sizeof r->error, "%s", what);
    }
    r->ok = 0;
    return 0;
}

/* The node a piece starts at; UINT32_MAX if the piece does not exist. */
static uint32_t piece_origin(const sched_schedule *s, const cc_ws *ws, const uint8_t *sources, uint32_t piece)
{
    if (s->coll == SCHED_COLL_ALLTOALL || s->coll == SCHED_COLL_PARTIAL_ALLTOALL ||
        s->coll == SCHED_COLL_PARTIAL_GATHER) {
        uint32_t src = piece / ws->nodes, dst = piece % ws->nodes;
        if (src >= ws->nodes || src == dst) return UINT32_MAX;
        if (s->coll == SCHED_COLL_PARTIAL_ALLTOALL && !sources[src]) return UINT32_MAX;
        if (s->coll == SCHED_COLL_PARTIAL_GATHER && !sources[dst]) return UINT32_MAX;
        return src;
    }
    uint32_t src = piece / ws->parts;
    if (src >= ws->nodes) return UINT32_MAX;
    if (s->coll == SCHED_COLL_PARTIAL_ALLGATHER && !sources[src]) return UINT32_MAX;
    return src;
}

static int piece_due(const sched_schedule *s, const cc_ws *ws, uint32_t piece, uint32_t origin, uint32_t node)
{
    if (s->coll == SCHED_COLL_ALLTOALL || s->coll == SCHED_COLL_PARTIAL_ALLTOALL ||
        s->coll == SCHED_COLL_PARTIAL_GATHER)
        return piece % ws->nodes == node;
    return node != origin;
}

/* A contended worm's route (sched_coll.h): hop counts inside the shape, hops in the start
 * dimension, never leaving a mesh, ending at the receiver. Every link it crosses is counted in
 * the link loads. Returns 0, or what is wrong; *len gets the hop count. */
static const char *route_problem(const sched_schedule *s, const sched_msg *m, cc_ws *ws, sched_check_result *r,
                                 uint32_t *len)
{
    const sched_shape *shape = &s->shape;
    const uint32_t dims = shape->dims;
    if (m->src == m->dst) return "a node sends to itself";
    for (uint32_t d = 0; d < SCHED_MAX_DIMS; d++) {
        int32_t h = m->hops[d] < 0 ? -m->hops[d] : m->hops[d];
        if (d >= dims && h != 0) return "hops in a dimension the shape does not have";
        if (d < dims && h >= shape->side[d]) return "a route goes all the way round a ring";
    }
    if (m->hops[m->start_dim] == 0) return "no hops in the start dimension (port undefined)";
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(shape, m->src, c);
    *len = sched_msg_length(m, (uint8_t)dims);
    for (uint32_t k = 0; k < dims; k++) {
        const uint32_t d = (m->start_dim + k) % dims;
        const int32_t h = m->hops[d], dir = h < 0 ? -1 : 1, side = shape->side[d];
        for (int32_t j = 0; j < (h < 0 ? -h : h); j++) {
            const uint32_t link = sched_node_id(shape, c) * ws->ports + sched_port((uint8_t)d, dir);
            if (sched_link_dead(s, link)) return "route crosses a dead link";
            if (ws->link_count[link]++ == 0) r->links_used++;
            if (ws->link_count[link] > r->max_link_load) r->max_link_load = ws->link_count[link];
            c[d] += dir;
            if (c[d] < 0 || c[d] >= side) {
                if (!shape->torus) return "route leaves the mesh";
                c[d] = (c[d] + side) % side;
            }
        }
    }
    return sched_node_id(shape, c) == m->dst ? 0 : "route does not end at the receiver";
}

int sched_check_coll_stats(const sched_schedule *s, const uint8_t *sources, void *workspace,
                           size_t workspace_bytes, sched_check_result *r, sched_coll_stats *stats)
{
    memset(r, 0, sizeof *r);
    if (stats) memset(stats, 0, sizeof *stats);
    const char *problem = sched_subshape_problem(&s->shape);
    if (problem) return cc_fail(r, s, UINT32_MAX, problem);
    if (!sched_coll_is_collective(s->coll)) return cc_fail(r, s, UINT32_MAX, "not an allgather/alltoall collective");
    if (s->model != SCHED_MODEL_SAF_ALLPORT && s->model != SCHED_MODEL_SAF_ONEPORT &&
        s->model != SCHED_MODEL_WORMHOLE_CONTENDED)
        return cc_fail(r, s, UINT32_MAX, "these collectives are checked on the store-and-forward and the contended "
                                         "wormhole models only");
    const int contended = s->model == SCHED_MODEL_WORMHOLE_CONTENDED;
    if ((s->coll == SCHED_COLL_PARTIAL_ALLGATHER || s->coll == SCHED_COLL_PARTIAL_ALLTOALL ||
         s->coll == SCHED_COLL_PARTIAL_GATHER) && !sources)
        return cc_fail(r, s, UINT32_MAX, "partial collective: the checker needs the source set (the destination "
                                         "set for a partial gather: sched_check_coll)");
    if (workspace_bytes < sched_check_coll_workspace_bytes(s))
        return cc_fail(r, s, UINT32_MAX, "checker workspace too small (use sched_check_coll_workspace_bytes)");
    const sched_shape *shape = &s->shape;
    const uint32_t dims = shape->dims;
    cc_ws ws;
    ws.nodes = sched_nodes(shape);
    ws.ports = 2u * dims;
    const int exchange = s->coll == SCHED_COLL_ALLTOALL || s->coll == SCHED_COLL_PARTIAL_ALLTOALL ||
                         s->coll == SCHED_COLL_PARTIAL_GATHER;
    const int gather = s->coll == SCHED_COLL_PARTIAL_GATHER;
    ws.parts = exchange ? 1u : sched_coll_parts(s);
    if (ws.parts == 0) return cc_fail(r, s, UINT32_MAX, "zero pieces per node");
    if (exchange && (uint64_t)ws.nodes * ws.nodes > 0xFFFFFFFFull)
        return cc_fail(r, s, UINT32_MAX, "too many nodes for alltoall piece numbers");

    uintptr_t p = ((uintptr_t)workspace + 15u) & ~(uintptr_t)15u;
    size_t np = (size_t)ws.nodes * ws.ports;
    ws.link_stamp = (uint32_t *)p; p += np * sizeof(uint32_t);
    ws.link_count = (uint32_t *)p; p += np * sizeof(uint32_t);
    ws.send_stamp = (uint32_t *)p; p += ws.nodes * sizeof(uint32_t);
    ws.recv_stamp = (uint32_t *)p; p += ws.nodes * sizeof(uint32_t);
    ws.hash = (cc_hold *)p;
    uint32_t cap = cc_hash_cap(s);
    ws.mask = cap - 1u;
    memset(ws.link_stamp, 0, (2u * np + 2u * ws.nodes) * sizeof(uint32_t));
    for (uint32_t i = 0; i < cap; i++) ws.hash[i].node = UINT32_MAX;

    /* Initial holdings and the number of deliveries due. */
    uint64_t due = 0;
    for (uint32_t v = 0; v < ws.nodes; v++) {
        if (exchange) {
            if (s->coll == SCHED_COLL_PARTIAL_ALLTOALL && !sources[v]) continue;
            for (uint32_t t = 0; t < ws.nodes; t++)
                if (t != v && (!gather || sources[t])) {
                    cc_put(cc_find(&ws, v * ws.nodes + t, v), v * ws.nodes + t, v, 0, KIND_ORIGIN);
                    due++;
                }
        } else if (s->coll == SCHED_COLL_ALLGATHER || sources[v]) {
            for (uint32_t c = 0; c < ws.parts; c++)
                cc_put(cc_find(&ws, v * ws.parts + c, v), v * ws.parts + c, v, 0, KIND_ORIGIN);
            due += (uint64_t)ws.parts * (ws.nodes - 1u);
        }
    }

    uint32_t last = 0;
    uint64_t delivered = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        const sched_msg *m = &s->msgs[i];
        const uint32_t step = m->step, stamp = step + 1u;
        if (step == 0) return cc_fail(r, s, i, "slot 0 (slots count from 1)");
        if (step < last) return cc_fail(r, s, i, "messages are not sorted by slot");
        last = step;
        if (m->src >= ws.nodes || m->dst >= ws.nodes) return cc_fail(r, s, i, "node id outside the shape");
        if (m->start_dim >= dims) return cc_fail(r, s, i, "start dimension outside the shape");
        if (m->reserved & ~SCHED_MSG_TRANSIT) return cc_fail(r, s, i, "unknown message flag");
        const int32_t h = m->hops[m->start_dim];
        uint32_t len = 1;
        if (contended) {
            const char *why = route_problem(s, m, &ws, r, &len);
            if (why) return cc_fail(r, s, i, why);
        } else {
            for (uint32_t d = 0; d < SCHED_MAX_DIMS; d++)
                if (d != m->start_dim && m->hops[d] != 0)
                    return cc_fail(r, s, i, "store-and-forward message longer than one hop");
            if (h != 1 && h != -1) return cc_fail(r, s, i, "store-and-forward message is not exactly one hop");
            int64_t nb = sched_neighbour(shape, m->src, sched_port(m->start_dim, h));
            if (nb < 0) return cc_fail(r, s, i, "route leaves the mesh");
            if ((uint32_t)nb != m->dst) return cc_fail(r, s, i, "route does not end at the receiver");
        }

        uint32_t origin = piece_origin(s, &ws, sources, m->piece);
        if (origin == UINT32_MAX) return cc_fail(r, s, i, "piece does not exist in this collective (or not from a source)");
        cc_hold *have = cc_find(&ws, m->piece, m->src);
        if (have->node == UINT32_MAX || have->step >= step)
            return cc_fail(r, s, i, "sender does not hold the piece before the slot");

        /* The first link is the send port. Contended worms may share links (route_problem counted
         * them), but a node still sends one worm per port per step. */
        uint32_t link = m->src * ws.ports + sched_port(m->start_dim, h);
        if (sched_link_dead(s, link)) return cc_fail(r, s, i, "message crosses a dead link");
        if (ws.link_stamp[link] == stamp)
            return cc_fail(r, s, i, contended ? "send port used twice in one step"
                                              : "directed link used twice in one slot (contention)");
        ws.link_stamp[link] = stamp;
        if (!contended) {
            if (ws.link_count[link]++ == 0) r->links_used++;
            if (ws.link_count[link] > r->max_link_load) r->max_link_load = ws.link_count[link];
        }
        if (s->model == SCHED_MODEL_SAF_ONEPORT) {
            if (ws.send_stamp[m->src] == stamp) return cc_fail(r, s, i, "single-port: node sends twice in one slot");
            if (ws.recv_stamp[m->dst] == stamp) return cc_fail(r, s, i, "single-port: node receives twice in one slot");
            r->max_sends_per_step = 1;
        } else {
            /* Count the node's sends in this slot through the per-port stamps. */
            uint32_t sends = 0;
            for (uint32_t q = 0; q < ws.ports; q++) sends += ws.link_stamp[m->src * ws.ports + q] == stamp;
            if (sends > r->max_sends_per_step) r->max_sends_per_step = sends;
        }
        ws.send_stamp[m->src] = stamp;
        ws.recv_stamp[m->dst] = stamp;

        cc_hold *got = cc_find(&ws, m->piece, m->dst);
        if (m->reserved & SCHED_MSG_TRANSIT) {
            if (got->node == UINT32_MAX) cc_put(got, m->piece, m->dst, step, KIND_RELAY);
            if (stats) stats->relays++;
        } else {
            if (!piece_due(s, &ws, m->piece, origin, m->dst))
                return cc_fail(r, s, i, "delivered to a node the piece is not due at (mark relays SCHED_MSG_TRANSIT)");
            if (got->node != UINT32_MAX && got->kind == KIND_DELIVERED)
                return cc_fail(r, s, i, "piece delivered twice to the same node");
            if (got->node == UINT32_MAX) cc_put(got, m->piece, m->dst, step, KIND_DELIVERED);
            else got->kind = KIND_DELIVERED;   /* relayed earlier, delivered now: keeps the earlier slot */
            delivered++;
            if (stats) stats->deliveries++;
        }
        r->total_distance += len;
        if (len > r->max_path) r->max_path = len;
        if (step > r->steps) r->steps = step;
        r->messages++;
    }

    if (delivered != due) {
        /* Name one missing delivery. */
        for (uint32_t v = 0; v < ws.nodes; v++) {
            uint32_t first, count;
            if (exchange) {
                if (s->coll == SCHED_COLL_PARTIAL_ALLTOALL && !sources[v]) continue;
                first = v * ws.nodes;
                count = ws.nodes;
            }
            else if (s->coll == SCHED_COLL_ALLGATHER || sources[v]) { first = v * ws.parts; count = ws.parts; }
            else continue;
            for (uint32_t k = 0; k < count; k++) {
                uint32_t piece = first + k;
                for (uint32_t node = 0; node < ws.nodes; node++) {
                    if (exchange && (node != piece % ws.nodes || node == v)) continue;
                    if (gather && !sources[node]) continue;
                    if (!exchange && node == v) continue;
                    cc_hold *h = cc_find(&ws, piece, node);
                    if (h->node == UINT32_MAX || h->kind != KIND_DELIVERED) {
                        char buf[128];
                        snprintf(buf, sizeof buf, "node #%lu never gets piece %lu (from node #%lu)",
                                 (unsigned long)node, (unsigned long)piece, (unsigned long)v);
                        return cc_fail(r, s, UINT32_MAX, buf);
                    }
                }
            }
        }
        return cc_fail(r, s, UINT32_MAX, "delivery count differs from the pieces due");
    }
    r->ok = 1;
    return 1;
}

int sched_check_coll(const sched_schedule *s, const uint8_t *sources, void *workspace, size_t workspace_bytes,
                     sched_check_result *result)
{
    return sched_check_coll_stats(s, sources, workspace, workspace_bytes, result, 0);
}
