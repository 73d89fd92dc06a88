/* rvmesh per-node schedule table: the binary format the host writes and the firmware reads.
 *
 * All fields little endian, fixed width, no padding between records; read byte by byte so
 * any alignment works. One table per node; a tables file is the tables of nodes 0..N-1 in
 * order, each starting right after the previous one (total_bytes says where).
 *
 * Header (SCHED_TABLE_HEADER_BYTES = 48):
 *   off size field
 *    0   4   magic         0x54535652 ("RVST" in memory order)
 *    4   2   version       SCHED_TABLE_VERSION (1)
 *    6   2   header_bytes  48
 *    8   4   total_bytes   header + sends + receives
 *   12   1   dims          2 or 3
 *   13   1   torus         0 mesh, 1 torus
 *   14   1   algo          sched_algo
 *   15   1   collective    sched_collective
 *   16   2   side0
 *   18   2   side1
 *   20   2   side2         1 for 2-D
 *   22   1   model         sched_model
 *   23   1   reserved      0
 *   24   4   root          node id of the root
 *   28   4   node          node id this table belongs to
 *   32   2   nsteps        steps (slots) of the whole schedule
 *   34   2   nsend         send records
 *   36   2   nrecv         receive records
 *   38   2   parts         pieces a block is cut into (sched_coll_parts: 1; dims for the
 *                          split MNBs; trees x chunks for bcast-edst). 0 in tables written
 *                          before this field: then sched_table_parts() derives it from algo
 *   40   4   checksum      FNV-1a 32 over the whole table with this field read as 0
 *   44   4   reserved      0
 * Send record (SCHED_TABLE_SEND_BYTES = 20), sorted by step then port:
 *    0   2   step          1-based
 *    2   1   port          2*start_dim + (0: + side, 1: - side)
 *    3   1   flags         SCHED_MSG_TRANSIT (sched_coll.h): the receiver relays the piece
 *                          and does not keep it; 0: a delivery (other bits 0)
 *    4   2   hops0         signed hop count in dimension 0 (what the router header carries)
 *    6   2   hops1
 *    8   2   hops2
 *   10   2   reserved      0
 *   12   4   dst           receiver node id
 *   16   4   piece         data piece carried
 * Receive record (SCHED_TABLE_RECV_BYTES = 12), sorted by step then port:
 *    0   2   step
 *    2   1   port          port it arrives on: 2*dim + (0: from the + side, 1: from the - side)
 *    3   1   flags         SCHED_MSG_TRANSIT: this node relays the piece (keeps it only in a
 *                          transit slot until it sends it on); 0: the piece is delivered here
 *    4   4   src           sender node id
 *    8   4   piece
 * Node id = x0 + side0 * (x1 + side1 * x2).
 * The flags byte was "reserved 0" before; tables written then carry 0 there, which is right
 * for them (broadcast, scatter and gather have no relays), so the version stays 1. The parts
 * field was "reserved 0" too: a reader of this version takes 0 as "not recorded" and derives
 * the parts from the algorithm as before, and older readers ignore it, so the version stays 1.
 */
#ifndef RVMESH_SCHED_TABLE_H
#define RVMESH_SCHED_TABLE_H

#include <stdint.h>

#include "sched.h"

#define SCHED_TABLE_MAGIC 0x54535652u
#define SCHED_TABLE_VERSION 1u
#define SCHED_TABLE_HEADER_BYTES 48u
#define SCHED_TABLE_SEND_BYTES 20u
#define SCHED_TABLE_RECV_BYTES 12u

enum {
    SCHED_TABLE_OK = 0,
    SCHED_TABLE_ERR_SHORT = -1,     /* buffer shorter than the header or than total_bytes */
    SCHED_TABLE_ERR_MAGIC = -2,     /* not a schedule table */
    SCHED_TABLE_ERR_VERSION = -3,   /* written by another version of the format */
    SCHED_TABLE_ERR_SHAPE = -4,     /* built for another shape (dims, sides or torus flag) */
    SCHED_TABLE_ERR_NODE = -5,      /* belongs to another node */
    SCHED_TABLE_ERR_LAYOUT = -6,    /* counts and total_bytes disagree */
    SCHED_TABLE_ERR_CHECKSUM = -7,  /* contents damaged */
    SCHED_TABLE_ERR_SPACE = -8      /* writer: output buffer too small */
};

typedef struct {
    uint16_t version;
    uint32_t total_bytes;
    sched_shape shape;
    uint8_t algo, collective, model;
    uint32_t root, node;
    uint16_t nsteps, nsend, nrecv;
    uint16_t parts;                 /* as written (0: not recorded); use sched_table_parts() */
    const uint8_t *base;            /* start of the table */
} sched_table;

typedef struct {
    uint16_t step;
    uint8_t port;
    uint8_t flags;                  /* msg.reserved & SCHED_MSG_TRANSIT */
    int16_t hops[SCHED_MAX_DIMS];
    uint32_t dst, piece;
} sched_table_send;

typedef struct {
    uint16_t step;
    uint8_t port;
    uint8_t flags;                  /* SCHED_MSG_TRANSIT: relayed here, not delivered */
    uint32_t src, piece;
} sched_table_recv;

/* Validates one table at buf (len bytes available) against the expected shape (all fields
 * of sched_shape must match) and, unless expect_node is UINT32_MAX, the node id. */
int sched_table_open(const uint8_t *buf, uint32_t len, const sched_shape *expect, uint32_t expect_node,
                     sched_table *out);
/* Finds and validates the table of `node` in a tables file. */
int sched_table_find(const uint8_t *file, uint32_t len, const sched_shape *expect, uint32_t node,
                     sched_table *out);
void sched_table_get_send(const sched_table *t, uint32_t i, sched_table_send *out);
void sched_table_get_recv(const sched_table *t, uint32_t i, sched_table_recv *out);
const char *sched_table_strerror(int code);
/* Pieces a block is cut into: piece k is part k % parts of block k / parts (firmware/coll). The
 * recorded field, or for tables that do not record it the algorithm's rule (the split MNBs,
 * algorithms 33 and 38, cut a block into dims parts; the others do not cut). */
uint32_t sched_table_parts(const sched_table *t);

/* Writer (portable, no allocation, O(messages)): bytes the table of `node` needs, and the
 * table itself into buf. Returns bytes written or a negative SCHED_TABLE_ERR_*. */
uint32_t sched_table_bytes(const sched_schedule *s, uint32_t node);
int32_t sched_table_write(const sched_schedule *s, uint32_t node, uint8_t *buf, uint32_t cap);

#endif
