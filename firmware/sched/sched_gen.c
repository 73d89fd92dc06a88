/* Host-side generators: the schedule container, the dispatcher, the store-and-forward
 * broadcast tree (Dimakopoulos Thm 3.1) and scatter/gather over balanced trees (the
 * corrected four-region construction on 2-D tori with sides >= 4, a balancing partitioner
 * elsewhere). Allocates with malloc: not for the core. */
#include "sched.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gen_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int sched_push(sched_schedule *s, const sched_msg *m)
{
    if (s->count == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2u : 256u;
        sched_msg *grown = realloc(s->msgs, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        s->msgs = grown;
        s->cap = cap;
    }
    s->msgs[s->count++] = *m;
    return 0;
}

void sched_free(sched_schedule *s)
{
    free(s->msgs);
    s->msgs = 0;
    s->count = s->cap = 0;
}

void sched_finish(sched_schedule *s)
{
    /* Counting sort by step: stable, keeps generation order within a step. */
    uint32_t maxstep = 0;
    for (uint32_t i = 0; i < s->count; i++) if (s->msgs[i].step > maxstep) maxstep = s->msgs[i].step;
    s->nsteps = maxstep;
    if (s->count < 2) return;
    uint32_t *start = calloc((size_t)maxstep + 2u, sizeof *start);
    sched_msg *sorted = malloc((size_t)s->count * sizeof *sorted);
    if (!start || !sorted) { free(start); free(sorted); return; } /* left unsorted: the checker says so */
    for (uint32_t i = 0; i < s->count; i++) start[s->msgs[i].step + 1u]++;
    for (uint32_t t = 1; t <= maxstep + 1u; t++) start[t] += start[t - 1];
    for (uint32_t i = 0; i < s->count; i++) sorted[start[s->msgs[i].step]++] = s->msgs[i];
    free(s->msgs);
    s->msgs = sorted;
    s->cap = s->count;
    free(start);
}

/* ---------------------------------------------------------------------------------------- */
/* Bounds. */

static uint32_t ceil_log(uint64_t base, uint64_t n)
{
    uint64_t reach = 1;
    uint32_t t = 0;
    while (reach < n) { reach *= base; t++; }
    return t;
}

static int is_pow2(uint32_t v) { return v >= 2 && (v & (v - 1u)) == 0; }

static int tw_applies(const sched_shape *sh)
{
    if (!sh->torus || sh->dims < 2) return 0;
    for (unsigned d = 1; d < sh->dims; d++) if (sh->side[d] != sh->side[0]) return 0;
    return 1;
}

uint32_t sched_expected_steps(const sched_shape *sh, sched_algo algo, uint32_t root)
{
    uint32_t n = sh->side[0], d = sh->dims, q = 2u * d + 1u;
    switch (algo) {
    case SCHED_ALGO_TSAY_WANG:
        if (n % 2) return d * ceil_log(q, n) + (d >= 3);
        return d * ceil_log(q, n - 1u) + (d >= 3 && n > 2) + (d + 1u) / 2u;
    case SCHED_ALGO_CANG_WU:
    case SCHED_ALGO_CANG_WU_DP:
        return sched_lb_oneport_bcast(sh);
    case SCHED_ALGO_SAF_BCAST:
        return sched_eccentricity(sh, root);
    case SCHED_ALGO_SCATTER:
    case SCHED_ALGO_GATHER:
        return sched_lb_scatter(sh, root);
    }
    return 0;
}

uint32_t sched_paper_steps(const sched_shape *sh, sched_algo algo, uint32_t root)
{
    uint32_t n = sh->side[0], d = sh->dims, q = 2u * d + 1u;
    switch (algo) {
    case SCHED_ALGO_TSAY_WANG:   /* abstract of the paper */
        if (n % 2) return d * ceil_log(q, n) + 1u;
        return d * ceil_log(q, n - 1u) + (d + 1u) / 2u + 1u;
    case SCHED_ALGO_CANG_WU:
    case SCHED_ALGO_CANG_WU_DP:
        return sched_lb_oneport_bcast(sh);
    case SCHED_ALGO_SAF_BCAST:
        return sched_eccentricity(sh, root);
    case SCHED_ALGO_SCATTER:
    case SCHED_ALGO_GATHER:
        if (sh->dims == 2 && sh->torus && sh->side[0] >= 4 && sh->side[1] >= 4)
            return (sched_nodes(sh) - 1u + 3u) / 4u;
        return 0;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Dispatcher. */

int sched_generate(sched_schedule *out, const sched_shape *shape, sched_algo algo, uint32_t root,
                   char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *problem = sched_shape_problem(shape);
    if (problem) return gen_error(err, errlen, "bad shape: %s", problem);
    if (shape->dims < 2) return gen_error(err, errlen, "bad shape: the generators need 2 or 3 dimensions");
    if (root >= sched_nodes(shape)) return gen_error(err, errlen, "the root is not a node of the shape");
    out->shape = *shape;
    out->algo = algo;
    out->root = root;
    switch (algo) {
    case SCHED_ALGO_TSAY_WANG:
        if (!tw_applies(shape))
            return gen_error(err, errlen, "tsay-wang needs a torus with all sides equal (n x n or n x n x n); "
                                          "use --torus and equal sides, or another algorithm");
        out->coll = SCHED_COLL_BCAST;
        out->model = SCHED_MODEL_WORMHOLE_ALLPORT;
        return sched_gen_tsay_wang(out, err, errlen);
    case SCHED_ALGO_CANG_WU:
    case SCHED_ALGO_CANG_WU_DP:
        if (shape->dims != 2 || shape->side[0] != shape->side[1] || !is_pow2(shape->side[0]))
            return gen_error(err, errlen, "%s needs a 2-D 2^k x 2^k shape (4x4, 8x8, 16x16, ...)",
                             sched_algo_name(algo));
        if (algo == SCHED_ALGO_CANG_WU_DP && shape->side[0] > 64)
            return gen_error(err, errlen, "cang-wu-dp is limited to 64x64 (its table grows as 16^k); use cang-wu");
        out->coll = SCHED_COLL_BCAST;
        out->model = SCHED_MODEL_WORMHOLE_ONEPORT;
        return sched_gen_cang_wu(out, algo == SCHED_ALGO_CANG_WU_DP, err, errlen);
    case SCHED_ALGO_SAF_BCAST:
        out->coll = SCHED_COLL_BCAST;
        out->model = SCHED_MODEL_SAF_ALLPORT;
        return sched_gen_saf_bcast(out, err, errlen);
    case SCHED_ALGO_SCATTER:
    case SCHED_ALGO_GATHER:
        out->coll = algo == SCHED_ALGO_SCATTER ? SCHED_COLL_SCATTER : SCHED_COLL_GATHER;
        out->model = SCHED_MODEL_SAF_ALLPORT;
        return sched_gen_scatter_gather(out, algo == SCHED_ALGO_GATHER, err, errlen);
    }
    return gen_error(err, errlen, "unknown algorithm %d", (int)algo);
}

/* ---------------------------------------------------------------------------------------- */
/* Store-and-forward broadcast: the product-network tree (thesis Thm 3.1). The parent of u
 * changes u's lowest differing coordinate i one step toward the root along the 1-D
 * shortest-path tree (ring: floor(n/2) nodes clockwise, the rest counter-clockwise). u
 * receives at slot dist(root, u), so the broadcast takes ecc(root) slots. */

int sched_gen_saf_bcast(sched_schedule *s, char *err, size_t errlen)
{
    const sched_shape *sh = &s->shape;
    uint32_t n = sched_nodes(sh);
    int32_t r[SCHED_MAX_DIMS], u[SCHED_MAX_DIMS];
    sched_node_coord(sh, s->root, r);
    for (uint32_t id = 0; id < n; id++) {
        if (id == s->root) continue;
        sched_node_coord(sh, id, u);
        unsigned i = 0;
        while (u[i] == r[i]) i++;
        int32_t side = sh->side[i], dir;
        if (sh->torus) {
            int32_t off = ((u[i] - r[i]) % side + side) % side;
            dir = off <= side / 2 ? 1 : -1;          /* the hop into u goes this way */
        } else {
            dir = u[i] > r[i] ? 1 : -1;
        }
        int32_t p[SCHED_MAX_DIMS];
        memcpy(p, u, sizeof p);
        p[i] = ((p[i] - dir) % side + side) % side;
        sched_msg m = {0};
        m.src = sched_node_id(sh, p);
        m.dst = id;
        m.piece = 0;
        m.step = (uint16_t)sched_distance(sh, s->root, id);
        m.start_dim = (uint8_t)i;
        m.hops[i] = (int16_t)dir;
        if (sched_push(s, &m)) return gen_error(err, errlen, "out of memory");
    }
    sched_finish(s);
    return 0;
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
    for (uint32_t v = 0; v < n; v++) { branch[v] = UINT32_MAX; depth[v] = UINT32_MAX; }
    branch[root] = root;
    depth[root] = 0;
    for (uint32_t v = 0; v < n; v++) {
        /* Walk up until a known node, then fill the walked chain. */
        uint32_t u = v, len = 0;
        while (depth[u] == UINT32_MAX) {
            if (parent[u] >= n || sched_distance(sh, u, parent[u]) != 1) return 0;
            u = parent[u];
            if (++len > n) return 0;                /* cycle */
        }
        uint32_t dtop = depth[u], btop = branch[u];
        /* Second pass: assign from the top down (depth known for u). */
        uint32_t w = v, k = len;
        while (w != u) {
            depth[w] = dtop + k;
            branch[w] = btop == root ? UINT32_MAX : btop;  /* fixed below for depth-1 nodes */
            k--;
            w = parent[w];
        }
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

/* Balancing partitioner for any shape: regions grown by BFS from the root's neighbours
 * (ties to the smaller region), then boundary nodes move from a region to an adjacent one
 * at least two smaller while the region they leave stays connected. Trees inside the
 * regions are BFS trees from their owners. */
static int balanced_tree(const sched_shape *sh, uint32_t root, uint32_t *parent)
{
    uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    uint32_t *region = malloc(n * sizeof *region);    /* index into owners, or UINT32_MAX */
    uint32_t *queue = malloc(n * sizeof *queue);
    uint32_t *mark = calloc(n, sizeof *mark);
    uint32_t owners[2 * SCHED_MAX_DIMS], size[2 * SCHED_MAX_DIMS], nown = 0, stamp = 0;
    int rc = -1;
    if (!region || !queue || !mark) goto out;
    for (uint32_t v = 0; v < n; v++) region[v] = UINT32_MAX;
    for (uint8_t p = 0; p < ports; p++) {
        int64_t w = sched_neighbour(sh, root, p);
        if (w < 0 || region[w] != UINT32_MAX) continue;
        region[w] = nown;
        size[nown] = 1;
        owners[nown++] = (uint32_t)w;
    }
    region[root] = UINT32_MAX - 1u;
    /* BFS growth, layer by layer, joining the smallest adjacent region. */
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < nown; i++) queue[tail++] = owners[i];
    while (head < tail) {
        uint32_t layer_end = tail;
        for (; head < layer_end; head++) {
            uint32_t v = queue[head];
            for (uint8_t p = 0; p < ports; p++) {
                int64_t w = sched_neighbour(sh, v, p);
                if (w >= 0 && region[w] == UINT32_MAX) { region[w] = UINT32_MAX - 2u; queue[tail++] = (uint32_t)w; }
            }
        }
        for (uint32_t i = layer_end; i < tail; i++) {
            uint32_t w = queue[i], best = UINT32_MAX;
            for (uint8_t p = 0; p < ports; p++) {
                int64_t u = sched_neighbour(sh, w, p);
                if (u < 0 || region[u] >= nown) continue;
                if (best == UINT32_MAX || size[region[u]] < size[best]) best = region[u];
            }
            region[w] = best;
            size[best]++;
        }
    }
    /* Local moves. */
    for (int changed = 1, rounds = 0; changed && rounds < 1000; rounds++) {
        changed = 0;
        for (uint32_t v = 0; v < n; v++) {
            uint32_t rv = region[v];
            if (v == root || v == owners[rv]) continue;
            uint32_t target = UINT32_MAX;
            for (uint8_t p = 0; p < ports; p++) {
                int64_t u = sched_neighbour(sh, v, p);
                if (u < 0 || (uint32_t)u == root || region[u] == rv) continue;
                if (size[region[u]] + 1u < size[rv] && (target == UINT32_MAX || size[region[u]] < size[target]))
                    target = region[u];
            }
            if (target == UINT32_MAX) continue;
            /* Would region rv stay connected without v? */
            stamp++;
            mark[v] = stamp;
            head = tail = 0;
            queue[tail++] = owners[rv];
            mark[owners[rv]] = stamp;
            while (head < tail) {
                uint32_t a = queue[head++];
                for (uint8_t p = 0; p < ports; p++) {
                    int64_t b = sched_neighbour(sh, a, p);
                    if (b >= 0 && region[b] == rv && mark[b] != stamp) { mark[b] = stamp; queue[tail++] = (uint32_t)b; }
                }
            }
            if (tail != size[rv] - 1u) continue;
            region[v] = target;
            size[rv]--;
            size[target]++;
            changed = 1;
        }
    }
    /* BFS trees inside regions. */
    parent[root] = root;
    stamp++;
    head = tail = 0;
    for (uint32_t i = 0; i < nown; i++) { parent[owners[i]] = root; mark[owners[i]] = stamp; queue[tail++] = owners[i]; }
    while (head < tail) {
        uint32_t a = queue[head++];
        for (uint8_t p = 0; p < ports; p++) {
            int64_t b = sched_neighbour(sh, a, p);
            if (b >= 0 && (uint32_t)b != root && region[b] == region[a] && mark[b] != stamp) {
                mark[b] = stamp;
                parent[b] = a;
                queue[tail++] = (uint32_t)b;
            }
        }
    }
    rc = (tail == n - 1u) ? 0 : -1;
out:
    free(region);
    free(queue);
    free(mark);
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
    if (!parent || !branch || !depth || !chain || !order) { gen_error(err, errlen, "out of memory"); goto out; }
    uint32_t T = sched_scatter_tree(sh, root, parent, 0);
    if (!T || !tree_branch_max(sh, root, parent, branch, depth)) {
        gen_error(err, errlen, "could not build a scatter tree for this shape");
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
            if (sched_push(s, &m)) { gen_error(err, errlen, "out of memory"); goto out; }
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
