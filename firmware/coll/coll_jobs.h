/* SPDX-License-Identifier: ISC */
/* rvmesh jobs area: how a host (mesh-sim) hands every node the collectives to run, with that
 * node's own schedule tables, and how it checks each node's buffers after each collective.
 *
 * Shared by the firmware (firmware/coll) and the simulator (sim/mesh): portable C, no
 * allocation, fixed-width types, little endian words. This header is the contract; change
 * it only together with both sides (and bump COLL_JOBS_VERSION).
 *
 * A program that runs jobs defines the area with COLL_JOBS_DEFINE(bytes): a word-aligned
 * array named `rvmesh_jobs` in section .rvmesh_jobs (linker/node.ld: NOLOAD, and not .bss,
 * so crt0 leaves what the host wrote; its ELF symbol carries its size). Before reset the host
 * writes, into every node's copy: the header, the job records, and that node's tables (a
 * node's table for job j starts at table_off of record j; tables are 8-byte aligned). A
 * program run without a host finds magic == 0 and has no jobs.
 *
 * Header (COLL_JOBS_HEADER_BYTES = 48):
 *   off  field     written by  meaning
 *    0   magic     host        COLL_JOBS_MAGIC
 *    4   version   host        COLL_JOBS_VERSION
 *    8   count     host        job records that follow the header
 *   12   flags     host        COLL_JOBS_HOST_CHECK: the two barriers below
 *   16   done      node        j + 1 once job j has ended (buffers final, record filled in)
 *   20   ack       host        j + 1 once the host has checked job j on every node
 *   24   bytes     host        size of the area (the symbol's size)
 *   28   node      host        the node id this copy belongs to (x + X*(y + Y*z))
 *   32   ready     node        j + 1 once job j is set up (buffers filled, plan compiled)
 *   36   go        host        j + 1 once every node is ready for job j
 *   40   reserved  0
 *   44   reserved  0
 * With COLL_JOBS_HOST_CHECK a job is two barriers the host holds: a node sets its job up
 * (buffers, the plan), writes ready = j + 1 and waits for go == j + 1, which the host writes
 * into every node in the same cycle once all are ready; then it runs the collective (timed),
 * writes done = j + 1 and waits for ack == j + 1, which the host writes once it has checked
 * every node's buffers. So every node starts the collective in the same cycle, and set-up
 * and checks stay out of what is timed.
 * Job record j (COLL_JOBS_RECORD_BYTES = 64) at 48 + 64*j:
 *    0   table_off   host  offset of this node's table from the start of the area
 *    4   table_bytes host  its length (sched_table.h: the node's table of the job's file)
 *    8   msg_bytes   host  m: bytes of one block (one source's message to one node)
 *   12   seed        host  seed of the data pattern (coll_pattern)
 *   16   setup       node  cycles the node spent compiling the collective's plan
 *   20   reserved    0
 *   ...
 *   32   status      node  COLL_OK or a negative COLL_E* (the node prints why)
 *   36   cycle_start node  mcycle (low word) when the collective was started
 *   40   cycle_end   node  mcycle (low word) when it was complete on the node
 *   44   recv_addr   node  address of the result buffer (coll_result_offset says where each
 *                          block lies in it); 0 if the node has no result (gather, non-root)
 *   48   recv_bytes  node  its length
 *   52   send_addr   node  address of the send buffer (0 if none)
 *   56   err_src     node  on a duplicated or unexpected worm: the sender's node id
 *   60   err_step    node  ... and the step this node was in (0 when no such error)
 *
 * Blocks and pieces. A block is the message one source has for one node (or for all):
 *   bcast            block 0 (the root's buffer)
 *   scatter          block t: the root's message for node t
 *   gather           block s: node s's message for the root
 *   allgather        block s: node s's message for everyone (partial: sources only)
 *   alltoall         block s*N + t: node s's message for node t (partial: sources only)
 * The schedule's pieces are blocks cut into parts equal parts (the table's, sched_table_parts:
 * 1 except for the split algorithms): piece k is part k % parts of block k / parts, bytes
 * [(k % parts) * m / parts, (k % parts + 1) * m / parts) of it. m must be a multiple of
 * 4 * parts.
 *
 * Contents: byte i of block b is coll_pattern(seed, b, i). Before a collective a node fills
 * its send buffer with its blocks and its result buffer with COLL_POISON. After it, the
 * result buffer must hold, at coll_result_offset(...), every block the collective gives the
 * node (including its own where MPI copies it: scatter's root, allgather, alltoall), and
 * COLL_POISON everywhere else.
 */
#ifndef RVMESH_COLL_JOBS_H
#define RVMESH_COLL_JOBS_H

#include <stdint.h>

#define COLL_JOBS_MAGIC 0x424a5652u /* "RVJB" in memory order */
#define COLL_JOBS_VERSION 2u
#define COLL_JOBS_HEADER_BYTES 48u
#define COLL_JOBS_RECORD_BYTES 64u
#define COLL_JOBS_HOST_CHECK 1u
#define COLL_POISON 0xa5u

/* header word offsets */
#define COLL_JOBS_MAGIC_OFF 0u
#define COLL_JOBS_VERSION_OFF 4u
#define COLL_JOBS_COUNT_OFF 8u
#define COLL_JOBS_FLAGS_OFF 12u
#define COLL_JOBS_DONE_OFF 16u
#define COLL_JOBS_ACK_OFF 20u
#define COLL_JOBS_BYTES_OFF 24u
#define COLL_JOBS_NODE_OFF 28u
#define COLL_JOBS_READY_OFF 32u
#define COLL_JOBS_GO_OFF 36u
/* record word offsets (add COLL_JOBS_HEADER_BYTES + j * COLL_JOBS_RECORD_BYTES) */
#define COLL_JOB_TABLE_OFF 0u
#define COLL_JOB_TABLE_BYTES 4u
#define COLL_JOB_MSG_BYTES 8u
#define COLL_JOB_SEED 12u
#define COLL_JOB_SETUP 16u
#define COLL_JOB_STATUS 32u
#define COLL_JOB_CYCLE_START 36u
#define COLL_JOB_CYCLE_END 40u
#define COLL_JOB_RECV_ADDR 44u
#define COLL_JOB_RECV_BYTES 48u
#define COLL_JOB_SEND_ADDR 52u
#define COLL_JOB_ERR_SRC 56u
#define COLL_JOB_ERR_STEP 60u

#define COLL_JOBS_DEFINE(nbytes) \
    uint32_t rvmesh_jobs[((nbytes) + 3u) / 4u] __attribute__((aligned(8), used, section(".rvmesh_jobs")))

/* Byte i of block b (any seed): a cheap hash, so that a block moved to the wrong place, a
 * shifted block or a stale one never passes for the right one. */
static inline uint8_t coll_pattern(uint32_t seed, uint32_t block, uint32_t i)
{
    uint32_t h = seed * 0x9e3779b1u ^ block * 0x85ebca77u ^ (i >> 2) * 0xc2b2ae3du;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return (uint8_t)(h >> (8u * (i & 3u)));
}

/* Where block b lies in node `node`'s result buffer (collective numbers of sched.h and
 * sched_coll.h), or UINT32_MAX if the node's result does not hold block b. */
static inline uint32_t coll_result_offset(uint32_t collective, uint32_t nodes, uint32_t root, uint32_t node,
                                          uint32_t block, uint32_t m)
{
    switch (collective) {
    case 1u: /* bcast: every node, block 0 */
        return block == 0u ? 0u : UINT32_MAX;
    case 2u: /* scatter: node t, block t */
        return block == node ? 0u : UINT32_MAX;
    case 3u: /* gather: the root, block s at s*m */
        return (node == root && block < nodes) ? block * m : UINT32_MAX;
    case 16u: /* allgather */
    case 18u: /* partial allgather */
        return block < nodes ? block * m : UINT32_MAX;
    case 17u: /* alltoall: block s*N + t at node t, at s*m */
    case 19u: /* partial alltoall */
    case 20u: /* partial gather (only the destinations get blocks, never their own) */
        return (block % nodes == node && block / nodes < nodes) ? (block / nodes) * m : UINT32_MAX;
    default:
        return UINT32_MAX;
    }
}

/* Bytes of node `node`'s result buffer. */
static inline uint32_t coll_result_bytes(uint32_t collective, uint32_t nodes, uint32_t root, uint32_t node,
                                         uint32_t m)
{
    switch (collective) {
    case 1u:
    case 2u:
        return m;
    case 3u:
        return node == root ? nodes * m : 0u;
    case 16u:
    case 17u:
    case 18u:
    case 19u:
    case 20u:
        return nodes * m;
    default:
        return 0u;
    }
}

#endif
