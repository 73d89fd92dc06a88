/* SPDX-License-Identifier: ISC */
/* Host-side scatter and gather over balanced spanning trees (moved out of sched_gen.c): the
 * corrected four-region construction of the thesis on 2-D tori with sides >= 4, a balancing
 * partitioner elsewhere, and the cut-aware lower bound they are measured against. Allocates
 * with malloc: not for the core. */
#include "sched.h"
#include "bcast/sched_bcast.h"
#include "base/sched_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t sched_scatter_tree_bound(const sched_shape *sh, uint32_t root)
{
    /* Region r of a tree lies inside reach_r: the nodes its owner reaches without passing
     * the root or another owner. So T >= min{T : sum_r min(reach_r, T) >= N-1}, which is at
     * least ceil((N-1)/deg). */
    uint32_t n = sched_nodes(sh), ports = 2u * sh->dims, owners[2 * SCHED_MAX_DIMS], nown = 0;
    uint32_t reach[2 * SCHED_MAX_DIMS];
    uint32_t *mark = calloc(n, sizeof *mark), *queue = malloc(n * sizeof *queue);
    if (!mark || !queue) { free(mark); free(queue); return sched_lb_scatter(sh, root); }
    for (uint8_t p = 0; p < ports; p++) {
        int64_t w = sched_neighbour(sh, root, p);
        int dup = (uint32_t)w == root;   /* a side of 1 on a torus (a row or a column): its own neighbour */
        for (uint32_t i = 0; i < nown; i++) dup |= owners[i] == (uint32_t)w;
        if (w >= 0 && !dup) owners[nown++] = (uint32_t)w;
    }
    for (uint32_t r = 0; r < nown; r++) {
        uint32_t head = 0, tail = 0, stamp = r + 1u;
        mark[root] = stamp;
        for (uint32_t i = 0; i < nown; i++) if (i != r) mark[owners[i]] = stamp;
        mark[owners[r]] = stamp;
        queue[tail++] = owners[r];
        while (head < tail) {
            uint32_t a = queue[head++];
            for (uint8_t p = 0; p < ports; p++) {
                int64_t b = sched_neighbour(sh, a, p);
                if (b >= 0 && mark[b] != stamp) { mark[b] = stamp; queue[tail++] = (uint32_t)b; }
            }
        }
        reach[r] = tail;
    }
    free(mark);
    free(queue);
    uint32_t t = sched_lb_scatter(sh, root);
    for (;; t++) {
        uint64_t cover = 0;
        for (uint32_t r = 0; r < nown; r++) cover += reach[r] < t ? reach[r] : t;
        if (cover >= n - 1u) return t;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Scatter trees. */

/* The corrected four-region construction of the thesis (digest 2.2.3) on an m x n torus
 * plane (x: m columns, y: n rows), origin at the root. Returns the parent of [x,y] as plane
 * coordinates, or 0 when the point is not covered. */
typedef struct { int32_t x, y; } pt;

static int region_parent(int32_t m, int32_t n, int32_t x, int32_t y, pt *par)
{
    const int32_t Xp = m / 2, Xm = (m - 1) / 2, Yp = n / 2, Ym = (n - 1) / 2;
    const int nodd = n % 2, modd = m % 2;
    /* Region label: 'A'..'D'. */
    char reg = 0;
    if (x >= 1 && y >= 1) reg = 'A';
    else if (x >= 1 && y <= -1) reg = 'B';
    else if (x <= -1 && y <= -1) reg = 'C';
    else if (x <= -1 && y >= 1) reg = 'D';
    else if (x == 0 && y >= 1) {        /* y+ */
        if (nodd && modd) reg = (y % 2) ? 'A' : 'D';
        else if (!nodd && modd) reg = (y % 2) ? 'A' : 'D';
        else reg = (y == 1) ? 'A' : 'D';
    } else if (y == 0 && x >= 1) {      /* x+ */
        if (modd && nodd) reg = (x % 2) ? 'B' : 'A';
        else if (!nodd && modd) reg = 'B';
        else if (nodd && !modd) reg = (x % 2) ? 'B' : 'A';
        else reg = 'B';
    } else if (x == 0 && y <= -1) {     /* y- */
        if (nodd && modd) reg = (-y % 2) ? 'C' : 'B';
        else if (!nodd && modd) reg = (-y % 2) ? 'C' : 'B';
        else reg = 'C';
    } else if (y == 0 && x <= -1) {     /* x- */
        if (nodd && modd) reg = (-x % 2) ? 'D' : 'C';
        else if (!nodd && modd) reg = (x == -1) ? 'D' : 'C';
        else if (nodd && !modd) reg = (-x % 2) ? 'D' : 'C';
        else reg = (x == -1) ? 'D' : 'C';
    } else {
        return 0;
    }
    (void)Xp; (void)Ym;
    /* Moved points. */
    int movedA2D = (!modd) && x == 1 && y == Yp;          /* cases 3 and 4 */
    int movedD2C = (!nodd) && x == -Xm && y == 1;          /* cases 2 and 4 */
    if (movedA2D) { par->x = 0; par->y = Yp; return 1; }
    if (movedD2C) { par->x = -Xm; par->y = 0; return 1; }
    switch (reg) {
    case 'A':
        if (x == 0 && y == 1) { par->x = 0; par->y = 0; }
        else if (x >= 1 && y >= 2) { par->x = x; par->y = y - 1; }
        else if (x >= 1 && y == 1) { par->x = x - 1; par->y = 1; }
        else if (x == 0) { par->x = 1; par->y = y; }
        else { par->x = x; par->y = 1; }
        return 1;
    case 'B':
        if (x == 1 && y == 0) { par->x = 0; par->y = 0; }
        else if (x >= 2 && y <= -1) { par->x = x - 1; par->y = y; }
        else if (x == 1 && y <= -1) { par->x = 1; par->y = y + 1; }
        else if (y == 0) { par->x = x; par->y = -1; }
        else { par->x = 1; par->y = y; }
        return 1;
    case 'C':
        if (x == 0 && y == -1) { par->x = 0; par->y = 0; }
        else if (x <= -1 && y <= -2) { par->x = x; par->y = y + 1; }
        else if (x <= -1 && y == -1) { par->x = x + 1; par->y = -1; }
        else if (x == 0) { par->x = -1; par->y = y; }
        else { par->x = x; par->y = -1; }
        return 1;
    case 'D':
        if (x == -1 && y == 0) { par->x = 0; par->y = 0; }
        else if (x <= -2 && y >= 1) { par->x = x + 1; par->y = y; }
        else if (x == -1 && y >= 1) { par->x = -1; par->y = y - 1; }
        else if (x == 0) { par->x = -1; par->y = y; }
        else { par->x = x; par->y = 1; }
        return 1;
    }
    return 0;
}

/* Plane offset -> node id, with the root at the origin. */
static uint32_t plane_node(const sched_shape *sh, const int32_t root[SCHED_MAX_DIMS], int32_t x, int32_t y)
{
    int32_t c[SCHED_MAX_DIMS] = {0, 0, 0};
    c[0] = ((root[0] + x) % sh->side[0] + sh->side[0]) % sh->side[0];
    c[1] = ((root[1] + y) % sh->side[1] + sh->side[1]) % sh->side[1];
    return sched_node_id(sh, c);
}

/* Largest subtree under the root for a parent array; 0 if it is not a spanning tree of
 * neighbour edges. */
static uint32_t tree_branch_max(const sched_shape *sh, uint32_t root, const uint32_t *parent,
                                uint32_t *branch, uint32_t *depth)
{
    uint32_t n = sched_nodes(sh);
    for (uint32_t v = 0; v < n; v++) depth[v] = UINT32_MAX;
    depth[root] = 0;
    branch[root] = root;
    for (uint32_t v = 0; v < n; v++) {
        /* Walk up to a node of known depth (a cycle shows as a walk longer than n). */
        uint32_t u = v, len = 0;
        while (depth[u] == UINT32_MAX) {
            if (parent[u] >= n || sched_distance(sh, u, parent[u]) != 1) return 0;
            u = parent[u];
            if (++len > n) return 0;
        }
        /* Fill the walked chain from v down to the known node. */
        for (uint32_t w = v, k = len; w != u; w = parent[w], k--) depth[w] = depth[u] + k;
    }
    /* Branch = the depth-1 ancestor. */
    for (uint32_t v = 0; v < n; v++) {
        if (v == root) continue;
        uint32_t u = v;
        while (depth[u] > 1) u = parent[u];
        branch[v] = u;
    }
    uint32_t *size = calloc(n, sizeof *size);
    if (!size) return 0;
    uint32_t best = 0;
    for (uint32_t v = 0; v < n; v++)
        if (v != root && ++size[branch[v]] > best) best = size[branch[v]];
    free(size);
    return best;
}

static int four_region_tree(const sched_shape *sh, uint32_t root, uint32_t *parent)
{
    int32_t rc[SCHED_MAX_DIMS];
    sched_node_coord(sh, root, rc);
    int32_t m = sh->side[0], n = sh->side[1];
    int transpose = (m == 4 && n % 2 == 0 && n >= 6);
    int32_t mm = transpose ? n : m, nn = transpose ? m : n;
    if (m == 4 && n == 4) {
        /* Explicit balanced partition (digest 2.2.3), offsets (dx,dy) mod 4, listed from each
         * owner outward so each point's parent is the previous neighbour in its region. */
        static const int8_t part[15][4] = {
            /* dx,dy, parent dx,dy */
            {0, 1, 0, 0}, {0, 2, 0, 1}, {3, 1, 0, 1}, {3, 2, 3, 1},
            {1, 0, 0, 0}, {1, 3, 1, 0}, {1, 1, 1, 0}, {1, 2, 1, 1},
            {0, 3, 0, 0}, {3, 3, 0, 3}, {2, 3, 3, 3}, {2, 2, 2, 3},
            {3, 0, 0, 0}, {2, 0, 3, 0}, {2, 1, 2, 0}};
        for (unsigned i = 0; i < 15; i++)
            parent[plane_node(sh, rc, part[i][0], part[i][1])] = plane_node(sh, rc, part[i][2], part[i][3]);
        parent[root] = root;
        return 0;
    }
    const int32_t Xm = (mm - 1) / 2, Xp = mm / 2, Ym = (nn - 1) / 2, Yp = nn / 2;
    parent[root] = root;
    for (int32_t y = -Ym; y <= Yp; y++) {
        for (int32_t x = -Xm; x <= Xp; x++) {
            if (x == 0 && y == 0) continue;
            pt par;
            if (!region_parent(mm, nn, x, y, &par)) return -1;
            uint32_t v, pv;
            if (transpose) { v = plane_node(sh, rc, y, x); pv = plane_node(sh, rc, par.y, par.x); }
            else { v = plane_node(sh, rc, x, y); pv = plane_node(sh, rc, par.x, par.y); }
            parent[v] = pv;
        }
    }
    return 0;
}

/* Nodes of region r whose removal keeps the region connected (not articulation points of
 * the region's subgraph, not the owner): iterative Tarjan from the owner. */
static void movable_nodes(const sched_shape *sh, const uint32_t *region, uint32_t r, uint32_t owner,
                          uint32_t *disc, uint32_t *low, uint32_t *stack, uint8_t *iter, uint8_t *movable,
                          uint32_t *clock)
{
    uint32_t ports = 2u * sh->dims, top = 0;
    uint32_t base = *clock;
    disc[owner] = low[owner] = ++*clock;
    iter[owner] = 0;
    stack[top++] = owner;
    while (top) {
        uint32_t u = stack[top - 1];
        if (iter[u] < ports) {
            int64_t w = sched_neighbour(sh, u, iter[u]++);
            if (w < 0 || region[w] != r) continue;
            if (disc[w] <= base) {             /* not visited in this run */
                disc[w] = low[w] = ++*clock;
                iter[w] = 0;
                stack[top++] = (uint32_t)w;
                movable[w] = 1;
            } else if (disc[w] < low[u]) {
                low[u] = disc[w];
            }
        } else {
            top--;
            if (top) {
                uint32_t par = stack[top - 1];
                if (low[u] < low[par]) low[par] = low[u];
                if (low[u] >= disc[par]) movable[par] = 0;   /* par separates u's subtree */
            }
        }
    }
    movable[owner] = 0;
}

static uint32_t rng_step(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* Moves nodes along chains of regions (largest -> ... -> one at least two smaller) until
 * the largest region reaches `goal` or no chain exists. */
static void augment_regions(const sched_shape *sh, uint32_t root, uint32_t *region, uint32_t *size,
                            const uint32_t *owners, uint32_t nown, uint32_t goal)
{
    uint32_t n = sched_nodes(sh), ports = 2u * sh->dims, clock = 0;
    uint32_t rng = 0x2545F491u, plateau = 0, plateau_limit = n < 500u ? 4u * n : 2000u;
    uint32_t *disc = calloc(n, sizeof *disc), *low = calloc(n, sizeof *low), *stack = malloc(n * sizeof *stack);
    uint8_t *iter = malloc(n), *movable = malloc(n);
    if (!disc || !low || !stack || !iter || !movable) goto out;
    for (uint32_t round = 0; round < 4u * n; round++) {
        uint32_t big = 0;
        for (uint32_t r = 1; r < nown; r++) if (size[r] > size[big]) big = r;
        if (size[big] <= goal) break;
        memset(movable, 0, n);
        for (uint32_t r = 0; r < nown; r++)
            movable_nodes(sh, region, r, owners[r], disc, low, stack, iter, movable, &clock);
        /* Region graph: via[a][b] = a movable node of a next to b (first found, highest id). */
        uint32_t via[2 * SCHED_MAX_DIMS][2 * SCHED_MAX_DIMS];
        for (uint32_t a = 0; a < nown; a++) for (uint32_t b = 0; b < nown; b++) via[a][b] = UINT32_MAX;
        for (uint32_t v = 0; v < n; v++) {
            if (!movable[v] || v == root) continue;
            for (uint8_t p = 0; p < ports; p++) {
                int64_t w = sched_neighbour(sh, v, p);
                if (w < 0 || (uint32_t)w == root || region[w] == region[v] || region[w] >= nown) continue;
                via[region[v]][region[w]] = v;
            }
        }
        /* BFS over regions from every region of maximal size. */
        int moved = 0;
        for (uint32_t start = 0; start < nown && !moved; start++) {
            if (size[start] != size[big]) continue;
            uint32_t prev[2 * SCHED_MAX_DIMS], q[2 * SCHED_MAX_DIMS], qh = 0, qt = 0, end = UINT32_MAX;
            for (uint32_t r = 0; r < nown; r++) prev[r] = UINT32_MAX;
            prev[start] = start;
            q[qt++] = start;
            while (qh < qt && end == UINT32_MAX) {
                uint32_t a = q[qh++];
                for (uint32_t b = 0; b < nown; b++) {
                    if (prev[b] != UINT32_MAX || via[a][b] == UINT32_MAX) continue;
                    prev[b] = a;
                    if (size[b] + 2u <= size[start]) { end = b; break; }
                    q[qt++] = b;
                }
            }
            if (end == UINT32_MAX) continue;
            /* Apply the chain from its end backwards, so every move is checked against the
             * regions as they are. */
            uint32_t chain[2 * SCHED_MAX_DIMS], len = 0;
            for (uint32_t b = end; b != start; b = prev[b]) chain[len++] = b;
            int ok = 1;
            for (uint32_t k = 0; k < len && ok; k++) {
                uint32_t to = chain[k], from = k + 1 < len ? chain[k + 1] : start;
                uint32_t v = via[from][to];
                /* still removable from `from` and adjacent to `to`? */
                memset(movable, 0, n);
                movable_nodes(sh, region, from, owners[from], disc, low, stack, iter, movable, &clock);
                int adj = 0;
                for (uint8_t p = 0; p < ports; p++) {
                    int64_t w = sched_neighbour(sh, v, p);
                    if (w >= 0 && (uint32_t)w != root && region[w] == to) adj = 1;
                }
                if (!movable[v] || region[v] != from || !adj) { ok = 0; break; }
                region[v] = to;
                size[from]--;
                size[to]++;
            }
            moved = 1;   /* a partial chain still changed sizes; recompute */
            (void)ok;
        }
        if (!moved) {
            /* No chain: make a plateau move that does not raise the largest region (a
             * movable node to a neighbouring region at least two below the maximum), chosen
             * pseudo-randomly, and look for a chain again. */
            if (plateau++ >= plateau_limit) break;
            uint32_t cands = 0;
            for (int pass = 0; pass < 2; pass++) {
                uint32_t target = pass ? rng_step(&rng) % cands : 0, seen = 0;
                for (uint32_t v = 0; v < n; v++) {
                    if (!movable[v] || v == root) continue;
                    for (uint8_t p = 0; p < ports; p++) {
                        int64_t w = sched_neighbour(sh, v, p);
                        if (w < 0 || (uint32_t)w == root || region[w] == region[v] || region[w] >= nown) continue;
                        if (size[region[w]] + 2u > size[big]) continue;
                        if (pass == 0) { cands++; continue; }
                        if (seen++ != target) continue;
                        size[region[v]]--;
                        region[v] = region[w];
                        size[region[v]]++;
                        v = n;      /* done */
                        break;
                    }
                }
                if (cands == 0) break;
            }
            if (cands == 0) break;
        }
    }
out:
    free(disc); free(low); free(stack); free(iter); free(movable);
}

/* Balancing partitioner for any shape. Each try grows the regions from the root's
 * neighbours, the smallest region claiming next (try 0: a neighbour in BFS order; later
 * tries: a pseudo-random frontier node, fixed seeds); then nodes move along chains of
 * regions (augment_regions). The best try wins; trees inside regions are BFS trees. */
static uint32_t rng_next(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static void grow_regions(const sched_shape *sh, uint32_t root, uint32_t *region, uint32_t *size,
                         const uint32_t *owners, uint32_t nown, uint32_t *front, uint32_t *nfront,
                         uint32_t seed)
{
    uint32_t n = sched_nodes(sh), ports = 2u * sh->dims, fcap = n * ports, left = n - 1u - nown;
    uint32_t rng = seed * 2654435761u + 12345u;
    for (uint32_t v = 0; v < n; v++) region[v] = UINT32_MAX;
    region[root] = UINT32_MAX - 1u;
    for (uint32_t r = 0; r < nown; r++) { region[owners[r]] = r; size[r] = 1; nfront[r] = 0; }
    for (uint32_t r = 0; r < nown; r++)
        for (uint8_t p = 0; p < ports; p++) {
            int64_t w = sched_neighbour(sh, owners[r], p);
            if (w >= 0 && region[w] == UINT32_MAX) front[r * fcap + nfront[r]++] = (uint32_t)w;
        }
    uint32_t *head = calloc(nown, sizeof *head);
    if (!head) return;
    while (left) {
        /* smallest region with a free frontier node */
        uint32_t best = UINT32_MAX;
        for (uint32_t r = 0; r < nown; r++) {
            while (head[r] < nfront[r] && region[front[r * fcap + head[r]]] != UINT32_MAX) head[r]++;
            if (head[r] < nfront[r] && (best == UINT32_MAX || size[r] < size[best])) best = r;
        }
        if (best == UINT32_MAX) break;
        uint32_t *f = &front[best * fcap];
        uint32_t pick = head[best];
        if (seed) {
            /* a random free node among the next few in the frontier */
            uint32_t span = nfront[best] - head[best], window = (seed & 1) ? span : (span < 8 ? span : 8);
            uint32_t k = rng_next(&rng) % window;
            if (region[f[head[best] + k]] == UINT32_MAX) {
                pick = head[best] + k;
                uint32_t tmp = f[pick]; f[pick] = f[head[best]]; f[head[best]] = tmp;
                pick = head[best];
            }
        }
        uint32_t v = f[pick];
        head[best]++;
        region[v] = best;
        size[best]++;
        left--;
        for (uint8_t p = 0; p < ports; p++) {
            int64_t w = sched_neighbour(sh, v, p);
            if (w >= 0 && region[w] == UINT32_MAX && nfront[best] < fcap) f[nfront[best]++] = (uint32_t)w;
        }
    }
    free(head);
}

/* One region at a time: each owner in `order` claims up to `goal` free nodes by BFS; the
 * nodes left over join the smallest adjacent region. */
static void grow_sequential(const sched_shape *sh, uint32_t root, uint32_t *region, uint32_t *size,
                            const uint32_t *owners, uint32_t nown, const uint32_t *order, uint32_t goal,
                            uint32_t *queue)
{
    uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    for (uint32_t v = 0; v < n; v++) region[v] = UINT32_MAX;
    region[root] = UINT32_MAX - 1u;
    for (uint32_t r = 0; r < nown; r++) { region[owners[r]] = r; size[r] = 1; }
    for (uint32_t k = 0; k < nown; k++) {
        uint32_t r = order[k], head = 0, tail = 0;
        queue[tail++] = owners[r];
        while (head < tail && size[r] < goal) {
            uint32_t a = queue[head++];
            for (uint8_t p = 0; p < ports && size[r] < goal; p++) {
                int64_t b = sched_neighbour(sh, a, p);
                if (b >= 0 && region[b] == UINT32_MAX) { region[b] = r; size[r]++; queue[tail++] = (uint32_t)b; }
            }
        }
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t v = 0; v < n; v++) {
            if (region[v] != UINT32_MAX) continue;
            uint32_t best = UINT32_MAX;
            for (uint8_t p = 0; p < ports; p++) {
                int64_t u = sched_neighbour(sh, v, p);
                if (u >= 0 && region[u] < nown && (best == UINT32_MAX || size[region[u]] < size[best])) best = region[u];
            }
            if (best != UINT32_MAX) { region[v] = best; size[best]++; changed = 1; }
        }
    }
}

static int balanced_tree(const sched_shape *sh, uint32_t root, uint32_t *parent)
{
    uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    uint32_t owners[2 * SCHED_MAX_DIMS], size[2 * SCHED_MAX_DIMS], nown = 0;
    uint32_t nfront[2 * SCHED_MAX_DIMS];
    uint32_t *region = malloc(n * sizeof *region), *bestreg = malloc(n * sizeof *bestreg);
    uint32_t *queue = malloc(n * sizeof *queue), *mark = calloc(n, sizeof *mark);
    uint32_t *front = malloc((size_t)2 * SCHED_MAX_DIMS * n * ports * sizeof *front);
    int rc = -1;
    if (!region || !bestreg || !queue || !mark || !front) goto out;
    for (uint32_t v = 0; v < n; v++) region[v] = UINT32_MAX;
    for (uint8_t p = 0; p < ports; p++) {
        int64_t w = sched_neighbour(sh, root, p);
        /* a side of 1 on a torus (a row or a column as a shape) makes the root its own neighbour */
        if (w < 0 || (uint32_t)w == root || region[w] != UINT32_MAX) continue;
        region[w] = nown;
        owners[nown++] = (uint32_t)w;
    }
    const uint32_t goal = (n - 1u + nown - 1u) / nown;
    const uint32_t tries = n <= 400 ? 40u : n <= 2500 ? 8u : 2u;
    uint32_t bestmax = UINT32_MAX;
    /* Tries: the simultaneous growth with seeds 0, 1, ... (compact regions, short paths),
     * then the sequential growth in every rotation of the owners, both ways (reaches the
     * bound on thin meshes where the regions must be long). */
    for (uint32_t t = 0; t < tries + 2u * nown && bestmax > goal; t++) {
        if (t < tries) {
            grow_regions(sh, root, region, size, owners, nown, front, nfront, t);
        } else {
            uint32_t order[2 * SCHED_MAX_DIMS], u = t - tries;
            for (uint32_t k = 0; k < nown; k++) order[k] = u < nown ? (u + k) % nown : (u - nown + nown - k) % nown;
            grow_sequential(sh, root, region, size, owners, nown, order, goal, queue);
        }
        augment_regions(sh, root, region, size, owners, nown, goal);
        uint32_t mx = 0, all = 0;
        for (uint32_t r = 0; r < nown; r++) { all += size[r]; if (size[r] > mx) mx = size[r]; }
        if (all != n - 1u) continue;
        if (mx < bestmax) { bestmax = mx; memcpy(bestreg, region, n * sizeof *region); }
    }
    if (bestmax == UINT32_MAX) goto out;
    /* BFS trees inside regions. */
    parent[root] = root;
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < nown; i++) { parent[owners[i]] = root; mark[owners[i]] = 1; queue[tail++] = owners[i]; }
    while (head < tail) {
        uint32_t a = queue[head++];
        for (uint8_t p = 0; p < ports; p++) {
            int64_t b = sched_neighbour(sh, a, p);
            if (b >= 0 && (uint32_t)b != root && bestreg[b] == bestreg[a] && !mark[b]) {
                mark[b] = 1;
                parent[b] = a;
                queue[tail++] = (uint32_t)b;
            }
        }
    }
    rc = (tail == n - 1u) ? 0 : -1;
out:
    free(region);
    free(bestreg);
    free(queue);
    free(mark);
    free(front);
    return rc;
}

uint32_t sched_scatter_tree(const sched_shape *sh, uint32_t root, uint32_t *parent, int *used_construction)
{
    uint32_t n = sched_nodes(sh);
    uint32_t *branch = malloc(n * sizeof *branch), *depth = malloc(n * sizeof *depth);
    uint32_t best = 0;
    if (!branch || !depth) goto out;
    if (used_construction) *used_construction = 0;
    if (sh->dims == 2 && sh->torus && sh->side[0] >= 4 && sh->side[1] >= 4) {
        if (four_region_tree(sh, root, parent) == 0) {
            best = tree_branch_max(sh, root, parent, branch, depth);
            if (best && used_construction) *used_construction = 1;
        }
    }
    if (!best && balanced_tree(sh, root, parent) == 0) best = tree_branch_max(sh, root, parent, branch, depth);
out:
    free(branch);
    free(depth);
    return best;
}

/* Furthest-first scatter over a tree (thesis Thm 3.6/3.7): in each branch the nodes are
 * ranked by decreasing depth (ties by id); the item for u (rank k, depth h) crosses into
 * depth j at slot k + j - 1. Gather is the time reversal: slot T + 2 - k - j. */
typedef struct { uint32_t node, depth, branch; } ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->branch != y->branch) return x->branch < y->branch ? -1 : 1;
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
    return x->node < y->node ? -1 : (x->node > y->node);
}

int sched_gen_scatter_gather(sched_schedule *s, int gather, char *err, size_t errlen)
{
    const sched_shape *sh = &s->shape;
    uint32_t n = sched_nodes(sh), root = s->root;
    uint32_t *parent = malloc(n * sizeof *parent);
    uint32_t *branch = malloc(n * sizeof *branch), *depth = malloc(n * sizeof *depth);
    uint32_t *chain = malloc(n * sizeof *chain);
    ranked *order = malloc(n * sizeof *order);
    int rc = -1;
    if (!parent || !branch || !depth || !chain || !order) { sched_fail(err, errlen, "out of memory"); goto out; }
    uint32_t T = sched_scatter_tree(sh, root, parent, 0);
    if (!T || !tree_branch_max(sh, root, parent, branch, depth)) {
        sched_fail(err, errlen, "could not build a scatter tree for this shape");
        goto out;
    }
    if (T > 65535u) {
        sched_fail(err, errlen, "%s would take %lu slots, more than the 65535 a table can hold; use a smaller shape",
                  gather ? "gather" : "scatter", (unsigned long)T);
        goto out;
    }
    uint32_t cnt = 0;
    for (uint32_t v = 0; v < n; v++)
        if (v != root) { order[cnt].node = v; order[cnt].depth = depth[v]; order[cnt].branch = branch[v]; cnt++; }
    qsort(order, cnt, sizeof *order, cmp_ranked);
    uint32_t rank = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        rank = (i > 0 && order[i].branch == order[i - 1].branch) ? rank + 1u : 1u;
        uint32_t u = order[i].node, h = order[i].depth;
        /* chain[j] = ancestor at depth j */
        for (uint32_t w = u, j = h;; j--) { chain[j] = w; if (j == 0) break; w = parent[w]; }
        for (uint32_t j = 1; j <= h; j++) {
            sched_msg m = {0};
            uint32_t a = chain[j - 1], b = chain[j];
            m.piece = u;
            if (gather) { m.src = b; m.dst = a; m.step = (uint16_t)(T + 2u - rank - j); }
            else { m.src = a; m.dst = b; m.step = (uint16_t)(rank + j - 1u); }
            /* The one hop from src to dst. */
            int32_t cs[SCHED_MAX_DIMS], cd[SCHED_MAX_DIMS];
            sched_node_coord(sh, m.src, cs);
            sched_node_coord(sh, m.dst, cd);
            for (uint8_t d = 0; d < sh->dims; d++) {
                if (cs[d] == cd[d]) continue;
                int32_t side = sh->side[d];
                m.start_dim = d;
                m.hops[d] = (int16_t)(sh->torus ? (((cs[d] + 1) % side == cd[d]) ? 1 : -1) : (cd[d] > cs[d] ? 1 : -1));
            }
            if (sched_push(s, &m)) { sched_fail(err, errlen, "out of memory"); goto out; }
        }
    }
    sched_finish(s);
    rc = 0;
out:
    free(parent);
    free(branch);
    free(depth);
    free(chain);
    free(order);
    return rc;
}
