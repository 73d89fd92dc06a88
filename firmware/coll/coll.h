/* rvmesh collectives: MPI-like calls that run a per-node schedule table (sched_table.h,
 * written by `schedgen --tables`) on the link-port NI (firmware/drivers/linkport.h).
 *
 * Every call runs the same table-driven engine. For step s = 1 .. nsteps of the table it
 * starts every send of step s (the piece comes from the send buffer, the result buffer or a
 * transit slot) and receives worms until every receive of step s is done, moving the flits
 * of all ports interleaved without ever stalling in the NI (it reads PORT_STATUS / RX_AVAIL
 * / TX_STATUS before every pop and push). Worms of later steps that arrive early (other
 * nodes run ahead) are accepted and stored where they belong; a worm that matches no
 * pending receive (duplicate, stray) is drained and reported (COLL_EUNEXPECTED).
 *
 * A worm: NOC_HEAD(hops..., start dimension, tag = step & 63), NOC_INFO(this node, flits),
 * the piece number, then the piece's m / parts / 4 payload words.
 *
 * Speed. With DMA engines in the NI (version 2, ctx->use_dma) the core writes and reads
 * each worm's first three flits and hands the payload to the port's engine (payloads of one
 * or two words it moves itself): 1.7 cycles per flit a node sends or receives for 1 KiB
 * blocks (all-port exchange, tests/sim/mesh/progs/coll_bench.c; allgather mnb-diag 1 KiB on
 * the 4x4 torus: 14,050 cycles). Without (use_dma = 0, NI version 1, or buffers outside the
 * RAM) the core moves every flit: TX queues are written only when empty, four flits per
 * status read; RX queues one status read per flit, a burst per port visit: about 15
 * cycles per flit at 1 KiB (the driver's flit-by-flit ni_exchange: 45). What is left is
 * per worm and per step: about 100-150 instructions of the engine each (coll.c, "the
 * engine"), which dominate small blocks.
 *
 * Blocks, pieces and where they live (firmware/coll/coll_jobs.h has the definitions):
 *   call                send buffer (owner only)        result buffer
 *   coll_bcast          in place: the root's buf holds block 0; every node ends with it in buf
 *   coll_scatter        root: block t at t*m (N*m)       every node: its block (m)
 *   coll_gather         every node: its block (m)        root: block s at s*m (N*m)
 *   coll_allgather      every node: its block (m)        block s at s*m (N*m)
 *   coll_alltoall       block node*N+t at t*m (N*m)      block s*N+node at s*m (N*m)
 *   *_partial           as above, sources only           blocks of sources only
 * MPI copies a node's own block into its result (scatter's root, gather's root, allgather,
 * alltoall and the partial ones on a source); that copy is part of the call.
 * Buffers must be word aligned; m must be a non-zero multiple of 4 * parts (parts =
 * coll_parts(table algo, dims): the split algorithms cut each block into dims pieces).
 *
 * No allocation: the caller gives a workspace (coll_init) that holds a 16-byte descriptor
 * per send and receive record (and two per round of the start barrier, plus one word),
 * and one slot per transit receive (a piece relayed, not delivered here; each keeps its
 * own slot for the whole call, since early arrivals make reuse unsafe).
 * coll_workspace_bytes() says how much a call needs; a call with too little fails before
 * anything is sent.
 *
 * Every error returns a negative COLL_E* and prints why on the console ("node (x,y): ...").
 *
 * Calls in a row: every node must make the same calls in the same order (as in MPI). A node
 * that has finished a call may start sending the next one's worms while its neighbours are
 * still in this one; without sync_start those would be reported as unexpected, so either
 * separate calls by a barrier of your own (mesh-sim's jobs handshake is one) or set
 * ctx->sync_start: then no collective worm leaves a node before every node has entered the
 * call, and the barrier's own early tokens are kept for the next call. A call that one node
 * refuses (a buffer too small there, say) ends with COLL_ETIMEOUT on the others, which wait
 * in its barrier; the barrier tokens it leaves behind are dropped by the next call, which
 * then runs normally (with sync_start).
 */
#ifndef RVMESH_COLL_H
#define RVMESH_COLL_H

#include <stdint.h>

#include "linkport.h"
#include "sched_table.h"

enum {
    COLL_OK = 0,
    COLL_ENI = -1,          /* no NI of version 1, or coll_init not called */
    COLL_EARG = -2,         /* a null or misaligned pointer */
    COLL_EROOT = -3,        /* root is not a node of this machine */
    COLL_EROOT_TABLE = -4,  /* root differs from the root the table was built for */
    COLL_ESIZE = -5,        /* m is 0, not a multiple of 4 * parts, or too long for a worm */
    COLL_ESEND_SPACE = -6,  /* send buffer smaller than the call needs */
    COLL_ERECV_SPACE = -7,  /* result buffer smaller than the call needs */
    COLL_EWORKSPACE = -8,   /* workspace smaller than coll_workspace_bytes() */
    COLL_ESHAPE = -9,       /* table built for another machine shape */
    COLL_ENODE = -10,       /* table of another node */
    COLL_ETABLE = -11,      /* table damaged or inconsistent (sched_table_open, records) */
    COLL_ECOLLECTIVE = -12, /* the table's collective is not the one called */
    COLL_EUNEXPECTED = -13, /* a worm matched no pending receive (duplicate or stray) */
    COLL_EWORM = -14,       /* a malformed worm (no head, wrong length) */
    COLL_EREFUSED = -15,    /* the NI refused a worm of ours (its route leaves the machine) */
    COLL_ETIMEOUT = -16,    /* no progress for ctx->timeout_cycles */
    COLL_EDMA = -17         /* the NI refused a DMA start (it should not: the engines get checked RAM) */
};

typedef struct {
    struct ni_shape ni;           /* this machine and node, from the NI */
    sched_shape shape;            /* the same, as the tables spell it */
    uint8_t *workspace;           /* word aligned */
    uint32_t workspace_bytes;
    uint32_t timeout_cycles;      /* give up after this many cycles without a flit; 0: never */
    uint8_t quiet;                /* 1: do not print errors (the codes still say what) */
    uint8_t use_dma;              /* 1 (coll_init's choice on an NI with DMA engines, version
                                   * 2): payloads move by the port's DMA engines, the core
                                   * writes and reads only each worm's head, info and piece
                                   * flits; 0: the core moves every flit */
    uint8_t sync_start;           /* 1: every call starts with a barrier of all nodes (a
                                   * dissemination barrier, ceil(log2 N) rounds of one-word
                                   * worms), so that the collective proper starts on all
                                   * nodes together (start_cycle says when), and calls may
                                   * follow each other directly (see below) */
    uint32_t calls;               /* calls made with sync_start, refused ones too (numbers
                                   * the barrier tokens) */
    uint32_t early_tokens;        /* bit r-1: the next call's round-r token came already */
    uint32_t stale_tokens;        /* barrier tokens of earlier calls that were dropped (left
                                   * by a call some node refused while the others waited) */
    uint8_t initialised;
    /* about the last call */
    uint32_t err_src;             /* COLL_EUNEXPECTED: the sender's node id ... */
    uint32_t err_step;            /* ... and this node's step then (0: no such error) */
    uint32_t err_piece;
    uint32_t flits_sent;          /* flits this node wrote / read, headers included */
    uint32_t flits_received;
    uint32_t setup_cycles;        /* of the call: checks, descriptors, own-block copy */
    uint32_t start_cycle;         /* mcycle when the table's step 1 began (after the barrier) */
} coll_ctx;

/* Reads the shape and this node from the NI. workspace: word aligned, or NULL with 0 bytes
 * for calls that need none. COLL_ENI without an NI. */
int coll_init(coll_ctx *ctx, void *workspace, uint32_t workspace_bytes);

/* Validates a table (sched_table_open) against this machine's shape and this node:
 * COLL_ESHAPE, COLL_ENODE or COLL_ETABLE (damaged, truncated, another format version). */
int coll_open_table(coll_ctx *ctx, const void *table_bytes, uint32_t len, sched_table *table);

/* Workspace bytes a call with this table and m needs (0 if m or the table is unusable). */
uint32_t coll_workspace_bytes(const coll_ctx *ctx, const sched_table *table, uint32_t m);
/* Whether this node starts with data in the table's collective (the root of bcast/scatter,
 * every node of gather/allgather/alltoall, the sources of the partial ones). */
int coll_node_has_data(const coll_ctx *ctx, const sched_table *table);
/* Bytes of this node's send / result buffer for the table's collective and m (the sizes
 * of the table above; 0 when the node needs none). For bcast both are m (one buffer). */
uint32_t coll_send_bytes(const coll_ctx *ctx, const sched_table *table, uint32_t m);
uint32_t coll_recv_bytes(const coll_ctx *ctx, const sched_table *table, uint32_t m);

const char *coll_strerror(int code);

/* The collectives. send_bytes / recv_bytes are the capacities of the buffers; root is a
 * node id (x + X*(y + Y*z)). A node without a send (or result) buffer in the table above
 * may pass NULL and 0. */
int coll_bcast(coll_ctx *ctx, const sched_table *table, void *buf, uint32_t buf_bytes, uint32_t m,
               uint32_t root);
int coll_scatter(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes, void *recv,
                 uint32_t recv_bytes, uint32_t m, uint32_t root);
int coll_gather(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes, void *recv,
                uint32_t recv_bytes, uint32_t m, uint32_t root);
int coll_allgather(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes, void *recv,
                   uint32_t recv_bytes, uint32_t m);
int coll_alltoall(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes, void *recv,
                  uint32_t recv_bytes, uint32_t m);
/* The source set is the table's (schedgen --sources); a non-source passes send NULL, 0. */
int coll_allgather_partial(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes,
                           void *recv, uint32_t recv_bytes, uint32_t m);
int coll_alltoall_partial(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes,
                          void *recv, uint32_t recv_bytes, uint32_t m);

/* Any of the above, picked by the table's collective (root = the table's root): what a
 * program that runs whatever tables it is given calls. For bcast, recv is the buffer (in
 * place: the root's holds block 0) and send is ignored. */
int coll_run(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes, void *recv,
             uint32_t recv_bytes, uint32_t m);

#endif
