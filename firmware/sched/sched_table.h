/* SPDX-License-Identifier: ISC */
/* rvmesh per-node schedule table: the binary format the host writes and the firmware reads.
 *
 * All fields little endian, fixed width, no padding between records; read byte by byte so
 * any alignment works. One table per node; a tables file is the tables of nodes 0..N-1 in
 * order, each starting right after the previous one (total_bytes says where).
 *
 * Header (SCHED_TABLE_HEADER_BYTES = 48):
 *   off size field
 *    0   4   magic         0x54535652 ("RVST" in memory order)
 *    4   2   version       SCHED_TABLE_VERSION (2)
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
 *   23   1   line          0: a table of the machine; 1 + d: a table of the line along dimension
 *                          d through `node` (a row, d = 0, a column, d = 1, of a 2-D or 3-D
 *                          machine, a pillar, d = 2, of a 3-D one: MPI_Cart_sub), whose
 *                          schedule was built for that line as a
 *                          shape of its own: root, dst and src are ranks on the line (the
 *                          coordinate d), its routes move in dimension d alone; 4: a table
 *                          of the XY plane through `node` of a 3-D machine, built for the
 *                          2-D machine XxY: ranks x + X*y, routes and ports in x and y (the
 *                          machine's); SCHED_LINE_BLOCK(bx, by) (0x40 .. 0x7f): a table of the
 *                          bx x by block (sub-rectangle) through `node` of a 2-D machine cut
 *                          into equal blocks, built for the 2-D mesh bxxby (a torus only when
 *                          the block is the whole torus): ranks (x % bx) + bx * (y % by), routes
 *                          inside the block. shape and node stay the machine's, so loaders
 *                          check it as any other table
 *   24   4   root          node id of the root
 *   28   4   node          node id this table belongs to
 *   32   2   nsteps        steps (slots) of the whole schedule
 *   34   2   nsend         send records
 *   36   2   nrecv         receive records
 *   38   2   parts         pieces a block is cut into (sched_coll_parts: 1; dims for the
 *                          split MNBs; trees x chunks for bcast-edst)
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
 *   10   2   rslot         TRANSIT: the receiver's transit slot for the piece, the number of
 *                          its transit receives before this one in its table; else 0
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
 * Transit: a receive is transit when the receiver only relays the piece: the generator
 * marked it so (SCHED_MSG_TRANSIT), or the collective does not leave that piece there
 * (sched_table_kept: the scatter and gather trees' relays, alltoall's pieces for others).
 * Version 2 (this one) marks every transit receive and its send, and adds rslot and parts,
 * so that a sender can put a relayed piece straight into its receiver's slot (the NI's
 * plans, firmware/coll); version 1 tables are refused: regenerate them with schedgen.
 */
#ifndef RVMESH_SCHED_TABLE_H
#define RVMESH_SCHED_TABLE_H

#include <stdint.h>

#include "sched.h"

#define SCHED_TABLE_MAGIC 0x54535652u
#define SCHED_TABLE_VERSION 2u
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
    uint8_t line;                   /* 0: the machine's; 1 + d: a line's (byte 23, above) */
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
    uint16_t rslot;                 /* SCHED_MSG_TRANSIT: the receiver's transit slot */
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
/* Whether the collective leaves `piece` (of `parts` per block) at `node` (else a receive of
 * it there is a relay): every piece of a broadcast, scatter's blocks only at their node,
 * gather's only at the root, alltoall's block s*N+t only at t, allgather's everywhere. */
int sched_table_kept(uint32_t collective, uint32_t nodes, uint32_t root, uint32_t parts, uint32_t node,
                     uint32_t piece);

/* sched_table_open without the checksum: every other check (magic, version, shape, node,
 * layout, length), in constant time. For tables whose checksum a loader has checked (a
 * program's area, below); sched_table_open is this plus the checksum. */
int sched_table_open_header(const uint8_t *buf, uint32_t len, const sched_shape *expect, uint32_t expect_node,
                            sched_table *out);

/* ---- A program's tables: per-node areas, and the package of every node's area ----
 * A program built with the application kit (kit/README.md) names the collectives it uses;
 * `schedgen --package` writes their tables grouped by node. Node v's AREA is all that node v
 * holds: a header, one entry per table, then its own table of each (the sched_table format
 * above, each at a multiple of 4 bytes). The PACKAGE is a header naming the shape, then the
 * areas of nodes 0..N-1 back to back. It rides in the program's ELF in a section that is
 * not loaded (.rvmesh_package); the loader (mesh-sim; a board's flasher) checks it against
 * the machine (shape, every checksum) before reset and writes node v's area into node v's
 * RAM at the symbol rvmesh_tables, which the image reserves (NOLOAD) at the package's
 * area_bytes. The node then opens its tables in constant time (sched_area_open and
 * sched_table_open_header: no checksum walk, the loader did that).
 *
 * Package header (SCHED_PKG_HEADER_BYTES = 32):
 *   off size field
 *    0   4   magic         0x4b505652 ("RVPK" in memory order)
 *    4   2   version       SCHED_PKG_VERSION (1)
 *    6   2   header_bytes  32
 *    8   4   total_bytes   header + every area
 *   12   1   dims
 *   13   1   torus
 *   14   2   entries       entries per area
 *   16   2   side0
 *   18   2   side1
 *   20   2   side2
 *   22   2   reserved      0
 *   24   4   nodes         areas that follow (node 0 first)
 *   28   4   area_bytes    the largest area: what the image reserves at rvmesh_tables
 * Area header (SCHED_AREA_HEADER_BYTES = 32):
 *    0   4   magic         0x41545652 ("RVTA")
 *    4   2   version       SCHED_PKG_VERSION
 *    6   2   header_bytes  32
 *    8   4   total_bytes   header + entries + tables (a multiple of 8)
 *   12   1   dims
 *   13   1   torus
 *   14   2   count         entries
 *   16   2   side0
 *   18   2   side1
 *   20   2   side2
 *   22   2   reserved      0
 *   24   4   node          the node whose area this is
 *   28   4   checksum      FNV-1a 32 over total_bytes with this field read as 0
 * Entry (SCHED_AREA_ENTRY_BYTES = 24), in the order the program declared them; a collective
 * may have several (the variants of "default": the kit runs the last one that suits m):
 *    0   1   collective    sched_collective (sched.h, sched_coll.h)
 *    1   1   algo          sched_algo
 *    2   2   parts         pieces a block is cut into (m must be a multiple of 4 * parts)
 *    4   4   root          the root the table was built for (0 for collectives without one)
 *    8   4   min_bytes     the variant is for blocks of at least this many bytes
 *   12   4   table_off     where this node's table starts, from the area's start
 *   16   4   ws_fixed      the most workspace any node's plan of this table needs besides its
 *                          barrier and its transit slots: 16 * (nsend + 1) + 12 * nrecv
 *   20   2   ws_transit    the most transit receives of any node (each a slot of m / parts)
 *   22   1   flags         the table's line (its byte 23): 0 the machine, 1 its rows, 2 its columns,
 *                          3 its pillars (z), 4 its XY planes, SCHED_LINE_BLOCK(bx, by) its blocks
 *   23   1   reserved      0
 * Maxima over the nodes, not this node's own figures: every node then makes the same choice
 * among the variants for the same m.
 */
/* byte 23 (`line`) of a block's table: 0x40 | (bx - 1) << 3 | (by - 1), sides 1 .. 8 */
#define SCHED_LINE_BLOCK(bx, by) ((uint8_t)(0x40u | ((uint32_t)(bx) - 1u) << 3 | ((uint32_t)(by) - 1u)))
#define SCHED_LINE_IS_BLOCK(line) (((uint32_t)(line) & 0xc0u) == 0x40u)
#define SCHED_LINE_BLOCK_X(line) ((((uint32_t)(line) >> 3) & 7u) + 1u)
#define SCHED_LINE_BLOCK_Y(line) (((uint32_t)(line) & 7u) + 1u)
#define SCHED_BLOCK_MAX_SIDE 8u

#define SCHED_PKG_MAGIC 0x4b505652u
#define SCHED_AREA_MAGIC 0x41545652u
#define SCHED_PKG_VERSION 1u
#define SCHED_PKG_HEADER_BYTES 32u
#define SCHED_AREA_HEADER_BYTES 32u
#define SCHED_AREA_ENTRY_BYTES 24u

enum {
    SCHED_AREA_ERR_MAGIC = -20,     /* no area (nothing written there, or not an area) */
    SCHED_AREA_ERR_VERSION = -21,   /* another version of the format */
    SCHED_AREA_ERR_SHAPE = -22,     /* built for another shape */
    SCHED_AREA_ERR_NODE = -23,      /* the area of another node */
    SCHED_AREA_ERR_LAYOUT = -24,    /* sizes disagree, an entry's table outside the area, or truncated */
    SCHED_AREA_ERR_CHECKSUM = -25   /* contents damaged */
};

typedef struct {
    uint16_t version;
    uint32_t total_bytes;
    sched_shape shape;
    uint16_t count;
    uint32_t node;
    const uint8_t *base;
} sched_area;

typedef struct {
    uint8_t collective, algo;
    uint16_t parts;
    uint32_t root, min_bytes, table_off, ws_fixed;
    uint16_t ws_transit;
    uint8_t flags;
} sched_area_entry;

typedef struct {
    uint16_t version;
    uint32_t total_bytes;
    sched_shape shape;
    uint16_t entries;
    uint32_t nodes, area_bytes;
    const uint8_t *base;
} sched_pkg;

/* Validates an area header (magic, version, shape, node unless UINT32_MAX, sizes, every
 * entry's table inside it) in O(entries); with check_sum also its checksum (O(bytes)). */
int sched_area_open(const uint8_t *buf, uint32_t len, const sched_shape *expect, uint32_t expect_node,
                    int check_sum, sched_area *out);
void sched_area_get_entry(const sched_area *a, uint32_t i, sched_area_entry *out);
/* Validates a package header and finds node v's area in it (O(nodes): for loaders). Returns
 * SCHED_TABLE_OK, or a SCHED_AREA_ERR_* (SHAPE when expect is given and differs). */
int sched_pkg_open(const uint8_t *buf, uint32_t len, const sched_shape *expect, sched_pkg *out);
int sched_pkg_area(const sched_pkg *p, uint32_t node, const uint8_t **area, uint32_t *area_len);

/* Whether the receiver of m only relays its piece (SCHED_MSG_TRANSIT, or sched_table_kept says
 * the collective does not leave it there). */
int sched_table_transit(const sched_schedule *s, const sched_msg *m);
/* Writer (portable, no allocation, O(messages)): bytes the table of `node` needs, and the
 * table itself into buf. Returns bytes written or a negative SCHED_TABLE_ERR_*. The transit
 * slots (rslot) are counted over s's messages, or taken from s->rslot: a writer that hands
 * it part of a schedule (the messages of one node) must fill s->rslot from the whole. */
uint32_t sched_table_bytes(const sched_schedule *s, uint32_t node);
int32_t sched_table_write(const sched_schedule *s, uint32_t node, uint8_t *buf, uint32_t cap);

#endif
