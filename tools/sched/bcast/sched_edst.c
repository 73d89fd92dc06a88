/* SPDX-License-Identifier: ISC */
/* bcast-edst: broadcast over arc-disjoint spanning arborescences (host; allocates).
 *
 * The root cuts its block into one part per tree (times `chunks`) and sends part i down tree
 * T_i. The trees share no directed link, so every part flows at once; chunk c of tree i crosses
 * a tree edge into depth h at slot c + h (c from 0), which takes max depth + chunks - 1 slots.
 *
 * On a line (a row, column or pillar as a shape of its own) the trees are built outright
 * (line_forest): a ring's two ways round, an array's one tree.
 *
 * Trees: 2d on a torus, d on a mesh (a corner has d in-links). On a torus 2d trees use every
 * in-link of every node but the root: a node's in-links go one to each tree. A solution is, at
 * every node v but the root, an assignment of trees to distinct in-links of v; the in-link of
 * tree i names v's parent in tree i. It is valid when no tree has a cycle, and its depth is the
 * deepest node of any tree.
 *
 * The search is simulated annealing over those assignments, with integer arithmetic and a fixed
 * seed (deterministic everywhere). A move gives tree a at node v another in-link; the tree that
 * held it takes a's old one. The cost counts, per tree and node, 10 for every level the node
 * lies deeper than the target depth H and 1000 for a node on or below a cycle. Only the
 * subtrees of v in the two trees change, so a move costs the size of those subtrees. Three
 * moves in four start at a node that costs something and walk up its tree a random number of
 * levels. A worse move is kept with probability e^(-increase/temperature); the temperature
 * cools, and is raised again every 200000 moves. The start: each node gives its trees
 * in-links that lead back toward their root child where it can. H starts at the lower bound
 * (sched_edst_depth_bound) and goes up by one whenever a budget of moves does not bring the
 * cost to 0.
 */
#include "bcast/sched_bcast.h"
#include "base/sched_base.h"
#include "sched_coll.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EDST_MAX_NODES 4096u
#define EDST_NONE 0xffu
#define EDST_INF UINT32_MAX
#define EDST_COST_LEVEL 10u
#define EDST_COST_CYCLE 1000u
/* Temperatures in cost units times 256: from 8 (a move one level worse is kept 29 times in
 * 100) down by 0.5 % every 1024 moves to 0.1 (never), and back to 8 every 200000 moves. */
#define EDST_TEMP_START 2048u
#define EDST_TEMP_END 26u
#define EDST_REHEAT 200000u

/* The dimension along which a line (one side of 2 or more, every other side 1: a row, column
 * or pillar as a shape of its own, sched_subshape_problem) runs, or -1 for a machine. */
static int line_dim(const sched_shape *sh)
{
    int dim = -1;
    for (unsigned d = 0; d < sh->dims; d++) {
        if (sh->side[d] == 1) continue;
        if (dim >= 0) return -1;
        dim = (int)d;
    }
    return dim;
}

uint32_t sched_edst_tree_count(const sched_shape *sh)
{
    if (line_dim(sh) >= 0) return sh->torus ? 2u : 1u;   /* a ring: both ways round; an array: one tree */
    return sh->torus ? 2u * sh->dims : sh->dims;
}

/* Breadth-first distances from `from` in the shape without node `cut` (UINT32_MAX: none). */
static void distances(const sched_shape *sh, const uint32_t *next, uint32_t from, uint32_t cut, uint32_t *dist,
                      uint32_t *queue)
{
    const uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    uint32_t head = 0, tail = 0;
    for (uint32_t v = 0; v < n; v++) dist[v] = EDST_INF;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        const uint32_t a = queue[head++];
        for (uint32_t k = 0; k < ports; k++) {
            const uint32_t b = next[a * ports + k];
            if (b == UINT32_MAX || b == cut || dist[b] != EDST_INF) continue;
            dist[b] = dist[a] + 1u;
            queue[tail++] = b;
        }
    }
}

static uint32_t *neighbour_table(const sched_shape *sh)
{
    const uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    uint32_t *next = malloc((size_t)n * ports * sizeof *next);
    if (!next) return 0;
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = 0; k < ports; k++) {
            const int64_t w = sched_neighbour(sh, v, (uint8_t)k);
            next[v * ports + k] = w < 0 ? UINT32_MAX : (uint32_t)w;
        }
    return next;
}

uint32_t sched_edst_depth_bound(const sched_shape *sh, uint32_t root)
{
    const int line = line_dim(sh);
    if (line >= 0)   /* a ring's two trees each go the whole way round; an array's is its BFS tree */
        return sh->torus ? sh->side[line] - 1u : sched_eccentricity(sh, root);
    if (!sh->torus) {
        /* a root neighbour takes at most one tree over its link from the root; the other tree
         * reaches it from a node at distance 2 (a mesh is bipartite): depth 3 at least */
        const uint32_t ecc = sched_eccentricity(sh, root);
        return ecc > 3u ? ecc : 3u;
    }
    /* every tree has exactly one root child (2d trees, 2d out-links of the root), and reaches
     * everything else from it without passing the root */
    const uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    uint32_t *next = neighbour_table(sh), *dist = malloc((size_t)n * sizeof *dist), *queue = malloc((size_t)n * sizeof *queue);
    uint32_t best = UINT32_MAX;
    if (next && dist && queue)
        for (uint32_t k = 0; k < ports; k++) {
            distances(sh, next, next[root * ports + k], root, dist, queue);
            uint32_t ecc = 0;
            for (uint32_t v = 0; v < n; v++) if (v != root && dist[v] > ecc) ecc = dist[v];
            if (ecc + 1u < best) best = ecc + 1u;
        }
    free(next);
    free(dist);
    free(queue);
    return best == UINT32_MAX ? sched_eccentricity(sh, root) + 1u : best;
}

/* ---------------------------------------------------------------- the search */

typedef struct {
    uint32_t nodes, ports, trees, root, target;
    const uint32_t *next;     /* nodes*ports, UINT32_MAX past a mesh edge */
    uint8_t *link;            /* nodes*trees: the in-link (direction) tree i uses at v */
    uint8_t *owner;           /* nodes*ports: the tree using in-link k of v, EDST_NONE */
    uint32_t *depth;          /* trees*nodes, EDST_INF on or below a cycle */
    uint32_t *bad, *bad_at;   /* cost-carrying (tree, node) pairs as tree*nodes + v, and where */
    uint32_t nbad;
    uint64_t cost;
    uint32_t rng;
    /* move scratch */
    uint32_t *visit;          /* nodes: stamp */
    uint32_t stamp;
    uint32_t *sub;            /* 2*nodes: the subtree of v in each tree of the move */
    uint32_t *new_depth;      /* 2*nodes: new depths by node (valid inside the subtree) */
    uint32_t nsub[2];
} edst_search;

static uint32_t rnd(edst_search *w)
{
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 17;
    w->rng ^= w->rng << 5;
    return w->rng;
}

/* The node an in-link of direction k of v comes from. */
static uint32_t tail_of(const edst_search *w, uint32_t v, uint32_t k) { return w->next[v * w->ports + (k ^ 1u)]; }

static uint32_t penalty(const edst_search *w, uint32_t depth)
{
    if (depth == EDST_INF) return EDST_COST_CYCLE;
    return depth > w->target ? EDST_COST_LEVEL * (depth - w->target) : 0u;
}

static void set_depth(edst_search *w, uint32_t tree, uint32_t v, uint32_t depth)
{
    const uint32_t key = tree * w->nodes + v;
    w->cost -= penalty(w, w->depth[key]);
    w->depth[key] = depth;
    const uint32_t p = penalty(w, depth);
    w->cost += p;
    if (p && w->bad_at[key] == UINT32_MAX) {
        w->bad_at[key] = w->nbad;
        w->bad[w->nbad++] = key;
    } else if (!p && w->bad_at[key] != UINT32_MAX) {
        const uint32_t at = w->bad_at[key], last = w->bad[--w->nbad];
        w->bad[at] = last;
        w->bad_at[last] = at;
        w->bad_at[key] = UINT32_MAX;
    }
}

/* Depths of every tree from scratch (at each target depth): walk up from every node whose depth
 * is unknown until a known one, or until the walk meets itself (a cycle: the walk is INF). */
static void all_depths(edst_search *w)
{
    const uint32_t n = w->nodes, unknown = EDST_INF - 1u;
    uint32_t *known = w->new_depth, *stack = w->sub;   /* scratch */
    w->cost = 0;
    w->nbad = 0;
    for (uint32_t i = 0; i < w->trees * n; i++) { w->depth[i] = 0; w->bad_at[i] = UINT32_MAX; }
    for (uint32_t i = 0; i < w->trees; i++) {
        for (uint32_t v = 0; v < n; v++) known[v] = unknown;
        known[w->root] = 0;
        for (uint32_t v = 0; v < n; v++) {
            uint32_t u = v, top = 0;
            w->stamp++;
            while (known[u] == unknown && w->visit[u] != w->stamp) {
                w->visit[u] = w->stamp;
                stack[top++] = u;
                u = tail_of(w, u, w->link[u * w->trees + i]);
            }
            uint32_t depth = known[u] == unknown ? EDST_INF : known[u];
            while (top) {
                depth = depth == EDST_INF ? EDST_INF : depth + 1u;
                known[stack[--top]] = depth;
            }
        }
        for (uint32_t v = 0; v < n; v++) set_depth(w, i, v, known[v]);
    }
}

/* The new depths of the subtree of v in tree i, with v's parent already changed: into slot 0
 * or 1 of w->sub / w->new_depth. Returns the cost change. */
static int64_t subtree_change(edst_search *w, uint32_t i, uint32_t v, unsigned slot)
{
    const uint32_t n = w->nodes, ports = w->ports;
    uint32_t *sub = w->sub + (size_t)slot * n, *nd = w->new_depth + (size_t)slot * n, cnt = 0;
    const uint32_t *depth = w->depth + (size_t)i * n;
    w->stamp++;
    sub[cnt++] = v;
    w->visit[v] = w->stamp;
    for (uint32_t h = 0; h < cnt; h++) {   /* breadth first: a node's parent comes before it */
        const uint32_t u = sub[h];
        for (uint32_t k = 0; k < ports; k++) {
            const uint32_t c = w->next[u * ports + k];
            if (c == UINT32_MAX || c == w->root || w->link[c * w->trees + i] != k || w->visit[c] == w->stamp) continue;
            w->visit[c] = w->stamp;
            sub[cnt++] = c;
        }
    }
    const uint32_t parent = tail_of(w, v, w->link[v * w->trees + i]);
    /* a parent inside the subtree closes a cycle */
    const uint32_t pd = w->visit[parent] == w->stamp ? EDST_INF : depth[parent];
    int64_t delta = 0;
    for (uint32_t h = 0; h < cnt; h++) {
        const uint32_t u = sub[h];
        if (h == 0) nd[u] = pd == EDST_INF ? EDST_INF : pd + 1u;
        else {
            const uint32_t up = nd[tail_of(w, u, w->link[u * w->trees + i])];
            nd[u] = up == EDST_INF ? EDST_INF : up + 1u;
        }
        delta += (int64_t)penalty(w, nd[u]) - (int64_t)penalty(w, depth[u]);
    }
    w->nsub[slot] = cnt;
    return delta;
}

static void subtree_commit(edst_search *w, uint32_t i, unsigned slot)
{
    const uint32_t *sub = w->sub + (size_t)slot * w->nodes, *nd = w->new_depth + (size_t)slot * w->nodes;
    for (uint32_t h = 0; h < w->nsub[slot]; h++) set_depth(w, i, sub[h], nd[sub[h]]);
}

/* Gives tree a the in-link k of v (the tree holding it takes a's old one). */
static uint32_t reassign(edst_search *w, uint32_t v, uint32_t a, uint32_t k)
{
    const uint32_t old = w->link[v * w->trees + a], b = w->owner[v * w->ports + k];
    w->link[v * w->trees + a] = (uint8_t)k;
    w->owner[v * w->ports + k] = (uint8_t)a;
    w->owner[v * w->ports + old] = (uint8_t)b;
    if (b != EDST_NONE) w->link[v * w->trees + b] = (uint8_t)old;
    return b;
}

/* exp(-x/256) in units of 2^24, for the acceptance of a worse move */
static uint32_t accept_table[4096];

static void fill_accept_table(void)
{
    accept_table[0] = 1u << 24;
    for (uint32_t x = 1; x < 4096; x++)   /* e^(-1/256) = 16711813 / 2^24 */
        accept_table[x] = (uint32_t)(((uint64_t)accept_table[x - 1] * 16711813u) >> 24);
}

/* One move: returns 1 if it was kept. temp is the temperature times 256, in cost units. */
static int try_move(edst_search *w, uint32_t temp)
{
    const uint32_t n = w->nodes;
    uint32_t v, a;
    if (w->nbad && (rnd(w) & 3u)) {
        const uint32_t key = w->bad[rnd(w) % w->nbad];
        a = key / n;
        v = key % n;
        for (uint32_t up = rnd(w) % (w->target + 2u); up > 0; up--) {
            const uint32_t p = tail_of(w, v, w->link[v * w->trees + a]);
            if (p == w->root) break;
            v = p;
        }
    } else {
        v = rnd(w) % n;
        a = rnd(w) % w->trees;
        if (v == w->root) return 0;
    }
    /* another in-link of v, one that exists */
    uint32_t k = rnd(w) % w->ports;
    for (uint32_t tries = 0; tries < w->ports; tries++, k = (k + 1u) % w->ports)
        if (tail_of(w, v, k) != UINT32_MAX && k != w->link[v * w->trees + a]) break;
    if (k == w->link[v * w->trees + a] || tail_of(w, v, k) == UINT32_MAX) return 0;
    const uint32_t old = w->link[v * w->trees + a];
    const uint32_t b = reassign(w, v, a, k);
    int64_t delta = subtree_change(w, a, v, 0);
    if (b != EDST_NONE) delta += subtree_change(w, b, v, 1);
    int keep = delta <= 0;
    if (!keep) {
        const uint64_t x = (uint64_t)delta * 65536u / temp;
        keep = x < 4096u && (rnd(w) & 0xffffffu) < accept_table[x];
    }
    if (!keep) {
        reassign(w, v, a, old);
        return 0;
    }
    subtree_commit(w, a, 0);
    if (b != EDST_NONE) subtree_commit(w, b, 1);
    return 1;
}

/* Whether the in-link k of v leads tree i back toward its reference node. */
static int forward(const edst_search *w, const uint32_t *ref, int torus, uint32_t i, uint32_t v, uint32_t k)
{
    const uint32_t t = tail_of(w, v, k);
    if (t == w->root) return !torus || k == i;   /* on a torus only tree i's own root link */
    return ref[(size_t)i * w->nodes + t] < ref[(size_t)i * w->nodes + v];
}

/* The start: at every node, trees in turn (the one with the fewest choices first) take a free
 * in-link whose tail is nearer their reference node (a torus tree's root child; on a mesh the
 * root), else any free in-link. Returns 0, or -1 if some node has too few in-links. */
static int start_assignment(edst_search *w, const uint32_t *ref, int torus)
{
    const uint32_t n = w->nodes, ports = w->ports, trees = w->trees;
    for (uint32_t v = 0; v < n; v++) {
        for (uint32_t k = 0; k < ports; k++) w->owner[v * ports + k] = EDST_NONE;
        for (uint32_t i = 0; i < trees; i++) w->link[v * trees + i] = 0;
        if (v == w->root) continue;
        uint8_t done[2 * SCHED_MAX_DIMS] = {0};
        for (uint32_t round = 0; round < trees; round++) {
            uint32_t pick = UINT32_MAX, pick_count = UINT32_MAX;
            for (uint32_t i = 0; i < trees; i++) {
                if (done[i]) continue;
                uint32_t forward_links = 0;
                for (uint32_t k = 0; k < ports; k++)
                    if (tail_of(w, v, k) != UINT32_MAX && w->owner[v * ports + k] == EDST_NONE &&
                        forward(w, ref, torus, i, v, k))
                        forward_links++;
                if (forward_links < pick_count) { pick = i; pick_count = forward_links; }
            }
            uint32_t choice = UINT32_MAX, best_rank = 0;
            for (uint32_t k = 0; k < ports; k++) {
                const uint32_t t = tail_of(w, v, k);
                if (t == UINT32_MAX || w->owner[v * ports + k] != EDST_NONE) continue;
                const uint32_t rank = (forward(w, ref, torus, pick, v, k) ? 1u << 20 : 0u) + (rnd(w) & 0xfffffu);
                if (choice == UINT32_MAX || rank > best_rank) { choice = k; best_rank = rank; }
            }
            if (choice == UINT32_MAX) return -1;
            w->link[v * trees + pick] = (uint8_t)choice;
            w->owner[v * ports + choice] = (uint8_t)pick;
            done[pick] = 1;
        }
    }
    return 0;
}

void sched_edst_forest_free(sched_edst_forest *f)
{
    free(f->parent);
    free(f->port);
    memset(f, 0, sizeof *f);
}

/* The trees of a line, built outright (the search needs 2 or 3 dimensions): on a ring of X the
 * only 2 arc-disjoint spanning trees, the two ways round (tree 0 from the root along +, tree 1
 * along -, each X - 1 deep: half the message each, every link carrying its half once); on a
 * linear array the one tree, both ways along it from the root (saf-bcast's: the chunks pipeline
 * it). */
static int line_forest(const sched_shape *sh, unsigned dim, uint32_t root, sched_edst_forest *forest, char *err,
                       size_t errlen)
{
    const uint32_t n = sched_nodes(sh), trees = sched_edst_tree_count(sh);
    forest->parent = malloc((size_t)trees * n * sizeof *forest->parent);
    forest->port = malloc((size_t)trees * n);
    if (!forest->parent || !forest->port) {
        sched_edst_forest_free(forest);
        return sched_fail(err, errlen, "out of memory");
    }
    /* a line's node ids are its ranks (every other side is 1) */
    forest->trees = trees;
    forest->nodes = n;
    forest->max_depth = 0;
    for (uint32_t i = 0; i < trees; i++)
        for (uint32_t v = 0; v < n; v++) {
            uint32_t parent = root, depth = 0;
            uint8_t port = 0;
            if (v != root && sh->torus) {   /* tree 0 reaches v going +, tree 1 going - */
                depth = i == 0 ? (v + n - root) % n : (root + n - v) % n;
                parent = i == 0 ? (v + n - 1u) % n : (v + 1u) % n;
                port = (uint8_t)(2u * dim + i);
            } else if (v != root) {         /* towards v from the root */
                depth = v > root ? v - root : root - v;
                parent = v > root ? v - 1u : v + 1u;
                port = (uint8_t)(2u * dim + (v > root ? 0u : 1u));
            }
            forest->parent[(size_t)i * n + v] = parent;
            forest->port[(size_t)i * n + v] = port;
            if (depth > forest->max_depth) forest->max_depth = depth;
        }
    return 0;
}

int sched_edst_forest_build(const sched_shape *sh, uint32_t root, sched_edst_forest *forest, char *err, size_t errlen)
{
    memset(forest, 0, sizeof *forest);
    const uint32_t n = sched_nodes(sh), ports = 2u * sh->dims, trees = sched_edst_tree_count(sh);
    if (n > EDST_MAX_NODES)
        return sched_fail(err, errlen, "bcast-edst is limited to %u nodes; this shape has %lu", EDST_MAX_NODES,
                          (unsigned long)n);
    if (root >= n) return sched_fail(err, errlen, "the root is not a node of the shape");
    const int line = line_dim(sh);
    if (line >= 0) return line_forest(sh, (unsigned)line, root, forest, err, errlen);
    edst_search w;
    memset(&w, 0, sizeof w);
    w.nodes = n;
    w.ports = ports;
    w.trees = trees;
    w.root = root;
    w.rng = 0x2545f491u;
    uint32_t *next = neighbour_table(sh), *ref = malloc((size_t)trees * n * sizeof *ref);
    uint32_t *queue = malloc((size_t)n * sizeof *queue);
    w.link = malloc((size_t)n * trees);
    w.owner = malloc((size_t)n * ports);
    w.depth = malloc((size_t)trees * n * sizeof *w.depth);
    w.bad = malloc((size_t)trees * n * sizeof *w.bad);
    w.bad_at = malloc((size_t)trees * n * sizeof *w.bad_at);
    w.visit = calloc(n, sizeof *w.visit);
    w.sub = malloc((size_t)2 * n * sizeof *w.sub);
    w.new_depth = malloc((size_t)2 * n * sizeof *w.new_depth);
    forest->parent = malloc((size_t)trees * n * sizeof *forest->parent);
    forest->port = malloc((size_t)trees * n);
    int rc = -1;
    if (!next || !ref || !queue || !w.link || !w.owner || !w.depth || !w.bad || !w.bad_at || !w.visit || !w.sub ||
        !w.new_depth || !forest->parent || !forest->port) {
        sched_fail(err, errlen, "out of memory");
        goto out;
    }
    w.next = next;
    /* reference distances: a torus tree goes out through its own port of the root and never
     * back through the root; mesh trees all start at the root */
    for (uint32_t i = 0; i < trees; i++) {
        if (sh->torus) distances(sh, next, next[root * ports + i], root, ref + (size_t)i * n, queue);
        else distances(sh, next, root, UINT32_MAX, ref + (size_t)i * n, queue);
        if (sh->torus) ref[(size_t)i * n + root] = EDST_INF;
    }
    fill_accept_table();
    if (start_assignment(&w, ref, sh->torus)) { sched_fail(err, errlen, "bcast-edst: a node has fewer in-links than trees"); goto out; }
    const uint32_t bound = sched_edst_depth_bound(sh, root);
    /* moves per target depth (a few tenths of a microsecond each): the even tori up to 32x32
     * (3.1 million moves there), the odd ones 3x3 and 7x7 and the cubes 3..8 reach the bound */
    const uint32_t budget = 2000000u + 1500u * n;
    uint32_t found = 0;
    for (w.target = bound; !found && w.target < bound + 4u * n; w.target++) {
        all_depths(&w);
        uint32_t temp = EDST_TEMP_START;
        for (uint32_t move = 0; move < budget && w.cost; move++) {
            try_move(&w, temp);
            forest->moves++;
            if ((move & 1023u) == 1023u && temp > EDST_TEMP_END) temp = temp * 995u / 1000u;
            if (move % EDST_REHEAT == EDST_REHEAT - 1u) temp = EDST_TEMP_START;
        }
        if (w.cost == 0) found = w.target;
    }
    if (!found) { sched_fail(err, errlen, "bcast-edst: no arc-disjoint spanning trees found"); goto out; }
    forest->trees = trees;
    forest->nodes = n;
    forest->max_depth = 0;
    for (uint32_t i = 0; i < trees; i++)
        for (uint32_t v = 0; v < n; v++) {
            forest->parent[(size_t)i * n + v] = v == root ? root : tail_of(&w, v, w.link[v * trees + i]);
            forest->port[(size_t)i * n + v] = v == root ? 0 : w.link[v * trees + i];
            if (w.depth[(size_t)i * n + v] > forest->max_depth) forest->max_depth = w.depth[(size_t)i * n + v];
        }
    rc = 0;
out:
    free(next);
    free(ref);
    free(queue);
    free(w.link);
    free(w.owner);
    free(w.depth);
    free(w.bad);
    free(w.bad_at);
    free(w.visit);
    free(w.sub);
    free(w.new_depth);
    if (rc) sched_edst_forest_free(forest);
    return rc;
}

int sched_gen_bcast_edst(sched_schedule *s, uint32_t chunks, char *err, size_t errlen)
{
    const sched_shape *sh = &s->shape;
    if (chunks < 1 || chunks > SCHED_EDST_MAX_CHUNKS)
        return sched_fail(err, errlen, "bcast-edst: chunks must be 1 .. %u", SCHED_EDST_MAX_CHUNKS);
    s->coll = SCHED_COLL_BCAST;
    s->model = SCHED_MODEL_SAF_ALLPORT;
    sched_edst_forest f;
    if (sched_edst_forest_build(sh, s->root, &f, err, errlen)) return -1;
    const uint32_t n = f.nodes;
    if (f.max_depth + chunks - 1u > 65535u) {
        sched_edst_forest_free(&f);
        return sched_fail(err, errlen, "bcast-edst would take %lu slots, more than the 65535 a table can hold; use "
                          "fewer chunks", (unsigned long)(f.max_depth + chunks - 1u));
    }
    s->parts = f.trees * chunks;
    uint32_t *depth = malloc((size_t)n * sizeof *depth);
    int rc = depth ? 0 : sched_fail(err, errlen, "out of memory");
    for (uint32_t i = 0; i < f.trees && rc == 0; i++) {
        const uint32_t *parent = f.parent + (size_t)i * n;
        for (uint32_t v = 0; v < n; v++) {   /* the forest is acyclic: walks end at the root */
            uint32_t h = 0;
            for (uint32_t u = v; u != s->root; u = parent[u]) h++;
            depth[v] = h;
        }
        for (uint32_t v = 0; v < n && rc == 0; v++) {
            if (v == s->root) continue;
            sched_msg m;
            memset(&m, 0, sizeof m);
            m.src = parent[v];
            m.dst = v;
            const uint8_t port = f.port[(size_t)i * n + v];
            m.start_dim = (uint8_t)(port >> 1);
            m.hops[port >> 1] = (int16_t)((port & 1u) ? -1 : 1);
            for (uint32_t c = 0; c < chunks && rc == 0; c++) {
                m.piece = i * chunks + c;
                m.step = (uint16_t)(c + depth[v]);
                if (sched_push(s, &m)) rc = sched_fail(err, errlen, "out of memory");
            }
        }
    }
    free(depth);
    sched_edst_forest_free(&f);
    if (rc == 0) sched_finish(s);
    return rc;
}
