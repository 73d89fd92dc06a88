/* SPDX-License-Identifier: ISC */
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
 * Here (firmware/sched, portable, no allocation): the numbers and names (sched_names.c), the
 * partial-MNB rule (sched_pmnb.h) and the dynamic-broadcast rule (sched_dyn.h). The generators,
 * their dispatcher and bounds, and the checker are host tools: tools/sched/ (README there).
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
/* Schedules around dead links (tools/sched/fault): breadth-first trees of the live links,
 * greedy store-and-forward slots; for broadcast, scatter, gather, allgather, alltoall. */
#define SCHED_ALGO_BCAST_FT     ((sched_algo)46)
#define SCHED_ALGO_SCATTER_FT   ((sched_algo)47)
#define SCHED_ALGO_GATHER_FT    ((sched_algo)48)
#define SCHED_ALGO_ALLGATHER_FT ((sched_algo)49)
#define SCHED_ALGO_ALLTOALL_FT  ((sched_algo)50)
#define SCHED_COLL_ALGO_LAST   50

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

#endif
