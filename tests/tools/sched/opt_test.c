/* SPDX-License-Identifier: ISC */
/* Test driver for mnb-opt, bcast-edst and the baselines (bcast-binomial, allgather-ring,
 * alltoall-pairwise): generates on a spread of shapes, proves every schedule with the checker,
 * checks the trees on their own (not through the generators' code), asserts the slot counts
 * where they are known, rebuilds schedules from their tables, and breaks schedules on purpose.
 * Usage: opt_test mnb | edst | base | neg | tables
 * Prints one "PASS name" / "FAIL name: why" line per check (and "table ..." lines with the
 * figures README.md quotes); exits 1 if any check failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "sched_coll.h"
#include "base/sched_base.h"
#include "baseline/sched_baseline.h"
#include "bcast/sched_bcast.h"
#include "check/sched_check.h"
#include "exchange/sched_exchange.h"
#include "gen/sched_gen.h"
#include "sched_table.h"

static int failures;

static void result(int ok, const char *name, const char *why)
{
    if (ok) printf("PASS %s\n", name);
    else { printf("FAIL %s: %s\n", name, why); failures++; }
    fflush(stdout);
}

static void shape_name(const sched_shape *s, char *buf, size_t len)
{
    if (s->dims == 3) snprintf(buf, len, "%ux%ux%u-%s", s->side[0], s->side[1], s->side[2], s->torus ? "torus" : "mesh");
    else snprintf(buf, len, "%ux%u-%s", s->side[0], s->side[1], s->torus ? "torus" : "mesh");
}

static int check(const sched_schedule *s, sched_check_result *r)
{
    size_t bytes = sched_check_workspace_bytes(s);
    void *ws = malloc(bytes);
    if (!ws) { snprintf(r->error, sizeof r->error, "out of memory"); r->ok = 0; return 0; }
    int ok = sched_check(s, ws, bytes, r);
    free(ws);
    return ok;
}

static uint32_t diameter(const sched_shape *sh)
{
    uint32_t d = 0;
    for (unsigned k = 0; k < sh->dims; k++) d += sh->torus ? sh->side[k] / 2u : sh->side[k] - 1u;
    return d;
}

static uint32_t ceil_log2(uint32_t n)
{
    uint32_t t = 0;
    while ((1ull << t) < n) t++;
    return t;
}

/* ---------------------------------------------------------------- mnb-opt */

/* The tree on its own: spanning (every node once, root 0 never), each edge leaving a node of an
 * earlier slot, at most one edge per direction and slot, slots sorted. Returns 0 or why. */
static const char *tree_problem(const sched_shape *sh, const sched_mnb_tree *t)
{
    const uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    if (t->edges != n - 1u) return "not N-1 edges";
    uint32_t *joined = malloc(n * sizeof *joined), *used = calloc((size_t)(t->slots + 1u) * ports, sizeof *used);
    const char *why = 0;
    if (!joined || !used) { free(joined); free(used); return "out of memory"; }
    for (uint32_t v = 0; v < n; v++) joined[v] = UINT32_MAX;
    joined[0] = 0;
    for (uint32_t e = 0; e < t->edges && !why; e++) {
        if (t->slot[e] < 1 || t->slot[e] > t->slots || (e && t->slot[e] < t->slot[e - 1])) why = "slots out of order";
        else if (t->dir[e] >= ports || used[t->slot[e] * ports + t->dir[e]]++) why = "a direction used twice in a slot";
        else if (t->tail[e] >= n || joined[t->tail[e]] >= t->slot[e]) why = "an edge leaves a node that joins later";
        else {
            int64_t b = sched_neighbour(sh, t->tail[e], t->dir[e]);
            if (b < 0 || joined[b] != UINT32_MAX) why = "an edge reaches a node twice";
            else joined[b] = t->slot[e];
        }
    }
    free(joined);
    free(used);
    return why;
}

static void test_mnb(void)
{
    /* p x p tori: the [BeT89] optimum N/4 (p even) or (N-1)/4 (p odd), checked schedules */
    for (int p = 3; p <= 16; p++) {
        sched_shape sh = sched_shape_make(2, p, p, 1, 1);
        const uint32_t n = sched_nodes(&sh), want = p % 2 ? (n - 1u) / 4u : n / 4u;
        char name[120], why[300] = "", err[256] = "";
        sched_schedule s;
        snprintf(name, sizeof name, "mnb-opt %dx%d torus: %u slots, lower bound ceil((N-1)/4) = %u ([BeT89] optimum), "
                 "checked", p, p, want, sched_mnb_opt_lower_bound(&sh));
        if (sched_generate(&s, &sh, SCHED_ALGO_MNB_OPT, 0, err, sizeof err)) { result(0, name, err); continue; }
        sched_check_result r;
        int ok = check(&s, &r) && r.steps == want && r.max_link_load == want && r.messages == n * (n - 1u);
        if (!ok) snprintf(why, sizeof why, "%s; %u slots, max link load %u", r.ok ? "wrong count" : r.error, r.steps,
                          r.max_link_load);
        result(ok, name, why);
        printf("table mnb-opt %dx%d torus slots %u bound %u\n", p, p, r.steps, sched_mnb_opt_lower_bound(&sh));
        sched_free(&s);
    }
    /* other shapes, checked: unequal 2-D sides, a side of 2, 3-D */
    static const int shapes[][4] = {{2, 3, 5, 1}, {2, 4, 6, 1}, {2, 4, 8, 1}, {2, 5, 7, 1}, {2, 6, 10, 1}, {2, 12, 7, 1},
                                    {2, 2, 8, 1}, {2, 3, 16, 1}, {3, 3, 3, 3}, {3, 4, 4, 4}, {3, 5, 5, 5}, {3, 6, 6, 6},
                                    {3, 2, 6, 6}, {3, 3, 4, 5}, {3, 2, 2, 2}, {3, 4, 4, 8}};
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        sched_shape sh = sched_shape_make(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], 1);
        const uint32_t n = sched_nodes(&sh), want = sched_mnb_opt_lower_bound(&sh);
        char sn[40], name[160], why[300] = "", err[256] = "";
        shape_name(&sh, sn, sizeof sn);
        snprintf(name, sizeof name, "mnb-opt %s: %u slots = lower bound max(ceil((N-1)/2d), diameter), checked", sn,
                 want);
        sched_schedule s;
        if (sched_generate(&s, &sh, SCHED_ALGO_MNB_OPT, 0, err, sizeof err)) { result(0, name, err); continue; }
        sched_check_result r;
        int ok = check(&s, &r) && r.steps == want && r.messages == n * (n - 1u);
        if (!ok) snprintf(why, sizeof why, "%s; %u slots", r.ok ? "wrong count" : r.error, r.steps);
        result(ok, name, why);
        printf("table mnb-opt %s slots %u bound %u\n", sn, r.steps, want);
        sched_free(&s);
    }
    /* the tree search alone over every 2-D torus with sides 2..16, every 3-D torus with sides
     * 2..8, and the cubes 9..16: each tree verified here, its slots equal to the bound */
    uint32_t shapes_done = 0, at_bound = 0;
    char worst[300] = "";
    for (int dims = 2; dims <= 3; dims++)
        for (int a = 2; a <= (dims == 2 ? 16 : 8); a++)
            for (int b = 2; b <= (dims == 2 ? 16 : 8); b++)
                for (int c = (dims == 2 ? 1 : 2); c <= (dims == 2 ? 1 : 8); c++) {
                    sched_shape sh = sched_shape_make(dims, a, b, c, 1);
                    sched_mnb_tree t;
                    char err[256];
                    shapes_done++;
                    if (sched_mnb_opt_tree(&sh, &t, err, sizeof err)) { snprintf(worst, sizeof worst, "%s", err); continue; }
                    const char *why = tree_problem(&sh, &t);
                    if (!why && t.slots == sched_mnb_opt_lower_bound(&sh)) at_bound++;
                    else snprintf(worst, sizeof worst, "%dx%dx%d: %s, %u slots, bound %u", a, b, c, why ? why : "above the bound",
                                  t.slots, sched_mnb_opt_lower_bound(&sh));
                    sched_mnb_tree_free(&t);
                }
    for (int p = 9; p <= 16; p++) {
        sched_shape sh = sched_shape_make(3, p, p, p, 1);
        sched_mnb_tree t;
        char err[256];
        shapes_done++;
        if (sched_mnb_opt_tree(&sh, &t, err, sizeof err)) { snprintf(worst, sizeof worst, "%s", err); continue; }
        const char *why = tree_problem(&sh, &t);
        if (!why && t.slots == sched_mnb_opt_lower_bound(&sh)) at_bound++;
        else snprintf(worst, sizeof worst, "%dx%dx%d: %s", p, p, p, why ? why : "above the bound");
        printf("table mnb-opt %dx%dx%d torus slots %u bound %u\n", p, p, p, t.slots, sched_mnb_opt_lower_bound(&sh));
        sched_mnb_tree_free(&t);
    }
    char name[160];
    snprintf(name, sizeof name, "mnb-opt trees of %u tori (2-D 2..16, 3-D 2..8, cubes 9..16) valid and at the bound", shapes_done);
    result(at_bound == shapes_done, name, worst);
    /* the same schedule every time */
    sched_shape sh = sched_shape_make(2, 9, 7, 1, 1);
    sched_schedule a, b;
    char err[256] = "";
    int same = sched_generate(&a, &sh, SCHED_ALGO_MNB_OPT, 0, err, sizeof err) == 0 &&
               sched_generate(&b, &sh, SCHED_ALGO_MNB_OPT, 0, err, sizeof err) == 0 && a.count == b.count &&
               memcmp(a.msgs, b.msgs, a.count * sizeof *a.msgs) == 0;
    result(same, "mnb-opt is deterministic (9x7 torus twice: identical messages)", err[0] ? err : "they differ");
    sched_free(&a);
    sched_free(&b);
    /* refusals */
    sched_shape mesh = sched_shape_make(2, 4, 4, 1, 0), big = sched_shape_make(2, 65, 64, 1, 1);
    int rc = sched_generate(&a, &mesh, SCHED_ALGO_MNB_OPT, 0, err, sizeof err);
    result(rc != 0 && strstr(err, "needs a torus"), "mnb-opt refuses a mesh with a message", err);
    rc = sched_generate(&a, &big, SCHED_ALGO_MNB_OPT, 0, err, sizeof err);
    result(rc != 0 && strstr(err, "limited to 4096 nodes"), "mnb-opt refuses 65x64 (N(N-1) messages) with a message", err);
}

/* ---------------------------------------------------------------- bcast-edst */

/* The forest on its own: every tree spanning and acyclic, no directed link in two trees; the
 * deepest node. Returns 0 or why. */
static const char *forest_problem(const sched_shape *sh, uint32_t root, const sched_edst_forest *f, uint32_t *deepest)
{
    const uint32_t n = sched_nodes(sh), ports = 2u * sh->dims;
    uint8_t *link_used = calloc((size_t)n * ports, 1);
    if (!link_used) return "out of memory";
    *deepest = 0;
    for (uint32_t i = 0; i < f->trees; i++)
        for (uint32_t v = 0; v < n; v++) {
            if (v == root) continue;
            const uint32_t p = f->parent[(size_t)i * n + v];
            const uint8_t port = f->port[(size_t)i * n + v];
            if (p >= n || port >= ports || sched_neighbour(sh, p, port) != (int64_t)v) { free(link_used); return "a parent is not a neighbour"; }
            if (link_used[(size_t)p * ports + port]++) { free(link_used); return "a directed link is in two trees"; }
            uint32_t depth = 0;
            for (uint32_t u = v; u != root; u = f->parent[(size_t)i * n + u])
                if (++depth > n) { free(link_used); return "a tree has a cycle"; }
            if (depth > *deepest) *deepest = depth;
        }
    free(link_used);
    return 0;
}

static void test_edst(void)
{
    /* depths reached: the bound (asserted exactly) on the even tori, the cubes, 3x3 and 7x7 and
     * on the meshes (3 at least: the 3x3 mesh from its centre); one above it (asserted as at most that) on the 5x5 torus
     * and the 3x7 mesh from (1,1). Chunked schedules (3 per tree) on the shapes whose search is
     * quick. */
    static const int cases[][8] = {
        /* dims, a, b, c, torus, root x (y = z = same), depth, chunked too */
        {2, 3, 3, 1, 1, 0, 3, 1}, {2, 4, 4, 1, 1, 0, 5, 1}, {2, 5, 5, 1, 1, 0, 6, 0}, {2, 6, 6, 1, 1, 0, 7, 1},
        {2, 7, 7, 1, 1, 0, 7, 0}, {2, 8, 8, 1, 1, 0, 9, 1}, {2, 8, 8, 1, 1, 3, 9, 0}, {2, 16, 16, 1, 1, 0, 17, 1},
        {2, 4, 6, 1, 1, 0, 6, 1}, {2, 4, 8, 1, 1, 0, 7, 1}, {3, 3, 3, 3, 1, 0, 4, 1}, {3, 4, 4, 4, 1, 1, 7, 1},
        {3, 5, 5, 5, 1, 0, 7, 0}, {2, 4, 4, 1, 0, 0, 6, 1}, {2, 5, 5, 1, 0, 2, 4, 0}, {2, 8, 8, 1, 0, 0, 14, 1},
        {2, 3, 7, 1, 0, 1, 7, 0}, {3, 3, 3, 3, 0, 0, 6, 1}, {3, 4, 4, 4, 0, 1, 6, 1}, {2, 3, 3, 1, 0, 1, 3, 1},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sched_shape sh = sched_shape_make(cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4]);
        int32_t rc3[3] = {cases[i][5], cases[i][5], sh.dims == 3 ? cases[i][5] : 0};
        const uint32_t root = sched_node_id(&sh, rc3);
        uint32_t want = (uint32_t)cases[i][6];
        const uint32_t trees = sched_edst_tree_count(&sh), bound = sched_edst_depth_bound(&sh, root);
        char sn[40], name[200], why[300] = "", err[256] = "";
        shape_name(&sh, sn, sizeof sn);
        sched_edst_forest f;
        uint32_t deepest = 0;
        snprintf(name, sizeof name, "bcast-edst %s root %d: %u arc-disjoint spanning trees, depth %s%u (bound %u)", sn,
                 cases[i][5], trees, want == bound ? "" : "at most ", want, bound);
        if (sched_edst_forest_build(&sh, root, &f, err, sizeof err)) { result(0, name, err); continue; }
        const char *problem = forest_problem(&sh, root, &f, &deepest);
        const int at_bound = want == bound;
        int ok = !problem && f.trees == trees && f.max_depth == deepest && deepest >= bound &&
                 (at_bound ? deepest == want : deepest <= want);
        if (!ok) snprintf(why, sizeof why, "%s; %u trees, depth %u (reported %u), bound %u", problem ? problem : "figures",
                          f.trees, deepest, f.max_depth, bound);
        result(ok, name, why);
        sched_edst_forest_free(&f);
        if (cases[i][5] == 0)
            printf("table bcast-edst %s trees %u depth %u bound %u diameter %u\n", sn, trees, deepest, bound, diameter(&sh));
        want = deepest;
        /* schedules with 1 and 3 chunks per tree */
        for (uint32_t chunks = 1; chunks <= (cases[i][7] ? 3u : 1u); chunks += 2) {
            sched_schedule s;
            snprintf(name, sizeof name, "bcast-edst %s root %d, %u chunk(s): %u parts, %u slots, checked, each link %u times",
                     sn, cases[i][5], chunks, trees * chunks, want + chunks - 1u, chunks);
            if (sched_generate_chunks(&s, &sh, SCHED_ALGO_BCAST_EDST, root, chunks, err, sizeof err)) {
                result(0, name, err);
                continue;
            }
            sched_check_result r;
            ok = check(&s, &r) && r.steps == want + chunks - 1u && sched_coll_parts(&s) == trees * chunks &&
                 r.max_link_load == chunks && r.messages == trees * chunks * (sched_nodes(&sh) - 1u);
            if (!ok) snprintf(why, sizeof why, "%s; %u slots, %u parts, link load %u", r.ok ? "figures" : r.error, r.steps,
                              sched_coll_parts(&s), r.max_link_load);
            result(ok, name, why);
            sched_free(&s);
        }
    }
    /* On lines (a row, column or pillar as a shape of its own, as schedgen --package builds a
     * row.bcast): a ring's two trees, the whole way round each (depth X - 1, every directed
     * link carrying its tree's half once); an array's one tree, both ways from the root (depth
     * its eccentricity). Rings and arrays odd and even, along x, y and z, the root at either
     * end, next to one and in the middle; 1 and 2 chunks per tree. */
    static const unsigned lengths[] = {2, 3, 4, 5, 7, 8, 16, 31, 64};
    for (unsigned li = 0; li < sizeof lengths / sizeof lengths[0]; li++)
        for (int torus = 0; torus <= 1; torus++) {
            const unsigned len = lengths[li], dim = li % 3u;
            const sched_shape line = sched_shape_make(dim == 2 ? 3 : 2, dim == 0 ? len : 1, dim == 1 ? len : 1,
                                                      dim == 2 ? len : 1, torus);
            const uint32_t roots[4] = {0, 1, len / 2u, len - 1u};
            char sn[40];
            shape_name(&line, sn, sizeof sn);
            for (unsigned ri = 0; ri < 4; ri++) {
                if (ri && roots[ri] == roots[ri - 1u]) continue;
                const uint32_t root = roots[ri], far = root > len - 1u - root ? root : len - 1u - root;
                const uint32_t trees = torus ? 2u : 1u, depth = torus ? len - 1u : far;
                char name[200], why[300] = "", err[256] = "";
                sched_edst_forest f;
                uint32_t deepest = 0;
                snprintf(name, sizeof name, "bcast-edst line %s root %u: %u tree(s), depth %u", sn, root, trees, depth);
                if (sched_edst_forest_build(&line, root, &f, err, sizeof err)) { result(0, name, err); continue; }
                const char *problem = forest_problem(&line, root, &f, &deepest);
                int ok = !problem && f.trees == trees && deepest == depth && f.max_depth == depth &&
                         sched_edst_tree_count(&line) == trees && sched_edst_depth_bound(&line, root) == depth;
                if (!ok) snprintf(why, sizeof why, "%s; %u trees, depth %u (reported %u), bound %u", problem ? problem : "figures",
                                  f.trees, deepest, f.max_depth, sched_edst_depth_bound(&line, root));
                result(ok, name, why);
                sched_edst_forest_free(&f);
                for (uint32_t chunks = 1; chunks <= 2u; chunks++) {
                    sched_schedule ls;
                    snprintf(name, sizeof name, "bcast-edst line %s root %u, %u chunk(s): %u parts, %u slots, checked, "
                             "each link %u times", sn, root, chunks, trees * chunks, depth + chunks - 1u, chunks);
                    if (sched_generate_chunks(&ls, &line, SCHED_ALGO_BCAST_EDST, root, chunks, err, sizeof err)) {
                        result(0, name, err);
                        continue;
                    }
                    sched_check_result r;
                    ok = check(&ls, &r) && r.steps == depth + chunks - 1u && sched_coll_parts(&ls) == trees * chunks &&
                         r.max_link_load == chunks && r.messages == trees * chunks * (len - 1u) && r.max_path == 1u &&
                         r.links_used == trees * (len - 1u);
                    if (!ok) snprintf(why, sizeof why, "%s; %u slots, %u parts, link load %u, %u links", r.ok ? "figures" : r.error,
                                      r.steps, sched_coll_parts(&ls), r.max_link_load, r.links_used);
                    result(ok, name, why);
                    sched_free(&ls);
                }
            }
        }
    sched_shape sh = sched_shape_make(2, 4, 4, 1, 1);
    sched_schedule s;
    char err[256] = "";
    int rc = sched_generate_chunks(&s, &sh, SCHED_ALGO_BCAST_EDST, 0, SCHED_EDST_MAX_CHUNKS + 1u, err, sizeof err);
    result(rc != 0 && strstr(err, "chunks must be 1 .."), "bcast-edst refuses 1025 chunks", err);
    rc = sched_generate_chunks(&s, &sh, SCHED_ALGO_SAF_BCAST, 0, 2, err, sizeof err);
    result(rc != 0 && strstr(err, "bcast-edst only"), "chunks refused for another algorithm", err);
}

/* ---------------------------------------------------------------- baselines */

static void test_base(void)
{
    static const int shapes[][6] = {
        /* dims, a, b, c, torus, root x */
        {2, 4, 4, 1, 1, 0}, {2, 8, 8, 1, 1, 5}, {2, 5, 5, 1, 0, 3}, {2, 3, 4, 1, 0, 0}, {3, 3, 3, 3, 1, 1},
        {3, 4, 4, 4, 0, 2}, {2, 5, 7, 1, 1, 2}, {2, 2, 6, 1, 1, 1},
    };
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        sched_shape sh = sched_shape_make(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], shapes[i][4]);
        int32_t rc3[3] = {shapes[i][5], 0, 0};
        const uint32_t n = sched_nodes(&sh), root = sched_node_id(&sh, rc3);
        char sn[40], name[200], why[300] = "", err[256] = "";
        shape_name(&sh, sn, sizeof sn);
        sched_schedule s;
        sched_check_result r;
        /* binomial: ceil(log2 N) rounds, N-1 worms, one send per node per round */
        snprintf(name, sizeof name, "bcast-binomial %s root %d: %u rounds, contended model, checked", sn, shapes[i][5],
                 ceil_log2(n));
        if (sched_generate(&s, &sh, SCHED_ALGO_BCAST_BINOMIAL, root, err, sizeof err)) result(0, name, err);
        else {
            int ok = s.model == SCHED_MODEL_WORMHOLE_CONTENDED && check(&s, &r) && r.steps == ceil_log2(n) &&
                     r.messages == n - 1u && r.max_sends_per_step == 1;
            if (!ok) snprintf(why, sizeof why, "%s; %u rounds", r.ok ? "figures" : r.error, r.steps);
            result(ok, name, why);
            sched_free(&s);
        }
        /* pairwise: N-1 rounds, one worm per node per round */
        snprintf(name, sizeof name, "alltoall-pairwise %s: %u rounds, contended model, checked", sn, n - 1u);
        if (sched_generate(&s, &sh, SCHED_ALGO_ALLTOALL_PAIRWISE, 0, err, sizeof err)) result(0, name, err);
        else {
            int ok = check(&s, &r) && r.steps == n - 1u && r.messages == n * (n - 1u) && r.max_sends_per_step == 1;
            if (!ok) snprintf(why, sizeof why, "%s; %u rounds", r.ok ? "figures" : r.error, r.steps);
            result(ok, name, why);
            sched_free(&s);
        }
        /* ring: N-1 slots on N links of a Hamiltonian cycle; refused on meshes with all sides odd */
        int odd_mesh = !sh.torus;
        for (unsigned d = 0; d < sh.dims; d++) odd_mesh &= sh.side[d] % 2u;
        snprintf(name, sizeof name, odd_mesh ? "allgather-ring %s: refused (no Hamiltonian cycle)"
                                             : "allgather-ring %s: N-1 slots on the N links of a cycle, checked", sn);
        int rc = sched_generate(&s, &sh, SCHED_ALGO_ALLGATHER_RING, 0, err, sizeof err);
        if (odd_mesh) result(rc != 0 && strstr(err, "no Hamiltonian cycle"), name, rc ? err : "accepted");
        else if (rc) result(0, name, err);
        else {
            int ok = check(&s, &r) && r.steps == n - 1u && r.links_used == n && r.max_link_load == n - 1u &&
                     r.max_sends_per_step == 1;
            if (!ok) snprintf(why, sizeof why, "%s; %u slots, %u links", r.ok ? "figures" : r.error, r.steps, r.links_used);
            result(ok, name, why);
            sched_free(&s);
        }
    }
    /* the snake cycle where a mesh has exactly one even side, in each position */
    static const int rings[][4] = {{2, 4, 5, 1}, {2, 5, 4, 1}, {3, 3, 3, 4}, {3, 3, 4, 3}, {3, 4, 3, 3}, {3, 2, 3, 3}};
    for (unsigned i = 0; i < sizeof rings / sizeof rings[0]; i++) {
        sched_shape sh = sched_shape_make(rings[i][0], rings[i][1], rings[i][2], rings[i][3], 0);
        char sn[40], name[120], err[256] = "";
        shape_name(&sh, sn, sizeof sn);
        snprintf(name, sizeof name, "allgather-ring %s: a Hamiltonian cycle, checked", sn);
        sched_schedule s;
        sched_check_result r;
        if (sched_generate(&s, &sh, SCHED_ALGO_ALLGATHER_RING, 0, err, sizeof err)) { result(0, name, err); continue; }
        result(check(&s, &r) && r.steps == sched_nodes(&sh) - 1u, name, r.error);
        sched_free(&s);
    }
    /* dimension-order routes: shortest way round, + on a tie, start at the first dimension with hops */
    sched_shape t8 = sched_shape_make(2, 8, 8, 1, 1);
    int32_t a[3] = {1, 6, 0}, b[3] = {5, 2, 0}, c[3] = {1, 1, 0};
    sched_msg m;
    sched_route_dimension_order(&t8, sched_node_id(&t8, a), sched_node_id(&t8, b), &m);
    int ok = m.hops[0] == 4 && m.hops[1] == 4 && m.start_dim == 0;
    sched_route_dimension_order(&t8, sched_node_id(&t8, a), sched_node_id(&t8, c), &m);
    ok = ok && m.hops[0] == 0 && m.hops[1] == 3 && m.start_dim == 1;
    result(ok, "dimension-order route on the 8x8 torus: (1,6)->(5,2) is +4,+4 from x (ties go +); (1,6)->(1,1) is +3 from y",
           "other hops");
}

/* ---------------------------------------------------------------- negative tests */

static int copy_sched(sched_schedule *dst, const sched_schedule *src)
{
    *dst = *src;
    dst->cap = src->count + 8u;
    dst->msgs = malloc(dst->cap * sizeof *dst->msgs);
    if (!dst->msgs) return -1;
    memcpy(dst->msgs, src->msgs, src->count * sizeof *src->msgs);
    return 0;
}

static void expect_reject(const char *name, const sched_schedule *s, const char *want)
{
    sched_check_result r;
    int ok = check(s, &r);
    char why[400];
    snprintf(why, sizeof why, ok ? "the checker accepted it" : "rejected for another reason: %s", r.error);
    result(!ok && strstr(r.error, want) != 0, name, why);
}

/* Moves message i to step `step` and keeps the list sorted by step. */
static void move_to_step(sched_schedule *s, uint32_t i, uint16_t step)
{
    sched_msg m = s->msgs[i];
    memmove(&s->msgs[i], &s->msgs[i + 1], (s->count - i - 1u) * sizeof m);
    uint32_t at = 0;
    while (at < s->count - 1u && s->msgs[at].step <= step) at++;
    memmove(&s->msgs[at + 1], &s->msgs[at], (s->count - 1u - at) * sizeof m);
    m.step = step;
    s->msgs[at] = m;
}

static void test_neg(void)
{
    sched_shape t5 = sched_shape_make(2, 5, 5, 1, 1), t4 = sched_shape_make(2, 4, 4, 1, 1);
    sched_schedule good, bad;
    sched_check_result r;
    char err[256] = "";
    /* mnb-opt */
    if (sched_generate(&good, &t5, SCHED_ALGO_MNB_OPT, 0, err, sizeof err)) { result(0, "neg mnb-opt setup", err); return; }
    result(check(&good, &r), "neg: mnb-opt 5x5 as generated passes", r.error);
    copy_sched(&bad, &good);
    bad.msgs[bad.count - 1].piece = (bad.msgs[bad.count - 1].piece + 1u) % 25u;
    expect_reject("neg: mnb-opt with one piece changed is rejected", &bad, "does not hold");
    sched_free(&bad);
    copy_sched(&bad, &good);
    bad.count--;
    expect_reject("neg: mnb-opt with a message dropped is rejected", &bad, "never gets");
    sched_free(&bad);
    copy_sched(&bad, &good);
    for (uint32_t i = 0; i < bad.count; i++)
        if (bad.msgs[i].step == 2) { move_to_step(&bad, i, 1); break; }
    expect_reject("neg: mnb-opt with a slot-2 message moved to slot 1 is rejected", &bad, "does not hold");
    sched_free(&bad);
    copy_sched(&bad, &good);
    bad.msgs[bad.count++] = bad.msgs[0];   /* the same link, same slot, another piece */
    bad.msgs[bad.count - 1].piece = bad.msgs[0].src;
    bad.msgs[bad.count - 1].step = bad.msgs[0].step;
    move_to_step(&bad, bad.count - 1u, bad.msgs[0].step);
    expect_reject("neg: mnb-opt with a second piece on a link in a slot is rejected", &bad, "used twice");
    sched_free(&bad);
    sched_free(&good);

    /* the contended model: alltoall-pairwise */
    if (sched_generate(&good, &t4, SCHED_ALGO_ALLTOALL_PAIRWISE, 0, err, sizeof err) == 0) {
        result(check(&good, &r), "neg: alltoall-pairwise 4x4 as generated passes", r.error);
        copy_sched(&bad, &good);
        bad.msgs[5].hops[1] = (int16_t)(bad.msgs[5].hops[1] == 1 ? 2 : 1);
        if (bad.msgs[5].hops[bad.msgs[5].start_dim] == 0) bad.msgs[5].start_dim = 1;
        expect_reject("neg: contended worm whose route does not end at its receiver is rejected", &bad,
                      "does not end at the receiver");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.msgs[bad.count++] = bad.msgs[0];
        bad.msgs[bad.count - 1].step = (uint16_t)bad.nsteps;
        expect_reject("neg: contended duplicate delivery is rejected", &bad, "delivered twice");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.msgs[0].piece = bad.msgs[1].piece;   /* node 0 sends node 1's block in round 1 */
        expect_reject("neg: contended sender that lacks its piece is rejected", &bad, "does not hold");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.model = SCHED_MODEL_SAF_ALLPORT;
        expect_reject("neg: pairwise worms checked as store-and-forward are rejected", &bad, "one hop");
        sched_free(&bad);
        sched_free(&good);
    } else result(0, "neg pairwise setup", err);

    /* the contended model: bcast-binomial, and the strict models unchanged */
    sched_shape t8 = sched_shape_make(2, 8, 8, 1, 1);
    if (sched_generate(&good, &t8, SCHED_ALGO_BCAST_BINOMIAL, 0, err, sizeof err) == 0) {
        result(check(&good, &r) && r.max_link_load > 1, "neg: binomial 8x8 passes as contended (and shares links)", r.error);
        copy_sched(&bad, &good);
        bad.model = SCHED_MODEL_WORMHOLE_ALLPORT;
        expect_reject("neg: the same binomial schedule as wormhole-allport is rejected (links shared)", &bad, "used twice");
        sched_free(&bad);
        copy_sched(&bad, &good);
        move_to_step(&bad, bad.count - 1u, 1);
        expect_reject("neg: binomial worm from a node not yet informed is rejected", &bad, "not yet informed");
        sched_free(&bad);
        copy_sched(&bad, &good);
        for (uint32_t i = bad.count; i-- > 0;) {   /* one more hop in the start dimension */
            int16_t *h = &bad.msgs[i].hops[bad.msgs[i].start_dim];
            if (*h > 0 && *h < 7) { (*h)++; break; }
        }
        expect_reject("neg: binomial worm that misses its receiver is rejected", &bad, "does not end at the receiver");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.msgs[bad.count - 1].dst = bad.msgs[0].dst;   /* reaches a node twice (route checked after) */
        expect_reject("neg: binomial node reached twice is rejected", &bad, "reached twice");
        sched_free(&bad);
        sched_free(&good);
    } else result(0, "neg binomial setup", err);

    /* bcast-edst */
    if (sched_generate_chunks(&good, &t4, SCHED_ALGO_BCAST_EDST, 0, 2, err, sizeof err) == 0) {
        result(check(&good, &r), "neg: bcast-edst 4x4 (2 chunks) as generated passes", r.error);
        copy_sched(&bad, &good);
        for (uint32_t i = 0; i < bad.count; i++)
            if (bad.msgs[i].step == 3) { move_to_step(&bad, i, 1); break; }
        expect_reject("neg: bcast-edst chunk forwarded before it arrived is rejected", &bad, "not yet informed");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.parts = 9;   /* one more part than the schedule carries */
        expect_reject("neg: bcast-edst with a part nobody sends is rejected", &bad, "never receives piece 8");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.msgs[bad.count++] = bad.msgs[0];
        bad.msgs[bad.count - 1].piece = (bad.msgs[0].piece + 1u) % 8u;
        move_to_step(&bad, bad.count - 1u, bad.msgs[0].step);
        expect_reject("neg: bcast-edst two parts on one link in a slot is rejected", &bad, "used twice");
        sched_free(&bad);
        sched_free(&good);
    } else result(0, "neg edst setup", err);
}

/* ---------------------------------------------------------------- tables */

/* Writes the tables of every node, reads them back, rebuilds the schedule from the send records
 * (parts from the table header) and proves it again. */
static void test_tables(void)
{
    static const struct { int dims, a, b, c, torus; sched_algo algo; uint32_t chunks; } cases[] = {
        {2, 4, 4, 1, 1, SCHED_ALGO_BCAST_EDST, 3}, {3, 3, 3, 3, 0, SCHED_ALGO_BCAST_EDST, 2},
        {2, 5, 5, 1, 1, SCHED_ALGO_MNB_OPT, 1}, {2, 4, 4, 1, 0, SCHED_ALGO_BCAST_BINOMIAL, 1},
        {2, 4, 6, 1, 0, SCHED_ALGO_ALLGATHER_RING, 1}, {2, 3, 4, 1, 1, SCHED_ALGO_ALLTOALL_PAIRWISE, 1},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sched_shape sh = sched_shape_make(cases[i].dims, cases[i].a, cases[i].b, cases[i].c, cases[i].torus);
        const uint32_t n = sched_nodes(&sh);
        char sn[40], name[200], why[300] = "", err[256] = "";
        shape_name(&sh, sn, sizeof sn);
        snprintf(name, sizeof name, "tables of %s on %s: written, valid, parts in the header, rebuilt schedule checked",
                 sched_algo_name(cases[i].algo), sn);
        sched_schedule s, back;
        if (sched_generate_chunks(&s, &sh, cases[i].algo, 0, cases[i].chunks, err, sizeof err)) { result(0, name, err); continue; }
        uint32_t total = 0;
        for (uint32_t v = 0; v < n; v++) total += sched_table_bytes(&s, v);
        uint8_t *file = malloc(total);
        memset(&back, 0, sizeof back);
        back.msgs = malloc(s.count * sizeof *back.msgs);
        int ok = file && back.msgs;
        for (uint32_t v = 0, off = 0; ok && v < n; v++) {
            int32_t w = sched_table_write(&s, v, file + off, total - off);
            ok = w > 0;
            off += ok ? (uint32_t)w : 0u;
        }
        for (uint32_t v = 0; ok && v < n; v++) {
            sched_table t;
            ok = sched_table_find(file, total, &sh, v, &t) == SCHED_TABLE_OK && t.parts == sched_coll_parts(&s) &&
                 sched_table_parts(&t) == sched_coll_parts(&s) && t.model == (uint8_t)s.model;
            if (!ok) { snprintf(why, sizeof why, "node %u: table refused or parts %u, want %u", v, t.parts, sched_coll_parts(&s)); break; }
            if (v == 0) {
                back.shape = t.shape;
                back.algo = (sched_algo)t.algo;
                back.coll = (sched_collective)t.collective;
                back.model = (sched_model)t.model;
                back.root = t.root;
                back.parts = sched_table_parts(&t);
            }
            for (uint32_t k = 0; k < t.nsend; k++) {
                sched_table_send e;
                sched_table_get_send(&t, k, &e);
                sched_msg *m = &back.msgs[back.count++];
                memset(m, 0, sizeof *m);
                m->src = v;
                m->dst = e.dst;
                m->piece = e.piece;
                m->step = e.step;
                m->start_dim = (uint8_t)(e.port >> 1);
                m->reserved = e.flags;
                memcpy(m->hops, e.hops, sizeof m->hops);
            }
        }
        if (ok) {
            back.cap = back.count;
            sched_finish(&back);   /* node order -> step order */
            sched_check_result r;
            ok = back.count == s.count && check(&back, &r) && r.steps == s.nsteps;
            if (!ok) snprintf(why, sizeof why, "rebuilt schedule: %s", r.ok ? "other figures" : r.error);
        }
        result(ok, name, why);
        free(file);
        sched_free(&back);
        sched_free(&s);
    }
    /* format 2 records the parts of every table (format 1 tables are refused by version,
     * tests/tools/sched/sched_test.c); a zero there reads as one part */
    sched_table old;
    memset(&old, 0, sizeof old);
    old.shape = sched_shape_make(3, 4, 4, 4, 1);
    old.algo = (uint8_t)SCHED_ALGO_MNB_SPLIT;
    old.parts = 3;
    int ok = sched_table_parts(&old) == 3;
    old.parts = 0;
    ok = ok && sched_table_parts(&old) == 1;
    result(ok, "a table's parts field: 3 reads as 3, 0 as 1", "other parts");
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: opt_test mnb | edst | base | neg | tables\n"); return 2; }
    if (!strcmp(argv[1], "mnb")) test_mnb();
    else if (!strcmp(argv[1], "edst")) test_edst();
    else if (!strcmp(argv[1], "base")) test_base();
    else if (!strcmp(argv[1], "neg")) test_neg();
    else if (!strcmp(argv[1], "tables")) test_tables();
    else { fprintf(stderr, "opt_test: unknown part '%s'\n", argv[1]); return 2; }
    return failures ? 1 : 0;
}
