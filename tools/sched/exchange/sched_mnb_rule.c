/* SPDX-License-Identifier: ISC */
/* Host: slot-by-slot simulation of the partial-MNB rule (sched_pmnb.c) on every node of the
 * abstract store-and-forward model, recorded as a schedule for the independent checker.
 * Also the multinode-broadcast generators, which are the rule with every node a source. */
#include "sched_coll.h"
#include "sched_pmnb.h"
#include "exchange/sched_exchange.h"
#include "base/sched_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rot_id(const sched_shape *sh, uint32_t id, uint32_t rot)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(sh, id, c);
    uint32_t v = 0;
    for (int k = (int)sh->dims - 1; k >= 0; k--) v = v * sh->side[0] + (uint32_t)c[((uint32_t)k + rot) % sh->dims];
    return v;
}

/* Runs `inst` prefix instances per node in lock step. values[node*inst + i]; rot of instance
 * i is i (or 0 when inst == 1). Results into rank/total (same layout). Returns the number of
 * control-port conflicts (two words on one port in one step). */
static uint32_t run_prefix(const sched_pmnb_plan *pl, uint32_t inst, const uint32_t *values, uint32_t *rank,
                           uint32_t *total)
{
    const uint32_t n = pl->nodes, steps = 2u * pl->classes * (pl->p - 1u), ports = 2u * pl->classes;
    sched_prefix_node *st = malloc(sizeof *st * n * inst);
    uint32_t *word = malloc(sizeof *word * 2u * n * inst);
    int32_t *to = malloc(sizeof *to * n * inst);
    uint8_t *busy = malloc((size_t)n * ports);
    uint32_t conflicts = 0;
    if (!st || !word || !to || !busy) { free(st); free(word); free(to); free(busy); return UINT32_MAX; }
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = 0; i < inst; i++) sched_prefix_init(&st[v * inst + i], pl, v, (uint8_t)i, values[v * inst + i]);
    for (uint32_t s = 1; s <= steps; s++) {
        memset(busy, 0, (size_t)n * ports);
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t i = 0; i < inst; i++) {
                int port = sched_prefix_send(pl, &st[v * inst + i], s, &word[2u * (v * inst + i)]);
                to[v * inst + i] = -1;
                if (port < 0) continue;
                if (busy[v * ports + (uint32_t)port]++) conflicts++;
                int64_t nb = sched_neighbour(&pl->shape, v, (uint8_t)port);
                if (nb < 0) { conflicts++; continue; }
                to[v * inst + i] = (int32_t)nb;
            }
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t i = 0; i < inst; i++)
                if (to[v * inst + i] >= 0)
                    sched_prefix_receive(pl, &st[(uint32_t)to[v * inst + i] * inst + i], s, &word[2u * (v * inst + i)]);
    }
    for (uint32_t k = 0; k < n * inst; k++) { rank[k] = sched_prefix_rank(&st[k]); total[k] = sched_prefix_total(&st[k]); }
    free(st); free(word); free(to); free(busy);
    return conflicts;
}

/* Runs the rule's slots on every node, recording each transmission. */
static int run_rule(const sched_pmnb_plan *pl, sched_pmnb_node *node, sched_schedule *out, char *err, size_t errlen)
{
    /* Slots. Arrivals of slot t are handed to the receivers after every node has sent. */
    const uint32_t ports = 2u * pl->classes, n = pl->nodes;
    const sched_shape *shape = &pl->shape;
    sched_pmnb_packet *outp = malloc(sizeof *outp * 2u * SCHED_MAX_DIMS * n);
    if (!outp) { sched_fail(err, errlen, "out of memory"); return -1; }
    for (uint32_t t = 1; t <= pl->total_slots; t++) {
        for (uint32_t v = 0; v < n; v++)
            if (sched_pmnb_node_send(pl, &node[v], t, &outp[(size_t)v * 2u * SCHED_MAX_DIMS])) {
                free(outp);
                sched_fail(err, errlen, "slot %u node %u: the rule puts two packets on one port", (unsigned)t, (unsigned)v);
                return -1;
            }
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t q = 0; q < ports; q++) {
                const sched_pmnb_packet *pk = &outp[(size_t)v * 2u * SCHED_MAX_DIMS + q];
                if (pk->kind == SCHED_PMNB_NONE) continue;
                int64_t nb = sched_neighbour(shape, v, (uint8_t)q);
                if (nb < 0) { free(outp); sched_fail(err, errlen, "slot %u node %u: sends off the mesh", (unsigned)t, (unsigned)v); return -1; }
                uint32_t dst = (uint32_t)nb, origin = pk->piece / pl->parts;
                sched_msg msg;
                memset(&msg, 0, sizeof msg);
                msg.src = v;
                msg.dst = dst;
                msg.piece = pk->piece;
                msg.step = (uint16_t)t;
                msg.start_dim = (uint8_t)(q / 2u);
                msg.hops[q / 2u] = (q & 1u) ? -1 : 1;
                if (pk->kind == SCHED_PMNB_PACK) msg.reserved = (pk->target == dst && origin != dst) ? 0 : SCHED_MSG_TRANSIT;
                else msg.reserved = origin == dst ? SCHED_MSG_TRANSIT : 0;
                if (sched_push(out, &msg)) { free(outp); sched_fail(err, errlen, "out of memory"); return -1; }
                if (sched_pmnb_node_receive(pl, &node[dst], t, (uint8_t)(q ^ 1u), pk) < 0) {
                    free(outp);
                    sched_fail(err, errlen, "slot %u node %u: receive buffer overflow", (unsigned)t, (unsigned)dst);
                    return -1;
                }
            }
    }
    free(outp);
    return 0;
}

int sched_sim_pmnb(sched_schedule *out, const sched_shape *shape, const uint8_t *sources, int split,
                   uint32_t *prefix_steps, uint32_t *rank_errors, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const uint32_t n = sched_nodes(shape);
    uint32_t m = 0;
    for (uint32_t v = 0; v < n; v++) m += sources[v] != 0;
    if (m == 0) return sched_fail(err, errlen, "partial MNB: the source set is empty");
    sched_pmnb_plan pl;
    const char *why = sched_pmnb_make_plan(&pl, shape, m, split, !(split && m == n));
    if (why) return sched_fail(err, errlen, "partial MNB: %s", why);
    const uint32_t d = pl.classes;
    out->shape = *shape;
    out->algo = split ? SCHED_ALGO_PMNB_SPLIT : SCHED_ALGO_PMNB;
    out->coll = m == n ? SCHED_COLL_ALLGATHER : SCHED_COLL_PARTIAL_ALLGATHER;
    out->model = SCHED_MODEL_SAF_ALLPORT;

    /* Ground truth: global rank, class and class rank by direct counting. */
    uint32_t *grank = calloc(n, sizeof *grank), *cls = calloc(n, sizeof *cls);
    uint32_t *crank = calloc((size_t)n * d, sizeof *crank);
    uint32_t *vals = calloc((size_t)n * d, sizeof *vals), *prank = calloc((size_t)n * d, sizeof *prank);
    uint32_t *ptot = calloc((size_t)n * d, sizeof *ptot);
    uint32_t *store = calloc((size_t)n * d * pl.class_size, sizeof *store);
    sched_pmnb_node *node = calloc(n, sizeof *node);
    int rc = -1;
    if (!grank || !cls || !crank || !vals || !prank || !ptot || !store || !node) {
        sched_fail(err, errlen, "out of memory");
        goto done;
    }
    for (uint32_t v = 0, r = 0; v < n; v++) if (sources[v]) { grank[v] = r++; cls[v] = split ? 0 : grank[v] % d; }
    for (uint32_t v = 0; v < n; v++) {
        if (!sources[v]) continue;
        for (uint32_t c = 0; c < d; c++) {
            if (!split && cls[v] != c) continue;
            uint32_t rv = rot_id(shape, v, c), cnt = 0;
            for (uint32_t t = 0; t < n; t++)
                if (sources[t] && (split || cls[t] == c) && rot_id(shape, t, c) < rv) cnt++;
            crank[v * d + c] = cnt;
        }
    }

    /* The prefix rule, checked against the direct counts. */
    uint32_t errors = 0;
    if (!split) {
        for (uint32_t v = 0; v < n; v++) vals[v] = sources[v] != 0;
        uint32_t conf = run_prefix(&pl, 1, vals, prank, ptot);
        if (conf == UINT32_MAX) { sched_fail(err, errlen, "out of memory"); goto done; }
        errors += conf;
        for (uint32_t v = 0; v < n; v++) {
            if (ptot[v] != m || (sources[v] && prank[v] != grank[v])) errors++;
            vals[v] = prank[v];   /* keep the rule's own global rank for the class choice */
        }
        uint32_t *g = calloc(n, sizeof *g);
        if (!g) { sched_fail(err, errlen, "out of memory"); goto done; }
        memcpy(g, vals, n * sizeof *g);
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t c = 0; c < d; c++) vals[v * d + c] = sources[v] && g[v] % d == c;
        free(g);
    } else {
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t c = 0; c < d; c++) vals[v * d + c] = sources[v] != 0;
    }
    uint32_t conf = run_prefix(&pl, d, vals, prank, ptot);
    if (conf == UINT32_MAX) { sched_fail(err, errlen, "out of memory"); goto done; }
    errors += conf;
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t c = 0; c < d; c++)
            if (sources[v] && (split || cls[v] == c) && prank[v * d + c] != crank[v * d + c]) errors++;
    if (split)
        for (uint32_t v = 0; v < n; v++) if (ptot[v * d] != m) errors++;
    if (rank_errors) *rank_errors = errors;
    if (prefix_steps) *prefix_steps = pl.prefix_steps;

    /* Start the nodes with what the prefix told them. */
    for (uint32_t v = 0; v < n; v++) {
        sched_pmnb_node_init(&node[v], &pl, v, &store[(size_t)v * d * pl.class_size], pl.class_size);
        if (!sources[v]) continue;
        for (uint32_t c = 0; c < d; c++) {
            if (!split && !vals[v * d + c]) continue;
            uint32_t r = prank[v * d + c];
            if (r >= pl.class_size) { sched_fail(err, errlen, "prefix gave rank %u >= class size", (unsigned)r); goto done; }
            if (sched_pmnb_node_source(&node[v], &pl, (uint8_t)c, r, split ? v * d + c : v)) {
                sched_fail(err, errlen, "node %u: packing buffer full", (unsigned)v);
                goto done;
            }
        }
    }

    if (run_rule(&pl, node, out, err, errlen)) goto done;
    sched_finish(out);
    out->nsteps = pl.total_slots;
    rc = 0;
done:
    free(grank); free(cls); free(crank); free(vals); free(prank); free(ptot); free(store); free(node);
    if (rc) sched_free(out);
    return rc;
}

int sched_gen_mnb_diag(sched_schedule *out, char *err, size_t errlen)
{
    const sched_shape shape = out->shape;
    sched_pmnb_plan pl;
    const char *why = sched_pmnb_make_plan_diag(&pl, &shape);
    if (why) return sched_fail(err, errlen, "mnb-diag: %s", why);
    const uint32_t n = pl.nodes, d = pl.classes;
    uint32_t *store = calloc((size_t)n * d * pl.class_size, sizeof *store);
    sched_pmnb_node *node = calloc(n, sizeof *node);
    int rc = -1;
    out->coll = SCHED_COLL_ALLGATHER;
    out->model = SCHED_MODEL_SAF_ALLPORT;
    out->algo = SCHED_ALGO_MNB_DIAG;
    if (!store || !node) { sched_fail(err, errlen, "out of memory"); goto done; }
    for (uint32_t v = 0; v < n; v++) {
        sched_pmnb_node_init(&node[v], &pl, v, &store[(size_t)v * d * pl.class_size], pl.class_size);
        if (sched_pmnb_node_own(&node[v], &pl, sched_pmnb_diag_class(&pl, v), v)) { sched_fail(err, errlen, "buffer"); goto done; }
    }
    if (run_rule(&pl, node, out, err, errlen)) goto done;
    sched_finish(out);
    out->nsteps = pl.total_slots;
    rc = 0;
done:
    free(store);
    free(node);
    if (rc) sched_free(out);
    return rc;
}

int sched_gen_mnb(sched_schedule *out, int split, char *err, size_t errlen)
{
    sched_shape shape = out->shape;
    uint32_t n = sched_nodes(&shape);
    uint8_t *all = malloc(n);
    if (!all) return sched_fail(err, errlen, "out of memory");
    memset(all, 1, n);
    int rc = sched_sim_pmnb(out, &shape, all, split, 0, 0, err, errlen);
    free(all);
    if (rc) return rc;
    out->algo = split ? SCHED_ALGO_MNB_SPLIT : SCHED_ALGO_MNB;
    out->coll = SCHED_COLL_ALLGATHER;
    return 0;
}
