/* SPDX-License-Identifier: ISC */
/* Dynamic broadcast routing rule (Yeh-Varvarigos-Lee, digest B3-B7): what a node does with
 * each packet it receives. Portable C11, no allocation, builds for the RV32IM core.
 *
 * STAR (tori, any sides >= 3): the source picks an ending dimension l with probability x_l
 * (the balance system of B3; 1/d for equal sides). The packet is broadcast ring by ring in
 * the dimension order l+1, l+2, ..., l (mod d): a node that receives it in phase k forwards
 * it along the same ring while hops remain and starts two-way ring broadcasts in every later
 * phase's dimension (the source starts all d). Ring legs: ceil((n-1)/2) and floor((n-1)/2),
 * the long leg's direction chosen by a hash of (source, sequence, node) on even rings.
 * Priority: 2-class rule, LOW for transmissions in the ending dimension, HIGH otherwise; the
 * descendant count (B7) is also given for a "more descendants first" discipline.
 *
 * ARC (meshes, every side >= 4): only the interior (coordinates 1..n_i-2) generates and
 * receives. An interior source is assigned a face: dimension i = (sum of its interior
 * coordinates) mod d, the nearer side of that dimension (ties to the low side); the packet
 * is routed straight out to that face (relay only), broadcast along the face over the
 * interior projection (dimension by dimension, relay only), and every face node sends it back
 * into the interior along dimension i (n_i-2 hops, each interior node receives it once).
 * Priority: LOW for the back-broadcast hops after the first (the last n_i-3), HIGH otherwise.
 *
 * Routing variants on tori (sched_dyn_make_plan_ex, digest B3 and B9):
 * - STAR: the orders l+1, l+2, ..., l (forward), ending dimension l with probability x_l.
 * - REDO (random even-dimensions order): a random order of all d dimensions. Here the d
 *   forward orders and the d reverse orders l-1, l-2, ..., l, half the traffic each; the
 *   reverse ones have their own balance system (solved like STAR's). For d <= 3 these are
 *   all d! orders (with equal sides each has probability 1/d!); for d = 2 REDO is STAR.
 * - ADAPTIVE (the paper's Sec. 6.1, "adaptive STAR"): the source looks at its own backlog
 *   Eul_X(i), the dimension-i transmissions still owed by the packets in its queues
 *   (sched_dyn_future_load summed over them). It draws l from the base probabilities as
 *   STAR does, but takes instead the forward order whose transmissions a_{i,l} fall on the
 *   least busy dimensions (smallest sum_i Eul_X(i) a_{i,l}) when that sum is below a third
 *   of the drawn order's (a margin: without one the sources chase noise and the loads
 *   oscillate).
 * The base probabilities are the balance system's solution, or 1/d each (uniform: what a
 * node that does not solve the system would use; on unequal sides it unbalances the links).
 *
 * Note: the paper's ARC is the mesh scheme above (algorithm-reconfigured communication);
 * "adaptive STAR" is the ADAPTIVE routing here.
 */
#ifndef RVMESH_SCHED_DYN_H
#define RVMESH_SCHED_DYN_H

#include <stdint.h>

#include "sched.h"

enum { SCHED_DYN_HIGH = 0, SCHED_DYN_LOW = 1 };
enum { SCHED_DYN_STAR = 0, SCHED_DYN_OUT = 1, SCHED_DYN_FACE = 2, SCHED_DYN_BACK = 3 };
enum { SCHED_DYN_ROUTE_STAR = 0, SCHED_DYN_ROUTE_REDO = 1, SCHED_DYN_ROUTE_ADAPTIVE = 2 };

typedef struct {
    sched_shape shape;
    uint8_t arc;                       /* 0: STAR on a torus, 1: ARC on a mesh */
    uint32_t nodes;
    uint32_t receivers;                /* N (torus) or N' (interior) */
    uint32_t ending_threshold[SCHED_MAX_DIMS]; /* cumulative x_l scaled to 2^32-1 */
    uint32_t ending_num[SCHED_MAX_DIMS];       /* x_l = ending_num[l] / ending_den */
    uint32_t ending_den;
    uint8_t routing;                   /* SCHED_DYN_ROUTE_* (tori; ARC on meshes) */
    uint8_t uniform;                   /* base probabilities 1/d instead of the balance solution */
    /* REDO: the reverse orders' probabilities (y_l), as the forward ones */
    uint32_t reverse_threshold[SCHED_MAX_DIMS];
    uint32_t reverse_num[SCHED_MAX_DIMS];
    uint32_t reverse_den;
    /* a_{i,l}: dimension-i transmissions of one broadcast with forward ending dimension l */
    uint32_t trans[SCHED_MAX_DIMS][SCHED_MAX_DIMS];
} sched_dyn_plan;

/* Packet header (what a firmware packet would carry). */
typedef struct {
    uint32_t source;
    uint32_t seq;
    uint8_t stage;      /* SCHED_DYN_STAR / OUT / FACE / BACK */
    uint8_t ending;     /* STAR: ending dimension l; ARC: the face dimension i */
    uint8_t phase;      /* STAR: index k in the dimension order; ARC FACE: index among face dims */
    int8_t dir;         /* +1 / -1 along the current dimension */
    uint16_t hops_left; /* hops after the one that brought it here */
    uint8_t prio;       /* SCHED_DYN_HIGH / LOW, for the hop it is queued for */
    uint8_t face_side;  /* ARC: 0 low face, 1 high face */
    uint8_t reverse;    /* STAR/REDO: 1 for the reverse order l-1, l-2, ..., l */
    uint32_t descendants; /* nodes reached through this transmission (incl. the receiver) */
} sched_dyn_packet;

typedef struct {
    uint8_t port;
    sched_dyn_packet pkt;
} sched_dyn_send;

#define SCHED_DYN_MAX_SENDS (2 * SCHED_MAX_DIMS)

/* 0, or why the shape cannot use the rule. arc = 1 for a mesh. STAR with solved probabilities. */
const char *sched_dyn_make_plan(sched_dyn_plan *plan, const sched_shape *shape);
/* The same with a routing variant (SCHED_DYN_ROUTE_*; meshes take only STAR, meaning ARC) and
 * uniform = 1 for base probabilities 1/d. */
const char *sched_dyn_make_plan_ex(sched_dyn_plan *plan, const sched_shape *shape, int routing, int uniform);
const char *sched_dyn_routing_name(int routing);   /* "star", "redo", "adaptive" ("?" otherwise) */
int sched_dyn_routing_from_name(const char *name); /* -1 if unknown */
/* The dimension of phase k of a packet's order (STAR/REDO). */
uint32_t sched_dyn_order_dim(const sched_dyn_plan *plan, const sched_dyn_packet *pkt, uint32_t k);
/* Adds to load[i] the dimension-i transmissions of the subtree of the queued transmission
 * `send` (itself included): the paper's Eul contribution of one queued packet. STAR/REDO
 * packets only (an ARC packet adds nothing). */
void sched_dyn_future_load(const sched_dyn_plan *plan, const sched_dyn_packet *send, uint32_t load[SCHED_MAX_DIMS]);
/* 1 if the node generates and receives broadcasts (torus: all; ARC: interior). */
int sched_dyn_is_receiver(const sched_dyn_plan *plan, uint32_t node);
/* A new broadcast at its source: fills sends[] (port + header, with priority) and returns
 * how many. rnd: a uniform 32-bit random number (ending dimension choice). */
int sched_dyn_originate(const sched_dyn_plan *plan, uint32_t source, uint32_t seq, uint32_t rnd,
                        sched_dyn_send sends[SCHED_DYN_MAX_SENDS]);
/* The same for any routing variant: backlog[i] is the source's Eul_X(i) (ADAPTIVE; may be
 * NULL, meaning an empty backlog). rnd2: a second uniform 32-bit number (REDO's order
 * direction). */
int sched_dyn_originate_ex(const sched_dyn_plan *plan, uint32_t source, uint32_t seq, uint32_t rnd, uint32_t rnd2,
                           const uint32_t *backlog, sched_dyn_send sends[SCHED_DYN_MAX_SENDS]);
/* A packet arrived at `node`: the transmissions it must queue (returned count) and whether it
 * is delivered here (*deliver = 1). Only the routing state of `in` is read (source, seq,
 * stage, ending, phase, dir, hops_left, face_side, reverse); every send's prio and
 * descendants are computed for its own hop, so a wire format that leaves them out (prio 0,
 * descendants 0 on arrival) routes and classes exactly as the in-memory header does. */
int sched_dyn_on_receive(const sched_dyn_plan *plan, uint32_t node, const sched_dyn_packet *in, int *deliver,
                         sched_dyn_send sends[SCHED_DYN_MAX_SENDS]);

#endif
