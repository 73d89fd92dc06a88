/* SPDX-License-Identifier: ISC */
/* Schedules around dead links: broadcast, scatter, gather, allgather and alltoall on any mesh
 * or torus with some links failed (schedgen --dead-link). Store-and-forward, all-port: every
 * message is one hop over a live link, one packet per directed link per slot, a node forwards
 * only what it held before the slot; the checker proves all of it, and that no route crosses
 * a dead link (sched_link_dead).
 *
 * The routes: a breadth-first tree of the live links from each source (a shortest path in
 * the damaged machine). The slots: greedy, hop by hop in order of depth, each hop in the
 * earliest slot after its piece reached the sender in which its link is free. On an undamaged
 * torus the trees are translates of one another, so the load spreads evenly; the result is
 * not optimal (the seed schedules are, where they apply) but it runs wherever the live links
 * connect every node. */
#include "fault/sched_fault.h"
#include "base/sched_base.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const sched_shape *shape;
    const sched_schedule *s;     /* for its dead links */
    uint32_t nodes, ports;
    uint64_t **used;             /* per directed link: a bitmap of the slots it carries a packet */
    uint32_t *words;             /* per directed link: the bitmap's length in 64-bit words */
    int32_t *parent;             /* BFS scratch: parent node (-1: not reached) */
    uint8_t *pport;              /* BFS scratch: the parent's port towards the node */
    uint32_t *order;             /* BFS scratch: nodes in the order reached */
    uint32_t *depth;
} ft_ctx;

static int ft_open(ft_ctx *c, const sched_schedule *s)
{
    memset(c, 0, sizeof *c);
    c->shape = &s->shape;
    c->s = s;
    c->nodes = sched_nodes(&s->shape);
    c->ports = 2u * s->shape.dims;
    const size_t links = (size_t)c->nodes * c->ports;
    c->used = calloc(links, sizeof *c->used);
    c->words = calloc(links, sizeof *c->words);
    c->parent = malloc(sizeof *c->parent * c->nodes);
    c->pport = malloc(c->nodes);
    c->order = malloc(sizeof *c->order * c->nodes);
    c->depth = malloc(sizeof *c->depth * c->nodes);
    return c->used && c->words && c->parent && c->pport && c->order && c->depth ? 0 : -1;
}

static void ft_close(ft_ctx *c)
{
    if (c->used)
        for (size_t l = 0; l < (size_t)c->nodes * c->ports; l++) free(c->used[l]);
    free(c->used);
    free(c->words);
    free(c->parent);
    free(c->pport);
    free(c->order);
    free(c->depth);
}

/* Is the link from v on port p there and alive? Its far end in *to. */
static int live(const ft_ctx *c, uint32_t v, uint32_t p, uint32_t *to)
{
    int64_t nb = sched_neighbour(c->shape, v, (uint8_t)p);
    if (nb < 0 || sched_link_dead(c->s, v * c->ports + p)) return 0;
    *to = (uint32_t)nb;
    return 1;
}

/* Breadth-first tree of the live links from src (ports tried from `first` on, cyclically, so
 * that trees of different sources lean different ways). Returns the unreached node, or
 * UINT32_MAX when every node is reached. */
static uint32_t bfs(ft_ctx *c, uint32_t src, uint32_t first)
{
    for (uint32_t v = 0; v < c->nodes; v++) c->parent[v] = -1;
    c->parent[src] = (int32_t)src;
    c->depth[src] = 0;
    uint32_t head = 0, tail = 0;
    c->order[tail++] = src;
    while (head < tail) {
        const uint32_t u = c->order[head++];
        for (uint32_t k = 0; k < c->ports; k++) {
            const uint32_t p = (first + k) % c->ports;
            uint32_t v;
            if (!live(c, u, p, &v) || c->parent[v] >= 0) continue;
            c->parent[v] = (int32_t)u;
            c->pport[v] = (uint8_t)p;
            c->depth[v] = c->depth[u] + 1u;
            c->order[tail++] = v;
        }
    }
    for (uint32_t v = 0; v < c->nodes; v++)
        if (c->parent[v] < 0) return v;
    return UINT32_MAX;
}

/* The first slot >= earliest in which the link is free; taken. 0 when out of memory. */
static uint32_t take(ft_ctx *c, uint32_t link, uint32_t earliest)
{
    for (uint32_t t = earliest;; t++) {
        const uint32_t w = t / 64u;
        if (w >= c->words[link]) {
            uint32_t nw = c->words[link] ? c->words[link] * 2u : 4u;
            while (nw <= w) nw *= 2u;
            uint64_t *g = realloc(c->used[link], sizeof *g * nw);
            if (!g) return 0;
            memset(g + c->words[link], 0, sizeof *g * (nw - c->words[link]));
            c->used[link] = g;
            c->words[link] = nw;
        }
        if (!(c->used[link][w] & (1ull << (t % 64u)))) {
            c->used[link][w] |= 1ull << (t % 64u);
            return t;
        }
    }
}

/* One hop u -> its neighbour on port p carrying piece, in the first free slot >= earliest.
 * Returns the slot, 0 on failure (out of memory, or past 65535 slots). */
static uint32_t hop(ft_ctx *c, sched_schedule *out, uint32_t u, uint32_t p, uint32_t piece, uint32_t earliest,
                    int transit)
{
    uint32_t v;
    if (!live(c, u, p, &v)) return 0;
    const uint32_t t = take(c, u * c->ports + p, earliest);
    if (t == 0 || t > 65535u) return 0;
    sched_msg m;
    memset(&m, 0, sizeof m);
    m.src = u;
    m.dst = v;
    m.piece = piece;
    m.step = (uint16_t)t;
    m.start_dim = (uint8_t)(p / 2u);
    m.hops[p / 2u] = (int16_t)((p & 1u) ? -1 : 1);
    m.reserved = transit ? (uint8_t)SCHED_MSG_TRANSIT : 0u;
    return sched_push(out, &m) ? 0 : t;
}

/* the path from the BFS root to v, as the nodes it leaves and their ports, root first */
static uint32_t path_to(const ft_ctx *c, uint32_t v, uint32_t *from, uint8_t *port)
{
    uint32_t len = 0;
    for (uint32_t x = v; c->parent[x] != (int32_t)x; x = (uint32_t)c->parent[x]) len++;
    uint32_t k = len;
    for (uint32_t x = v; c->parent[x] != (int32_t)x; x = (uint32_t)c->parent[x]) {
        k--;
        from[k] = (uint32_t)c->parent[x];
        port[k] = c->pport[x];
    }
    return len;
}

static int unreachable(const ft_ctx *c, uint32_t src, uint32_t v, char *err, size_t errlen)
{
    char a[32], b[32];
    sched_node_text(c->shape, src, a, sizeof a);
    sched_node_text(c->shape, v, b, sizeof b);
    return sched_fail(err, errlen, "the dead links cut node %s off from node %s: no schedule can reach it", b, a);
}

int sched_gen_ft(sched_schedule *out, char *err, size_t errlen)
{
    ft_ctx c;
    int rc = -1;
    uint32_t *have = 0, *from = 0;
    uint8_t *port = 0;
    const int algo = (int)out->algo;
    if (ft_open(&c, out)) { sched_fail(err, errlen, "out of memory"); goto done; }
    const uint32_t n = c.nodes, root = out->root;
    from = malloc(sizeof *from * n);
    port = malloc(n);
    if (!from || !port) { sched_fail(err, errlen, "out of memory"); goto done; }
    out->model = SCHED_MODEL_SAF_ALLPORT;
    out->parts = 0;
    if (algo == (int)SCHED_ALGO_BCAST_FT) {
        out->coll = SCHED_COLL_BCAST;
        uint32_t cut = bfs(&c, root, 0);
        if (cut != UINT32_MAX) { unreachable(&c, root, cut, err, errlen); goto done; }
        have = calloc(n, sizeof *have);   /* the slot the node holds piece 0 from (root: 0) */
        if (!have) { sched_fail(err, errlen, "out of memory"); goto done; }
        for (uint32_t i = 1; i < n; i++) {
            const uint32_t v = c.order[i], u = (uint32_t)c.parent[v];
            if (!(have[v] = hop(&c, out, u, c.pport[v], 0, have[u] + 1u, 0))) goto oom;
        }
    } else if (algo == (int)SCHED_ALGO_SCATTER_FT || algo == (int)SCHED_ALGO_GATHER_FT) {
        const int gather = algo == (int)SCHED_ALGO_GATHER_FT;
        out->coll = gather ? SCHED_COLL_GATHER : SCHED_COLL_SCATTER;
        uint32_t cut = bfs(&c, root, 0);
        if (cut != UINT32_MAX) { unreachable(&c, root, cut, err, errlen); goto done; }
        /* scatter: the farthest pieces first, each down its path; gather: each piece up the
         * reversed path (a dead cable is dead both ways), the nearest first */
        for (uint32_t i = 1; i < n; i++) {
            const uint32_t v = c.order[gather ? i : n - i];
            const uint32_t len = path_to(&c, v, from, port);
            uint32_t t = 0;
            for (uint32_t k = 0; k < len; k++) {
                uint32_t u, p;
                if (!gather) { u = from[k]; p = port[k]; }
                else {   /* hop k of the way up: from the path's node len-k back to len-k-1 */
                    const uint32_t j = len - 1u - k;
                    u = j + 1u < len ? from[j + 1u] : v;
                    p = port[j] ^ 1u;
                }
                if (!(t = hop(&c, out, u, p, v, t + 1u, 0))) goto oom;
            }
        }
    } else if (algo == (int)SCHED_ALGO_ALLGATHER_FT || algo == (int)SCHED_ALGO_ALLTOALL_FT) {
        const int a2a = algo == (int)SCHED_ALGO_ALLTOALL_FT;
        out->coll = a2a ? SCHED_COLL_ALLTOALL : SCHED_COLL_ALLGATHER;
        /* every source's tree first (they are kept: a node of depth d in source s's tree) */
        int32_t *par = malloc(sizeof *par * (size_t)n * n);
        uint8_t *pp = malloc((size_t)n * n);
        uint32_t *dep = malloc(sizeof *dep * (size_t)n * n);
        have = calloc((size_t)n * n, sizeof *have);   /* per piece: the slot it reached its last node */
        if (!par || !pp || !dep || !have) {
            free(par); free(pp); free(dep);
            sched_fail(err, errlen, "out of memory");
            goto done;
        }
        uint32_t maxdepth = 0;
        int cut_off = 0;
        for (uint32_t src = 0; src < n && !cut_off; src++) {
            uint32_t cut = bfs(&c, src, src % c.ports);
            if (cut != UINT32_MAX) { unreachable(&c, src, cut, err, errlen); cut_off = 1; break; }
            memcpy(par + (size_t)src * n, c.parent, sizeof *par * n);
            memcpy(pp + (size_t)src * n, c.pport, n);
            memcpy(dep + (size_t)src * n, c.depth, sizeof *dep * n);
            for (uint32_t v = 0; v < n; v++) if (c.depth[v] > maxdepth) maxdepth = c.depth[v];
        }
        if (cut_off) {
            free(par); free(pp); free(dep);
            goto done;
        }
        if (!a2a) {
            /* level by level over all sources: in level d every node of depth d in some tree
             * gets that source's piece from its parent */
            for (uint32_t d = 1; d <= maxdepth; d++)
                for (uint32_t src = 0; src < n; src++)
                    for (uint32_t v = 0; v < n; v++) {
                        const size_t at = (size_t)src * n + v;
                        if (dep[at] != d) continue;
                        const uint32_t u = (uint32_t)par[at];
                        if (!(have[at] = hop(&c, out, u, pp[at], src, have[(size_t)src * n + u] + 1u, 0))) {
                            free(par); free(pp); free(dep);
                            goto oom;
                        }
                    }
        } else {
            /* every (s, t) piece along s's tree to t, level by level (hop `level` of every
             * path in the same pass) */
            for (uint32_t level = 1; level <= maxdepth; level++)
                for (uint32_t src = 0; src < n; src++)
                    for (uint32_t t = 0; t < n; t++) {
                        const size_t at = (size_t)src * n + t;
                        if (t == src || dep[at] < level) continue;
                        /* the node at depth `level` on the path to t, and its parent */
                        uint32_t x = t;
                        while (dep[(size_t)src * n + x] > level) x = (uint32_t)par[(size_t)src * n + x];
                        const uint32_t u = (uint32_t)par[(size_t)src * n + x];
                        const uint32_t slot = hop(&c, out, u, pp[(size_t)src * n + x], src * n + t, have[at] + 1u,
                                                  x != t);
                        if (!slot) { free(par); free(pp); free(dep); goto oom; }
                        have[at] = slot;
                    }
        }
        free(par); free(pp); free(dep);
    } else {
        sched_fail(err, errlen, "not a schedule around dead links: %s", sched_algo_name(out->algo));
        goto done;
    }
    sched_finish(out);
    rc = 0;
    goto done;
oom:
    sched_fail(err, errlen, "out of memory, or a schedule past 65535 slots");
done:
    if (rc != 0) sched_free(out);
    free(have);
    free(from);
    free(port);
    ft_close(&c);
    return rc;
}
