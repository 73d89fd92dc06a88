/* SPDX-License-Identifier: ISC */
/* Partial multinode broadcast (Varvarigos-Bertsekas, digest A5-A7) as a rule every node
 * evaluates at run time: M <= N sources, unknown in advance. Portable C11, no allocation
 * (the caller gives every buffer), builds for the RV32IM core.
 *
 * Shape: d-dimensional (d = 2 or 3), all sides equal p (the dimension rotation needs it),
 * mesh (p >= 2) or torus (p >= 3). Node id = sum x_i p^i (digit 0 least significant).
 *
 * Phases (all nodes lock-step, one global slot counter):
 *  1. parallel prefix on control steps (t_p each): d forward and d reverse subphases of p-1
 *     steps along one dimension each (digest A5, with the exclusive-rank erratum). Every node
 *     learns its rank among the sources and M. Class c runs the prefix with its digits rotated
 *     by c (virtual digit k = real digit (k+c) mod d), so the d class prefixes run at once on
 *     distinct dimensions.
 *       no split: prefix 1 (natural order) gives the global rank r; class = r mod d; prefix 2
 *                 (per class, rotated order) gives the class rank. 4d(p-1) control steps.
 *       split:    each source has d mini-packets; mini-packet c is class c; one round of d
 *                 rotated prefixes gives its class rank. 2d(p-1) control steps.
 *  2. packing (Theorem 3): the class-c packet of class rank r goes to the node whose rotated
 *     id is r, correcting virtual digit 0, 1, ..., d-1 in phases of exactly p-1 slots, array
 *     paths (no wrap). Skipped when every packet already sits at its target (split, M = N).
 *  3. broadcast (Theorem 5): subphase l = 1..d along virtual dimension d-l; every node
 *     broadcasts all class-c packets it holds along its line/ring in rounds: round k sends
 *     the node's k-th packet, one hop per slot, passing packets forwarded on arrival.
 *     Torus legs: ceil((p-1)/2) and floor((p-1)/2), the long leg alternating direction each
 *     round, rounds back to back per direction; line: to both ends, rounds of p-1 slots.
 *     Subphase l has R_l = ceil(M'/p^(d-l+1)) rounds (M' = class size bound: ceil(M/d) no
 *     split, M split) and the same length in every class, so the classes always use
 *     distinct dimensions (digest A7 "IMPORTANT").
 */
#ifndef RVMESH_SCHED_PMNB_H
#define RVMESH_SCHED_PMNB_H

#include <stdint.h>

#include "sched.h"

#define SCHED_PMNB_PACK_BUF 4   /* packing packets a node may hold per class (2 needed, A4) */

typedef struct {
    sched_shape shape;
    uint8_t split;        /* 1: d mini-packets per source */
    uint8_t classes;      /* d */
    uint8_t parts;        /* pieces per source: d when split, else 1 */
    uint16_t p;           /* side */
    uint32_t nodes;
    uint32_t m;           /* sources */
    uint32_t class_size;  /* M': most packets of one class */
    uint32_t prefix_steps;/* control steps of the prefix phase(s) */
    uint32_t pack_slots;  /* d(p-1), or 0 when no packet moves */
    uint32_t rounds[SCHED_MAX_DIMS];    /* R_l, index l-1 */
    uint32_t sub_slots[SCHED_MAX_DIMS]; /* slots of broadcast subphase l */
    uint32_t sub_first[SCHED_MAX_DIMS]; /* its first slot */
    uint32_t total_slots; /* packing + broadcast */
} sched_pmnb_plan;

/* 0, or a message saying why the shape/M cannot be planned. packing_needed = 0 lets the
 * caller skip packing when it knows every packet is already in place (M = N, split). */
const char *sched_pmnb_make_plan(sched_pmnb_plan *plan, const sched_shape *shape, uint32_t m, int split,
                                 int packing_needed);

/* Full MNB variant without packing and without splitting ("mnb-diag", not in the paper): node
 * s is in class c = (sum of its coordinates) mod d and broadcasts from where it is, with the
 * same rotated dimension orders and lock-step subphases as above. Subphase l has as many
 * rounds as the most class-c nodes in any (l-1)-dimensional sub-torus the class has covered
 * (about p^(l-1)/d), so no node waits for packing. Unequal sides are allowed here: a
 * subphase lasts as long as its slowest class, which keeps the classes in lock step. */
const char *sched_pmnb_make_plan_diag(sched_pmnb_plan *plan, const sched_shape *shape);
uint8_t sched_pmnb_diag_class(const sched_pmnb_plan *plan, uint32_t id);

/* ---- parallel prefix (one instance per class and prefix round) ---- */
typedef struct {
    uint8_t rot;                          /* class rotation c */
    int32_t vdig[SCHED_MAX_DIMS];          /* virtual digits of the node */
    uint32_t b[SCHED_MAX_DIMS], pf[SCHED_MAX_DIMS], e[SCHED_MAX_DIMS + 1];
    uint32_t m;                           /* total, known after the reverse phase */
} sched_prefix_node;

void sched_prefix_init(sched_prefix_node *st, const sched_pmnb_plan *plan, uint32_t id, uint8_t rot, uint32_t value);
/* Control step 1 .. 2d(p-1): returns the port to send on (or -1) and the two words. */
int sched_prefix_send(const sched_pmnb_plan *plan, sched_prefix_node *st, uint32_t step, uint32_t word[2]);
/* The words that arrived in control step `step`. */
void sched_prefix_receive(const sched_pmnb_plan *plan, sched_prefix_node *st, uint32_t step, const uint32_t word[2]);
/* After the last step: exclusive rank (#sources with value before the node) and total. */
uint32_t sched_prefix_rank(const sched_prefix_node *st);
uint32_t sched_prefix_total(const sched_prefix_node *st);

/* ---- packets and node state ---- */
enum { SCHED_PMNB_NONE = 0, SCHED_PMNB_PACK = 1, SCHED_PMNB_BCAST = 2 };

typedef struct {
    uint8_t kind;        /* SCHED_PMNB_NONE / PACK / BCAST */
    uint8_t cls;         /* class */
    uint16_t hops_left;  /* broadcast: hops still to go after this one */
    uint32_t piece;      /* source * parts + part */
    uint32_t target;     /* packing: node id of the packed position */
} sched_pmnb_packet;

typedef struct {
    uint32_t id;
    int32_t coord[SCHED_MAX_DIMS];
    uint32_t *store;                      /* classes * store_cap piece ids */
    uint32_t store_cap;
    uint32_t count[SCHED_MAX_DIMS];       /* pieces held per class */
    uint32_t inject_count[SCHED_MAX_DIMS];/* pieces held at the start of the current subphase */
    uint32_t cur_sub;                     /* subphase whose snapshot is taken (0: none yet) */
    uint8_t packed_moved;                 /* packing buffers moved into the store */
    sched_pmnb_packet pack[SCHED_MAX_DIMS][SCHED_PMNB_PACK_BUF];
    sched_pmnb_packet fwd[2 * SCHED_MAX_DIMS]; /* to forward on that port in the next slot */
} sched_pmnb_node;

/* store: plan->classes * store_cap words, store_cap >= plan->class_size. */
void sched_pmnb_node_init(sched_pmnb_node *n, const sched_pmnb_plan *plan, uint32_t id, uint32_t *store,
                          uint32_t store_cap);
/* A source hands in its packet(s): for class c (split: every c; no split: the one class given
 * by the global rank) its class rank. Returns 0, or -1 if a buffer is too small. */
int sched_pmnb_node_source(sched_pmnb_node *n, const sched_pmnb_plan *plan, uint8_t cls, uint32_t class_rank,
                           uint32_t piece);
/* mnb-diag: the node's own packet, broadcast from the node itself (no packing). */
int sched_pmnb_node_own(sched_pmnb_node *n, const sched_pmnb_plan *plan, uint8_t cls, uint32_t piece);
/* Slot `slot` (1-based): what to send on each of the 2d ports (kind NONE = idle).
 * Returns 0, or -1 if the rule would put two packets on one port (cannot happen when the
 * theorems hold; reported rather than hidden). */
int sched_pmnb_node_send(const sched_pmnb_plan *plan, sched_pmnb_node *n, uint32_t slot,
                         sched_pmnb_packet out[2 * SCHED_MAX_DIMS]);
/* A packet that arrived in slot `slot` through this node's port `port`. Returns 1 if it was
 * delivered here (first copy of a piece not from this node), 0 if only relayed/held, -1 on
 * buffer overflow. */
int sched_pmnb_node_receive(const sched_pmnb_plan *plan, sched_pmnb_node *n, uint32_t slot, uint8_t port,
                            const sched_pmnb_packet *pkt);
/* Packing target of a class rank (node id). */
uint32_t sched_pmnb_target(const sched_pmnb_plan *plan, uint8_t cls, uint32_t class_rank);

#endif
