/* SPDX-License-Identifier: ISC */
/* mnb-opt: multinode broadcast (allgather) on a torus by one spanning tree translated to every
 * node (host; allocates).
 *
 * The tree T is rooted at node 0 and every edge has a slot: an edge's slot is later than its
 * parent edge's, and a slot labels at most one edge per direction (port). Node v broadcasts its
 * piece along T + v: in slot t, for the slot-t edge leaving tree node a on port k, node v sends
 * piece v - a on port k. Every directed link then carries exactly one piece per slot of T (the
 * schedule is contention-free in the store-and-forward all-port model), and a node forwards
 * piece v - a only after it got it (the parent edge's slot is earlier). The time is the number
 * of slots of T, at least ceil((N-1)/2d): T grows by at most 2d nodes per slot.
 *
 * The search grows T slot by slot. In each slot every direction takes one new node that a tree
 * node reaches through it: directions with the fewest candidates choose first, and each takes
 * the candidate nearest the root, then the one the fewest directions can reach (odd seeds), or
 * the other way round (even seeds); ties by a seeded xorshift. Restarts with seeds 1, 2, ...
 * stop at the lower bound; the fewest slots found wins. Every 2-D torus with sides 2..16, every
 * 3-D torus with sides 2..8 and the cubes up to 16x16x16 reach the bound (README.md).
 */
#include "exchange/sched_exchange.h"
#include "base/sched_base.h"
#include "sched_coll.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MNB_OPT_MAX_NODES 4096u   /* N(N-1) messages: 16.8 million at this size */
#define MNB_OPT_SEEDS 64u

static uint32_t xorshift(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

uint32_t sched_mnb_opt_lower_bound(const sched_shape *sh)
{
    const uint32_t n = sched_nodes(sh), links = 2u * sh->dims;
    uint32_t diameter = 0;
    for (unsigned d = 0; d < sh->dims; d++) diameter += sh->side[d] / 2u;
    const uint32_t by_links = (n - 1u + links - 1u) / links;
    return by_links > diameter ? by_links : diameter;
}

void sched_mnb_tree_free(sched_mnb_tree *t)
{
    free(t->tail);
    free(t->dir);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* Working state of one greedy run. */
typedef struct {
    uint32_t nodes, ports;
    const uint32_t *next;     /* nodes*ports: neighbour through a port */
    const uint32_t *dist;     /* distance from node 0 */
    uint32_t *reached;        /* slot a node joined T at; UINT32_MAX: not yet */
    uint32_t *frontier;       /* tree nodes that may still have a free neighbour */
    uint32_t *cand_tail, *cand_head;   /* ports * nodes: candidates per direction */
    uint32_t *ncand;          /* per direction */
    uint32_t *reach_count;    /* per node: directions that reach it this slot */
    uint32_t *stamp;          /* per node: slot + 1 when reach_count is valid / when taken */
    uint32_t *taken;
} mnb_search;

/* One greedy run with this seed: fills tail/dir/slot of t (edges sorted by slot). Returns the
 * slots used. */
static uint32_t grow_tree(mnb_search *w, uint32_t seed, sched_mnb_tree *t)
{
    const uint32_t n = w->nodes, ports = w->ports;
    uint32_t rng = seed * 2654435761u + 0x9e3779b9u, nfront = 1, edges = 0, slot = 0;
    for (uint32_t v = 0; v < n; v++) { w->reached[v] = UINT32_MAX; w->stamp[v] = 0; w->taken[v] = 0; }
    if (!rng) rng = 1;
    w->reached[0] = 0;
    w->frontier[0] = 0;
    while (edges < n - 1u) {
        slot++;
        /* candidates of every direction, from the tree nodes of earlier slots */
        for (uint32_t k = 0; k < ports; k++) w->ncand[k] = 0;
        uint32_t kept = 0;
        for (uint32_t f = 0; f < nfront; f++) {
            const uint32_t a = w->frontier[f];
            int open = 0;
            for (uint32_t k = 0; k < ports; k++) {
                const uint32_t b = w->next[a * ports + k];
                if (w->reached[b] != UINT32_MAX) continue;
                open = 1;
                w->cand_tail[k * n + w->ncand[k]] = a;
                w->cand_head[k * n + w->ncand[k]++] = b;
                if (w->stamp[b] != slot) { w->stamp[b] = slot; w->reach_count[b] = 0; }
                w->reach_count[b]++;
            }
            if (open) w->frontier[kept++] = a;
        }
        nfront = kept;
        /* directions with the fewest candidates choose first */
        uint32_t order[2 * SCHED_MAX_DIMS], key[2 * SCHED_MAX_DIMS];
        for (uint32_t k = 0; k < ports; k++) { order[k] = k; key[k] = xorshift(&rng) & 0xffffu; }
        for (uint32_t i = 1; i < ports; i++)
            for (uint32_t j = i; j > 0; j--) {
                const uint32_t x = order[j - 1], y = order[j];
                if (w->ncand[x] < w->ncand[y] || (w->ncand[x] == w->ncand[y] && key[x] <= key[y])) break;
                order[j - 1] = y;
                order[j] = x;
            }
        const uint32_t first_new = edges;
        for (uint32_t i = 0; i < ports; i++) {
            const uint32_t k = order[i];
            uint32_t best = UINT32_MAX, best_dist = 0, best_count = 0, best_tie = 0;
            for (uint32_t c = 0; c < w->ncand[k]; c++) {
                const uint32_t b = w->cand_head[k * n + c];
                if (w->taken[b] == slot) continue;
                const uint32_t tie = xorshift(&rng);
                /* odd seeds: nearest first, then fewest directions; even seeds the other way */
                const uint64_t near = ((uint64_t)w->dist[b] << 32) | w->reach_count[b];
                const uint64_t few = ((uint64_t)w->reach_count[b] << 32) | w->dist[b];
                const uint64_t key = (seed & 1u) ? near : few;
                const uint64_t best_key = (seed & 1u) ? (((uint64_t)best_dist << 32) | best_count)
                                                      : (((uint64_t)best_count << 32) | best_dist);
                if (best == UINT32_MAX || key < best_key || (key == best_key && tie < best_tie)) {
                    best = c;
                    best_dist = w->dist[b];
                    best_count = w->reach_count[b];
                    best_tie = tie;
                }
            }
            if (best == UINT32_MAX) continue;
            const uint32_t b = w->cand_head[k * n + best];
            w->taken[b] = slot;
            t->tail[edges] = w->cand_tail[k * n + best];
            t->dir[edges] = (uint8_t)k;
            t->slot[edges] = slot;
            edges++;
        }
        /* the new nodes join T now: they can send from the next slot on */
        for (uint32_t e = first_new; e < edges; e++) {
            const uint32_t b = w->next[t->tail[e] * ports + t->dir[e]];
            w->reached[b] = slot;
            w->frontier[nfront++] = b;
        }
        if (edges == first_new) break;   /* cannot happen on a connected torus */
    }
    t->edges = edges;
    t->slots = slot;
    return edges == n - 1u ? slot : UINT32_MAX;
}

int sched_mnb_opt_tree(const sched_shape *sh, sched_mnb_tree *tree, char *err, size_t errlen)
{
    memset(tree, 0, sizeof *tree);
    if (!sh->torus)
        return sched_fail(err, errlen, "mnb-opt needs a torus (it translates one tree to every node); on a mesh "
                                      "use mnb-diag or mnb-split");
    const uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    if (n > MNB_OPT_MAX_NODES)
        return sched_fail(err, errlen, "mnb-opt is limited to %u nodes (it has N(N-1) messages); this shape has %lu",
                         MNB_OPT_MAX_NODES, (unsigned long)n);
    mnb_search w;
    memset(&w, 0, sizeof w);
    w.nodes = n;
    w.ports = ports;
    uint32_t *next = malloc((size_t)n * ports * sizeof *next), *dist = malloc((size_t)n * sizeof *dist);
    w.reached = malloc((size_t)n * sizeof *w.reached);
    w.frontier = malloc((size_t)n * sizeof *w.frontier);
    w.cand_tail = malloc((size_t)n * ports * sizeof *w.cand_tail);
    w.cand_head = malloc((size_t)n * ports * sizeof *w.cand_head);
    w.ncand = malloc(ports * sizeof *w.ncand);
    w.reach_count = malloc((size_t)n * sizeof *w.reach_count);
    w.stamp = malloc((size_t)n * sizeof *w.stamp);
    w.taken = malloc((size_t)n * sizeof *w.taken);
    sched_mnb_tree run = {0, 0, malloc((size_t)n * sizeof(uint32_t)), malloc(n), malloc((size_t)n * sizeof(uint32_t))};
    tree->tail = malloc((size_t)n * sizeof *tree->tail);
    tree->dir = malloc(n);
    tree->slot = malloc((size_t)n * sizeof *tree->slot);
    int rc = -1;
    if (!next || !dist || !w.reached || !w.frontier || !w.cand_tail || !w.cand_head || !w.ncand || !w.reach_count ||
        !w.stamp || !w.taken || !run.tail || !run.dir || !run.slot || !tree->tail || !tree->dir || !tree->slot) {
        sched_fail(err, errlen, "out of memory");
        goto out;
    }
    for (uint32_t v = 0; v < n; v++) {
        dist[v] = sched_distance(sh, 0, v);
        for (uint32_t k = 0; k < ports; k++) next[v * ports + k] = (uint32_t)sched_neighbour(sh, v, (uint8_t)k);
    }
    w.next = next;
    w.dist = dist;
    const uint32_t bound = sched_mnb_opt_lower_bound(sh);
    tree->slots = UINT32_MAX;
    for (uint32_t seed = 1; seed <= MNB_OPT_SEEDS && tree->slots > bound; seed++) {
        const uint32_t slots = grow_tree(&w, seed, &run);
        if (slots >= tree->slots) continue;
        tree->slots = slots;
        tree->edges = run.edges;
        memcpy(tree->tail, run.tail, (size_t)run.edges * sizeof *run.tail);
        memcpy(tree->dir, run.dir, run.edges);
        memcpy(tree->slot, run.slot, (size_t)run.edges * sizeof *run.slot);
    }
    if (tree->slots == UINT32_MAX) sched_fail(err, errlen, "mnb-opt: no spanning tree found");
    else rc = 0;
out:
    free(next);
    free(dist);
    free(w.reached);
    free(w.frontier);
    free(w.cand_tail);
    free(w.cand_head);
    free(w.ncand);
    free(w.reach_count);
    free(w.stamp);
    free(w.taken);
    sched_mnb_tree_free(&run);
    if (rc) sched_mnb_tree_free(tree);
    return rc;
}

int sched_gen_mnb_opt(sched_schedule *s, char *err, size_t errlen)
{
    const sched_shape *sh = &s->shape;
    s->coll = SCHED_COLL_ALLGATHER;
    s->model = SCHED_MODEL_SAF_ALLPORT;
    s->root = 0;
    sched_mnb_tree t;
    if (sched_mnb_opt_tree(sh, &t, err, errlen)) return -1;
    const uint32_t n = sched_nodes(sh);
    int32_t *coord = malloc((size_t)n * SCHED_MAX_DIMS * sizeof *coord);
    if (!coord) { sched_mnb_tree_free(&t); return sched_fail(err, errlen, "out of memory"); }
    for (uint32_t v = 0; v < n; v++) sched_node_coord(sh, v, coord + (size_t)v * SCHED_MAX_DIMS);
    int rc = 0;
    /* edges are sorted by slot, so the messages come out sorted by step */
    for (uint32_t e = 0; e < t.edges && rc == 0; e++) {
        const int32_t *a = coord + (size_t)t.tail[e] * SCHED_MAX_DIMS;
        const uint8_t dim = (uint8_t)(t.dir[e] >> 1);
        for (uint32_t v = 0; v < n; v++) {
            const int32_t *c = coord + (size_t)v * SCHED_MAX_DIMS;
            int32_t src[SCHED_MAX_DIMS] = {0, 0, 0};
            for (unsigned d = 0; d < sh->dims; d++) src[d] = (c[d] - a[d] + sh->side[d]) % sh->side[d];
            sched_msg m;
            memset(&m, 0, sizeof m);
            m.src = v;
            m.dst = (uint32_t)sched_neighbour(sh, v, t.dir[e]);
            m.piece = sched_node_id(sh, src);   /* the source of the piece: v - tail */
            m.step = (uint16_t)t.slot[e];
            m.start_dim = dim;
            m.hops[dim] = (int16_t)((t.dir[e] & 1u) ? -1 : 1);
            if (sched_push(s, &m)) { rc = sched_fail(err, errlen, "out of memory"); break; }
        }
    }
    free(coord);
    sched_mnb_tree_free(&t);
    if (rc == 0) sched_finish(s);
    return rc;
}
