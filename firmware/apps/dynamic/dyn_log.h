/* SPDX-License-Identifier: ISC
 * The delivery log of the dynamic-broadcast program (firmware/apps/dynamic): the contract
 * between the node program, which fills it in its RAM (the symbol rvmesh_dump), and the host
 * tool dyn-report, which reads every node's copy from mesh-sim --dump after the run. Change
 * both sides together (DYN_LOG_VERSION).
 *
 * Words, little-endian; the layout depends only on the header's nodes, max_seq, max_slots:
 *   [0, 256)              struct dyn_log_head
 *   gen_sf[max_seq]       u32 per broadcast this node generated (seq): slot << 16 | frac, the
 *                         request arrived at time slot - 1 + frac / 65536 (slot units)
 *   gen_cycle[max_seq]    u32: the same moment on the machine-wide cycle count (low 32 bits)
 *   recv[nodes][max_seq]  u16: the slot in which this node received broadcast (source, seq),
 *                         0 for never (a duplicate is counted, not stored)
 *   slot_cycle[max_slots + 1] u32: mcycle (low 32 bits) at the end of this node's exchange
 *                         of slot s (index 0: the start)
 */
#ifndef RVMESH_DYN_LOG_H
#define RVMESH_DYN_LOG_H

#include <stdint.h>

#define DYN_LOG_MAGIC 0x4e594452u /* "RDYN" */
#define DYN_LOG_VERSION 1u

/* status: 0, or the first of these a node ran into (it keeps exchanging to the end, so its
 * neighbours are not left waiting, but the run fails) */
#define DYN_OK 0u
#define DYN_E_PLAN 1u      /* the routing rule refuses this shape (the console says why) */
#define DYN_E_SEQ 2u       /* the node generated more than max_seq broadcasts: it stopped generating */
#define DYN_E_POOL 3u      /* its queues overflowed the pool (a transmission was dropped) */
#define DYN_E_WORM 4u      /* a malformed worm, or one on a port without a neighbour */
#define DYN_E_DUP 5u       /* it received a broadcast twice */
#define DYN_E_DATA 6u      /* a broadcast's data words arrived wrong */
#define DYN_E_STRAY 7u     /* a broadcast from no node, or a sequence number never generated */
#define DYN_E_SLOTS 8u     /* max_slots passed before the network drained */

struct dyn_log_head {
    uint32_t magic, version, node, nodes;
    /* the run's parameters, as built (every node the same) */
    uint32_t rho_ppm;       /* load factor rho x 10^6 (digest B1: lambda (N-1)/(2d), N' for ARC) */
    uint32_t seed;
    uint32_t discipline;    /* SCHED_DYN_FIFO / PRIO2 / DESC */
    uint32_t routing;       /* SCHED_DYN_ROUTE_STAR / REDO / ADAPTIVE (a mesh: ARC) */
    uint32_t uniform;       /* base probabilities 1/d */
    uint32_t warmup, measure, tail;  /* slots: requests arriving in [warmup, warmup + measure) are
                                        measured; generation goes on for tail slots after them */
    uint32_t max_slots;     /* the run stops after this slot even if not drained */
    uint32_t data_words;    /* payload words a packet carries besides its header */
    uint32_t max_seq;       /* broadcasts a node may generate (the log's size) */
    uint32_t plant;         /* a planted fault (tests): 0 none, 1 a transmission dropped, 2 doubled */
    uint32_t diameter;      /* hops: the drain detection waits this long */
    uint32_t pool;          /* queue entries of the node */
    /* results */
    uint32_t status;        /* DYN_OK or DYN_E_* */
    uint32_t slots;         /* exchanges done (the same on every node) */
    uint32_t last_busy;     /* the last slot some node was busy (had queued packets or generated) */
    uint32_t generated;     /* broadcasts generated here */
    uint32_t received;      /* deliveries here */
    uint32_t duplicates, corrupt, stray, bad_worms, overflow;
    uint32_t max_queue;     /* longest output-port queue */
    uint32_t max_node_queue;/* most packets queued here at once (all ports) */
    uint32_t left_queued;   /* packets still queued when the run stopped */
    uint32_t sent;          /* data worms sent */
    uint32_t exchange_cycles; /* cycles in ni_exchange, summed over the slots */
    uint32_t work_cycles;   /* cycles between exchanges (delivery, routing, generation) */
    uint32_t first_bad_source, first_bad_seq, first_bad_slot; /* the first duplicate/corrupt/stray */
    uint32_t start_cycle;   /* mcycle (low) of the first exchange's start */
    uint32_t exchange;      /* 0: the program's own exchange, 1: ni_exchange_pio, 2: ni_exchange */
    uint32_t reserved[64 - 39];
};

#define DYN_LOG_HEAD_BYTES 256u

static inline uint32_t dyn_log_gen_sf_off(void) { return DYN_LOG_HEAD_BYTES; }
static inline uint32_t dyn_log_gen_cycle_off(uint32_t max_seq) { return DYN_LOG_HEAD_BYTES + 4u * max_seq; }
static inline uint32_t dyn_log_recv_off(uint32_t max_seq) { return DYN_LOG_HEAD_BYTES + 8u * max_seq; }
static inline uint32_t dyn_log_slot_off(uint32_t nodes, uint32_t max_seq)
{
    return (dyn_log_recv_off(max_seq) + 2u * nodes * max_seq + 3u) & ~3u;
}
static inline uint32_t dyn_log_bytes(uint32_t nodes, uint32_t max_seq, uint32_t max_slots)
{
    return dyn_log_slot_off(nodes, max_seq) + 4u * (max_slots + 1u);
}

/* Data word i of broadcast (source, seq): what every receiver checks. */
static inline uint32_t dyn_data_word(uint32_t source, uint32_t seq, uint32_t i)
{
    const uint32_t h = (source << 16 | (seq & 0xffffu)) * 0x9e3779b1u + (i + 1u) * 0x85ebca77u;
    return h ^ (h >> 15);
}

#endif
