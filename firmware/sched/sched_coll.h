/* rvmesh schedule library, issue 5: multinode broadcast (allgather), total exchange
 * (alltoall), partial multinode broadcast and the dynamic-broadcast routing rule.
 *
 * The algorithm, collective and model numbers below extend the enums of sched.h. They are
 * macros (not enumerators) so that the switches of the broadcast code stay exhaustive; the
 * dispatchers of sched.h hand every number >= SCHED_COLL_ALGO_FIRST to this module.
 *
 * Pieces, store-and-forward slots:
 *   allgather (MNB):   node s starts with pieces s*parts .. s*parts+parts-1; every node must
 *                      end with every piece. parts = 1, or d for the split algorithms (each
 *                      packet cut into d mini-packets; then one slot is a mini-slot of 1/d
 *                      packet time and the time in packet units is slots/d).
 *   alltoall (TE):     node s starts with piece s*N+t for every t != s; piece s*N+t must reach
 *                      node t.
 *   partial allgather: like allgather, but only the nodes of a source set start with pieces.
 *   partial gather:    node s starts with piece s*N+t for every node t of a destination set,
 *                      t != s; piece s*N+t must reach node t (the dual of partial alltoall).
 * A message with SCHED_MSG_TRANSIT in its reserved byte is relayed by its receiver without
 * being delivered there (packing hops, intermediate nodes of a two-leg route, a packet
 * passing back through its own source). Every other receipt is a delivery, and the checker
 * accepts a delivery only where the piece is due and only once.
 *
 * Portable parts (no allocation; build for the RV32IM core): sched_check_coll.c, sched_pmnb.c
 * (partial-MNB rule), sched_dyn.c (dynamic-broadcast rule).
 * Host parts (allocate): sched_mnb.c (dispatch, bounds), sched_exchange.c (total exchange),
 * sched_coll_sim.c (rule simulation), sched_pe.c (partial exchange), sched_dyn_sim.c; the
 * algorithms 42-44 are in sched_mnb_opt.c and sched_baseline.c (API: sched_opt.h).
 */
#ifndef RVMESH_SCHED_COLL_H
#define RVMESH_SCHED_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"

#define SCHED_COLL_ALGO_FIRST 32
/* Multinode broadcast, Varvarigos-Bertsekas d rotated classes (sec. 4.2 corollary, M = N). */
#define SCHED_ALGO_MNB         ((sched_algo)32)
/* Multinode broadcast with packet splitting into d mini-packets (Theorem 6, M = N). */
#define SCHED_ALGO_MNB_SPLIT   ((sched_algo)33)
/* Total exchange, Dimakopoulos Algorithm A3 (n x n torus or mesh, all-port). */
#define SCHED_ALGO_TE_A3       ((sched_algo)34)
/* Total exchange, Algorithm A2 generalised: dimension by dimension, all-port, any shape. */
#define SCHED_ALGO_TE_A2       ((sched_algo)35)
/* Total exchange, single-port node-invariant FIFO on a torus (time = status s_G). */
#define SCHED_ALGO_TE_ONEPORT  ((sched_algo)36)
/* Partial multinode broadcast without / with splitting (the run-time rule of sched_pmnb.c,
 * simulated slot by slot); the source set is a run-time input. */
#define SCHED_ALGO_PMNB        ((sched_algo)37)
#define SCHED_ALGO_PMNB_SPLIT  ((sched_algo)38)
/* Partial exchange on a 2-D mesh (Varvarigos-Bertsekas sec. 5): M sources, a personal packet
 * from each to every node; row-first (R) or column-first (C) by row/column source counts. */
#define SCHED_ALGO_PE          ((sched_algo)39)
/* Multinode broadcast, d rotated classes without packing or splitting: class = coordinate sum
 * mod d (this library's variant of the sec. 4.2 corollary; not in the paper). */
#define SCHED_ALGO_MNB_DIAG    ((sched_algo)40)
/* Multinode broadcast by the dynamic STAR rule: every node one packet at slot 1, per-port
 * 2-class priority queues (sched_dyn_burst); checks the rule with the allgather checker. */
#define SCHED_ALGO_DYN_STAR    ((sched_algo)41)
/* Multinode broadcast on a torus by one spanning tree translated to every node: each tree
 * edge has a slot, a slot labels at most one edge per direction (sched_mnb_opt.c). */
#define SCHED_ALGO_MNB_OPT     ((sched_algo)42)
/* Allgather around a Hamiltonian cycle (snake order), one hop, N-1 slots (sched_baseline.c). */
#define SCHED_ALGO_ALLGATHER_RING ((sched_algo)43)
/* Alltoall by pairwise exchange: round i, node v sends to (v+i) mod N, one dimension-order worm
 * (model wormhole-contended, sched_baseline.c). */
#define SCHED_ALGO_ALLTOALL_PAIRWISE ((sched_algo)44)
/* Partial gather on a 2-D mesh: the partial exchange of the destination set, reversed in
 * paths and time (sched_pg.c, Varvarigos-Bertsekas sec. 5). */
#define SCHED_ALGO_PG          ((sched_algo)45)
#define SCHED_COLL_ALGO_LAST   45

#define SCHED_COLL_ALLGATHER         ((sched_collective)16)
#define SCHED_COLL_ALLTOALL          ((sched_collective)17)
#define SCHED_COLL_PARTIAL_ALLGATHER ((sched_collective)18)
/* Like alltoall, but only the nodes of a source set send (pieces s*N+t, s a source). */
#define SCHED_COLL_PARTIAL_ALLTOALL  ((sched_collective)19)
/* Partial gather: every node sends to each node of a destination set (pieces s*N+t, t a
 * destination, s != t); the "source set" handed to the checker is the destination set. */
#define SCHED_COLL_PARTIAL_GATHER    ((sched_collective)20)

/* Store-and-forward, single port: at most one send and one receive per node per slot. */
#define SCHED_MODEL_SAF_ONEPORT      ((sched_model)16)
/* Wormhole worms that may share links in a step: the router resolves the contention at run
 * time, so the step is a round, not a time. The checker checks everything else (routes,
 * ports, causality, exactly-once, completeness) but not link-disjointness. */
#define SCHED_MODEL_WORMHOLE_CONTENDED ((sched_model)17)

#define SCHED_MSG_TRANSIT 1u

int sched_coll_is_algo(int algo);
int sched_coll_is_collective(int coll);
int sched_coll_is_model(int model);
const char *sched_coll_algo_name(int algo);   /* "?" if not one of ours */
int sched_coll_algo_from_name(const char *name); /* -1 if unknown */
const char *sched_coll_coll_name(int coll);
const char *sched_coll_model_name(int model);
/* Pieces per block: s->parts when set, else the algorithm's fixed number (dims for the split
 * MNBs, 1 otherwise). A broadcast's root starts with pieces 0 .. parts-1. */
uint32_t sched_coll_parts(const sched_schedule *s);

/* ---- checker for the collectives above (sched_check_coll.c, portable) ----
 * sources: one byte per node, non-zero for a source; needed for the partial collective,
 * ignored (may be 0) otherwise. sched_check() calls this with sources = 0. */
size_t sched_check_coll_workspace_bytes(const sched_schedule *s);
int sched_check_coll(const sched_schedule *s, const uint8_t *sources, void *workspace,
                     size_t workspace_bytes, sched_check_result *result);
/* Extra figures of the last sched_check_coll() call on this result (deliveries, relays). */
typedef struct {
    uint64_t deliveries;   /* receipts that delivered a piece */
    uint64_t relays;       /* receipts marked SCHED_MSG_TRANSIT */
} sched_coll_stats;
int sched_check_coll_stats(const sched_schedule *s, const uint8_t *sources, void *workspace,
                           size_t workspace_bytes, sched_check_result *result, sched_coll_stats *stats);

/* ---- lower bounds and bounds stated by the digests (sched_mnb.c / sched_exchange.c) ----
 * Times are in packet slots; *_x2d variants return 2d times the value to stay integral. */
/* MNB: every node receives N-1 packets over its in-links: max over nodes of
 * ceil((N-1)/degree). In packet units; for split schedules compare slots/parts with it. */
uint32_t sched_lb_mnb(const sched_shape *shape);
/* TE all-port bisection (cut) bound: max over dims of ceil(|V1||V2| / crossing links). */
uint32_t sched_lb_te_cut(const sched_shape *shape);
/* TE single-port status bound: sum of distances from one node (tori: s_G; meshes: average). */
uint32_t sched_lb_te_status(const sched_shape *shape);
/* Lower bound in the schedule's own slots (mini-slots for split schedules). */
uint32_t sched_coll_lower_bound(const sched_schedule *s);
/* Digest bound for the generated algorithm (slots of the schedule; mini-slots for split). */
uint32_t sched_coll_expected_slots(const sched_shape *shape, int algo, uint32_t m);

/* ---- host generators ---- */
/* "3,7,12" (node ids) or "random:M[:SEED]" into one byte per node. 0, or -1 with err. */
int sched_coll_parse_sources(const char *text, const sched_shape *shape, uint8_t *sources, char *err, size_t errlen);
/* M, the digest bound and a lower bound (schedule slots) of a partial schedule for its set. */
void sched_coll_partial_bounds(const sched_schedule *s, const uint8_t *sources, uint32_t *m, uint32_t *bound,
                               uint32_t *lower);
/* pmnb, pmnb-split, pe for a source set. */
int sched_coll_generate_partial(sched_schedule *out, const sched_shape *shape, int algo, const uint8_t *sources,
                                char *err, size_t errlen);
int sched_coll_generate(sched_schedule *out, const sched_shape *shape, int algo, uint32_t root,
                        char *err, size_t errlen);
int sched_gen_mnb(sched_schedule *out, int split, char *err, size_t errlen);
int sched_gen_mnb_diag(sched_schedule *out, char *err, size_t errlen);
int sched_gen_te_a3(sched_schedule *out, char *err, size_t errlen);
int sched_gen_te_a2(sched_schedule *out, char *err, size_t errlen);
int sched_gen_te_oneport(sched_schedule *out, char *err, size_t errlen);
/* Partial MNB by running the sched_pmnb.c rule on every node (sched_coll_sim.c). sources:
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

#endif
