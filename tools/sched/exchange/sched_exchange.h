/* SPDX-License-Identifier: ISC */
/* tools/sched/exchange: the exchange family: multinode broadcast (allgather) and its partial
 * form, total exchange (alltoall), partial exchange and partial gather, the optimal allgather on
 * tori. Host generators: they allocate; each returns 0, or -1 with a message in err. */
#ifndef RVMESH_SCHED_EXCHANGE_H
#define RVMESH_SCHED_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"
#include "sched_coll.h"

/* ---- generators: mnb, mnb-split, mnb-diag and the partial MNB (sched_mnb_rule.c), te-a3,
 * te-a2, te-oneport (sched_te.c), pe (sched_pe.c), pg (sched_pg.c) ---- */
int sched_gen_mnb(sched_schedule *out, int split, char *err, size_t errlen);
int sched_gen_mnb_diag(sched_schedule *out, char *err, size_t errlen);
int sched_gen_te_a3(sched_schedule *out, char *err, size_t errlen);
int sched_gen_te_a2(sched_schedule *out, char *err, size_t errlen);
int sched_gen_te_oneport(sched_schedule *out, char *err, size_t errlen);
/* Partial MNB by running the sched_pmnb.c rule on every node (sched_mnb_rule.c). sources:
 * one byte per node. On success *prefix_steps is the control steps of the prefix phase(s)
 * (each costs t_p) and, when rank_errors is non-0, the number of nodes whose prefix result
 * (rank, M) differs from a direct count is stored there. */
int sched_sim_pmnb(sched_schedule *out, const sched_shape *shape, const uint8_t *sources, int split,
                   uint32_t *prefix_steps, uint32_t *rank_errors, char *err, size_t errlen);
/* Partial exchange on a 2-D mesh by slot simulation of the R/C routing rule (sched_pe.c). */
int sched_sim_pe(sched_schedule *out, const sched_shape *shape, const uint8_t *sources, char *err, size_t errlen);
/* Partial gather on a 2-D mesh to the destination set dests: sched_sim_pe reversed (sched_pg.c). */
int sched_sim_pg(sched_schedule *out, const sched_shape *shape, const uint8_t *dests, char *err, size_t errlen);
/* Partial exchange: the paper's upper bound 2 floor(sqrt M)(N-p) + 2(p-1) (t_p term apart),
 * its worst-case lower bound floor(sqrt M) N / 4, and a lower bound for this source set
 * (busiest cut or port). */
uint32_t sched_pe_bound(const sched_shape *shape, uint32_t m);
uint32_t sched_pe_lb_worst(const sched_shape *shape, uint32_t m);
uint32_t sched_pe_lb_placement(const sched_shape *shape, const uint8_t *sources);
/* Routing rule of one hop: the port a packet at `node` for `dst` leaves on, and whether that
 * hop is a first-leg (high priority) hop. row_first: the source was in R (r_i <= c_j). */
int sched_pe_next_port(const sched_shape *shape, uint32_t node, uint32_t dst, int row_first, int *first_leg);


/* ---- mnb-opt (sched_mnb_opt.c) ----
 * One spanning tree T of the torus rooted at node 0; tree edge j leaves tree node tail[j] in
 * direction dir[j] (a port, 0 .. 2d-1) at slot slot[j]. A slot labels at most one edge per
 * direction and an edge's slot is later than its parent edge's. Node v broadcasts along T
 * translated by v: in slot t it sends piece v - tail[j] on dir[j] for the slot-t edges j. */
typedef struct {
    uint32_t edges;     /* N - 1 */
    uint32_t slots;     /* the largest slot */
    uint32_t *tail;     /* per edge: tree node it leaves (node id, root 0) */
    uint8_t *dir;       /* per edge: port it leaves on */
    uint32_t *slot;     /* per edge: 1-based slot; edges sorted by slot */
} sched_mnb_tree;

/* Lower bound of any all-port store-and-forward allgather on a torus: every node takes N-1
 * pieces over 2d in-links, and the farthest piece needs the diameter: max(ceil((N-1)/2d), diam). */
uint32_t sched_mnb_opt_lower_bound(const sched_shape *shape);
/* The tree search (deterministic: greedy with fixed-seed randomised restarts, stops at the lower
 * bound). 0, or -1 with err. Free with sched_mnb_tree_free. */
int sched_mnb_opt_tree(const sched_shape *shape, sched_mnb_tree *tree, char *err, size_t errlen);
void sched_mnb_tree_free(sched_mnb_tree *tree);
int sched_gen_mnb_opt(sched_schedule *out, char *err, size_t errlen);

/* ---- lower bounds and bounds stated by the digests (sched_exchange_bounds.c) ----
 * Times are in packet slots; *_x2d variants return 2d times the value to stay integral. */
/* MNB: every node receives N-1 packets over its in-links: max over nodes of
 * ceil((N-1)/degree). In packet units; for split schedules compare slots/parts with it. */
uint32_t sched_lb_mnb(const sched_shape *shape);
/* TE all-port bisection (cut) bound: max over dims of ceil(|V1||V2| / crossing links). */
uint32_t sched_lb_te_cut(const sched_shape *shape);
/* TE single-port status bound: sum of distances from one node (tori: s_G; meshes: average). */
uint32_t sched_lb_te_status(const sched_shape *shape);

#endif
