/* SPDX-License-Identifier: ISC */
/* The schedule checker: independent of the generators, portable, no allocation.
 *
 * Wormhole steps: every route is expanded hop by hop into directed links (node, dim, dir);
 * a link used twice in one step, a sender that does not hold the piece before the step, a
 * send port used twice in a step, a node reached twice or never is rejected. The one-port
 * model also allows one send and one receive per node per step. The contended model
 * (sched_coll.h) checks the same except the link used twice: its worms may share links.
 * Store-and-forward slots: every message is one hop; one packet per directed link per slot;
 * a node only sends a piece it held before the slot.
 * Holdings are (piece, node, step) records in an open-addressing hash in the workspace.
 */
#include "check/sched_check.h"
#include "sched.h"
#include "sched_coll.h"   /* issue 5: allgather/alltoall collectives have their own check path */

#include <stdio.h>
#include <string.h>

typedef struct {
    uint32_t piece;
    uint32_t node;   /* UINT32_MAX: empty slot */
    uint32_t step;   /* step at which the node got the piece (0: held from the start) */
} holding;

typedef struct {
    uint32_t nodes, ports;       /* ports = 2 * dims */
    uint32_t *link_stamp;        /* nodes*ports: last step + 1 the link was used */
    uint32_t *link_count;        /* nodes*ports: messages over the link, whole schedule */
    uint32_t *port_stamp;        /* nodes*ports: last step + 1 the send port was used */
    uint32_t *send_stamp;        /* nodes: last step + 1 the node sent */
    uint32_t *send_count;        /* nodes: sends in that step */
    uint32_t *recv_stamp;        /* nodes: last step + 1 the node received */
    holding *hash;
    uint32_t hash_mask;
} check_ws;

static uint32_t initial_holdings(const sched_schedule *s)
{
    uint32_t n = sched_nodes(&s->shape);
    return s->coll == SCHED_COLL_BCAST ? sched_coll_parts(s) : n - 1u;
}

static uint32_t hash_capacity(const sched_schedule *s)
{
    uint64_t need = 2ull * ((uint64_t)initial_holdings(s) + s->count) + 16u;
    uint32_t cap = 16;
    while (cap < need) cap <<= 1;
    return cap;
}

size_t sched_check_workspace_bytes(const sched_schedule *s)
{
    if (sched_coll_is_collective((int)s->coll)) return sched_check_coll_workspace_bytes(s);
    size_t nodes = sched_nodes(&s->shape), ports = 2u * s->shape.dims;
    return sizeof(uint32_t) * (3u * nodes * ports + 3u * nodes) + sizeof(holding) * hash_capacity(s) + 16u;
}

static uint32_t mix(uint32_t piece, uint32_t node)
{
    uint32_t h = piece * 0x9E3779B1u ^ (node + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0xC2B2AE3Du;
    return h ^ (h >> 13);
}

static holding *lookup(check_ws *ws, uint32_t piece, uint32_t node)
{
    uint32_t i = mix(piece, node) & ws->hash_mask;
    while (ws->hash[i].node != UINT32_MAX) {
        if (ws->hash[i].node == node && ws->hash[i].piece == piece) return &ws->hash[i];
        i = (i + 1) & ws->hash_mask;
    }
    return &ws->hash[i];   /* the empty slot where it would go */
}

static void put(check_ws *ws, uint32_t piece, uint32_t node, uint32_t step)
{
    holding *h = lookup(ws, piece, node);
    h->piece = piece;
    h->node = node;
    h->step = step;
}

static int fail(sched_check_result *r, const sched_schedule *s, uint32_t index, const char *what)
{
    char a[40], b[40];
    if (index < s->count) {
        const sched_msg *m = &s->msgs[index];
        sched_node_text(&s->shape, m->src, a, sizeof a);
        sched_node_text(&s->shape, m->dst, b, sizeof b);
        snprintf(r->error, sizeof r->error, "step %u, message %lu %s->%s piece %lu: %s",
                 (unsigned)m->step, (unsigned long)index, a, b, (unsigned long)m->piece, what);
    } else {
        snprintf(r->error, sizeof r->error, "%s", what);
    }
    r->ok = 0;
    return 0;
}

int sched_check(const sched_schedule *s, void *workspace, size_t workspace_bytes, sched_check_result *r)
{
    if (sched_coll_is_collective((int)s->coll)) return sched_check_coll(s, 0, workspace, workspace_bytes, r);
    memset(r, 0, sizeof *r);
    const char *problem = sched_subshape_problem(&s->shape);
    if (problem) return fail(r, s, UINT32_MAX, problem);
    if (workspace_bytes < sched_check_workspace_bytes(s))
        return fail(r, s, UINT32_MAX, "checker workspace too small (use sched_check_workspace_bytes)");
    const sched_shape *shape = &s->shape;
    const uint32_t dims = shape->dims;
    check_ws ws;
    ws.nodes = sched_nodes(shape);
    ws.ports = 2u * dims;
    if (s->root >= ws.nodes) return fail(r, s, UINT32_MAX, "root is not a node of the shape");
    if (s->model != SCHED_MODEL_WORMHOLE_ALLPORT && s->model != SCHED_MODEL_WORMHOLE_ONEPORT &&
        s->model != SCHED_MODEL_SAF_ALLPORT && s->model != SCHED_MODEL_WORMHOLE_CONTENDED)
        return fail(r, s, UINT32_MAX, "unknown communication model");
    const int contended = s->model == SCHED_MODEL_WORMHOLE_CONTENDED;
    /* broadcast: the root starts with pieces 0 .. parts-1 (1 but for bcast-edst), all due everywhere */
    const uint32_t parts = s->coll == SCHED_COLL_BCAST ? sched_coll_parts(s) : 1u;
    if (parts == 0) return fail(r, s, UINT32_MAX, "zero pieces per block");
    if (s->coll != SCHED_COLL_BCAST && s->coll != SCHED_COLL_SCATTER && s->coll != SCHED_COLL_GATHER)
        return fail(r, s, UINT32_MAX, "unknown collective");

    /* Lay out the workspace (16-byte aligned start). */
    uintptr_t p = ((uintptr_t)workspace + 15u) & ~(uintptr_t)15u;
    size_t np = (size_t)ws.nodes * ws.ports;
    ws.link_stamp = (uint32_t *)p; p += np * sizeof(uint32_t);
    ws.link_count = (uint32_t *)p; p += np * sizeof(uint32_t);
    ws.port_stamp = (uint32_t *)p; p += np * sizeof(uint32_t);
    ws.send_stamp = (uint32_t *)p; p += ws.nodes * sizeof(uint32_t);
    ws.send_count = (uint32_t *)p; p += ws.nodes * sizeof(uint32_t);
    ws.recv_stamp = (uint32_t *)p; p += ws.nodes * sizeof(uint32_t);
    ws.hash = (holding *)p;
    uint32_t hcap = hash_capacity(s);
    ws.hash_mask = hcap - 1u;
    memset(ws.link_stamp, 0, (3u * np + 3u * ws.nodes) * sizeof(uint32_t));
    for (uint32_t i = 0; i < hcap; i++) ws.hash[i].node = UINT32_MAX;

    /* Initial holdings. */
    for (uint32_t v = 0; v < ws.nodes; v++) {
        if (s->coll == SCHED_COLL_BCAST) { if (v == s->root) for (uint32_t k = 0; k < parts; k++) put(&ws, k, v, 0); }
        else if (v != s->root) put(&ws, v, s->coll == SCHED_COLL_SCATTER ? s->root : v, 0);
    }

    uint32_t last_step = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        const sched_msg *m = &s->msgs[i];
        const uint32_t step = m->step, stamp = step + 1u;
        if (step == 0) return fail(r, s, i, "step 0 (steps count from 1)");
        if (step < last_step) return fail(r, s, i, "messages are not sorted by step");
        last_step = step;
        if (m->src >= ws.nodes || m->dst >= ws.nodes) return fail(r, s, i, "node id outside the shape");
        if (m->src == m->dst) return fail(r, s, i, "a node sends to itself");
        if (m->start_dim >= dims) return fail(r, s, i, "start dimension outside the shape");
        for (uint32_t d = 0; d < SCHED_MAX_DIMS; d++) {
            int32_t h = m->hops[d] < 0 ? -m->hops[d] : m->hops[d];
            if (d >= dims && h != 0) return fail(r, s, i, "hops in a dimension the shape does not have");
            if (d < dims && h >= shape->side[d]) return fail(r, s, i, "a route goes all the way round a ring");
        }
        if (m->hops[m->start_dim] == 0) return fail(r, s, i, "no hops in the start dimension (port undefined)");
        uint32_t len = sched_msg_length(m, (uint8_t)dims);
        if (s->model == SCHED_MODEL_SAF_ALLPORT && len != 1)
            return fail(r, s, i, "store-and-forward message longer than one hop");

        /* The sender must hold the piece before this step. */
        holding *have = lookup(&ws, m->piece, m->src);
        if (have->node == UINT32_MAX || have->step >= step)
            return fail(r, s, i, s->coll == SCHED_COLL_BCAST ? "sender not yet informed"
                                                              : "sender does not hold the piece before the slot");
        /* The receiver must not get it twice. */
        holding *got = lookup(&ws, m->piece, m->dst);
        if (got->node != UINT32_MAX) return fail(r, s, i, "node reached twice (already holds the piece)");

        /* Ports and one-port rules. */
        uint32_t port = sched_msg_send_port(m);
        uint32_t *ps = &ws.port_stamp[m->src * ws.ports + port];
        if (*ps == stamp) return fail(r, s, i, "send port used twice in one step");
        *ps = stamp;
        if (ws.send_stamp[m->src] != stamp) { ws.send_stamp[m->src] = stamp; ws.send_count[m->src] = 0; }
        ws.send_count[m->src]++;
        if (ws.send_count[m->src] > r->max_sends_per_step) r->max_sends_per_step = ws.send_count[m->src];
        if (s->model == SCHED_MODEL_WORMHOLE_ONEPORT) {
            if (ws.send_count[m->src] > 1) return fail(r, s, i, "one-port: node sends twice in one step");
            if (ws.recv_stamp[m->dst] == stamp) return fail(r, s, i, "one-port: node receives twice in one step");
        }
        ws.recv_stamp[m->dst] = stamp;

        /* Expand the route into directed links. */
        int32_t c[SCHED_MAX_DIMS];
        sched_node_coord(shape, m->src, c);
        for (uint32_t k = 0; k < dims; k++) {
            uint32_t d = (m->start_dim + k) % dims;
            int32_t h = m->hops[d], dir = h < 0 ? -1 : 1, side = shape->side[d];
            for (int32_t j = 0; j < (h < 0 ? -h : h); j++) {
                uint32_t here = sched_node_id(shape, c);
                uint32_t link = here * ws.ports + sched_port((uint8_t)d, dir);
                if (ws.link_stamp[link] == stamp && !contended) {
                    char at[40], buf[128];
                    sched_node_text(shape, here, at, sizeof at);
                    snprintf(buf, sizeof buf, "directed link %s dim %lu %c used twice in one step",
                             at, (unsigned long)d, dir > 0 ? '+' : '-');
                    return fail(r, s, i, buf);
                }
                if (sched_link_dead(s, link)) {
                    char at[40], buf[128];
                    sched_node_text(shape, here, at, sizeof at);
                    snprintf(buf, sizeof buf, "route crosses the dead link %s port %lu",
                             at, (unsigned long)sched_port((uint8_t)d, dir));
                    return fail(r, s, i, buf);
                }
                ws.link_stamp[link] = stamp;
                if (ws.link_count[link]++ == 0) r->links_used++;
                if (ws.link_count[link] > r->max_link_load) r->max_link_load = ws.link_count[link];
                c[d] += dir;
                if (c[d] < 0 || c[d] >= side) {
                    if (!shape->torus) return fail(r, s, i, "route leaves the mesh");
                    c[d] = (c[d] + side) % side;
                }
            }
        }
        if (sched_node_id(shape, c) != m->dst) return fail(r, s, i, "route does not end at the receiver");
        put(&ws, m->piece, m->dst, step);
        r->total_distance += len;
        if (len > r->max_path) r->max_path = len;
        if (step > r->steps) r->steps = step;
        r->messages++;
    }

    /* Everything must have arrived. */
    for (uint32_t v = 0; v < ws.nodes; v++) {
        for (uint32_t k = 0; k < parts; k++) {
            uint32_t piece, node;
            if (s->coll == SCHED_COLL_BCAST) { piece = k; node = v; }
            else if (v == s->root) continue;
            else { piece = v; node = s->coll == SCHED_COLL_SCATTER ? v : s->root; }
            if (lookup(&ws, piece, node)->node == UINT32_MAX) {
                char a[40], buf[128];
                sched_node_text(shape, node, a, sizeof a);
                snprintf(buf, sizeof buf, "node %s never receives piece %lu", a, (unsigned long)piece);
                return fail(r, s, UINT32_MAX, buf);
            }
        }
    }
    r->ok = 1;
    return 1;
}
