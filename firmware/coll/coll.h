/* SPDX-License-Identifier: ISC
 * rvmesh collectives: MPI-like calls that run a per-node schedule table (sched_table.h,
 * written by `schedgen --tables`) on the network interface's plan engines (NI version 3,
 * firmware/drivers/linkport.h, rtl/tile/README.md "Plans").
 *
 * Persistent plans (as MPI-4's persistent collectives): coll_plan_init compiles a table,
 * the buffers and the block size m into the NI's send descriptors once; coll_plan_start
 * posts them and returns at once; coll_plan_test / coll_plan_wait say when the collective
 * is done. Start and wait as often as you like; each start is one collective. The blocking
 * calls (coll_bcast ... coll_alltoall_partial, coll_run) are init + start + wait on the
 * context's workspace.
 *
 * How a plan runs. Every send of the table is a descriptor in the list of the port it
 * leaves by: the worm's head, where its piece lies (the send buffer, the result buffer or
 * a transit slot) and, for a piece this node relays, a trigger: the NI's counter of the
 * port the piece arrives on must have counted the arrival. Every worm is a put: it names
 * the window (0: the receiver's result buffer, 1: its transit slots) and the offset it
 * goes to, and the counter that counts it (the port it arrives on). So a relay starts in
 * hardware the moment its piece is in RAM, and the core is out of the loop until
 * PLAN_STATUS says every list is sent and every port has counted its receives. With the
 * NI's RAM lines of 4 words or more (the simulated machine's 16) counters count lines of
 * puts, not puts, and a relay starts once the first line of its piece is in, following it
 * line by line (cut-through: rtl/tile/README.md, "Cut-through relays").
 * A piece that arrives on port q as the j-th receive there (in table order) triggers its
 * relays at counter q >= j: worms that cross one link come in the order they were sent, so
 * this needs every port's receives to come from one neighbour (store-and-forward
 * schedules), or the port to have just one receive, or no relay to depend on it; a table
 * that breaks this is refused (COLL_ETABLE).
 * Wormhole schedules (a worm crosses many links: Tsay-Wang, Cang-Wu, the baselines) start
 * with a dissemination barrier of signals in hardware (ceil(log2 N) rounds): a node's puts
 * of the next collective must not reach a node still in this one, where they would wait
 * in the network across other worms' paths. Store-and-forward plans need none: a put of a
 * plan the receiver has not started waits at that receiver's port, where only its own
 * link's worms queue behind it (ctx->sync_start adds the barrier to them too).
 * A node sends round r once it has heard all of rounds 0..r-1 (the rounds are linked on
 * the NI's local port, coll_internal.h), so no node leaves the barrier before every node
 * has entered it. (Until 2026-11-26 round r waited for round r-1 alone, and a late node 0
 * was passed by nodes 5, 9 and 13 on the 4x4 torus.)
 *
 * Blocks, pieces and where they live (firmware/coll/coll_jobs.h has the definitions):
 *   call                send buffer (owner only)        result buffer
 *   coll_bcast          in place: the root's buf holds block 0; every node ends with it in buf
 *   coll_scatter        root: block t at t*m (N*m)       every node: its block (m)
 *   coll_gather         every node: its block (m)        root: block s at s*m (N*m)
 *   coll_allgather      every node: its block (m)        block s at s*m (N*m)
 *   coll_alltoall       block node*N+t at t*m (N*m)      block s*N+node at s*m (N*m)
 *   *_partial           as above, sources only           blocks of sources only
 *   coll_gather_partial every node: block node*N+t at     a destination t: block s*N+t at s*m
 *                       t*m for each destination t       from every other s (N*m; every
 *                       (N*m)                            node passes one, others get none)
 * MPI copies a node's own block into its result (scatter's root, gather's root, allgather,
 * alltoall and the partial ones on a source): a descriptor on the NI's local port (a TX
 * engine feeding an RX engine) puts it there, at a line per access, with the rest.
 * Buffers must be word aligned RAM; m a non-zero multiple of 4 * parts (parts =
 * sched_table_parts(table): the split algorithms cut each block into that many pieces).
 *
 * No allocation: a plan lives in the workspace given to coll_plan_init (descriptors, 16
 * bytes per send, and a transit slot per relayed piece, m / parts bytes each, kept for the
 * plan's lifetime; 12 bytes per receive for the compiler); coll_plan_workspace_bytes() says
 * how much. Every error returns a
 * negative COLL_E* and prints why on the console ("node (x,y): ...").
 */
#ifndef RVMESH_COLL_H
#define RVMESH_COLL_H

#include <stdint.h>

#include "linkport.h"
#include "sched_table.h"

enum {
    COLL_OK = 0,
    COLL_ENI = -1,          /* no NI of version 3, or coll_init not called */
    COLL_EARG = -2,         /* a null or misaligned pointer, a buffer outside RAM, buffers that overlap */
    COLL_EROOT = -3,        /* root is not a node of this machine (a rank of the communicator) */
    COLL_EROOT_TABLE = -4,  /* root differs from the root the table was built for */
    COLL_ESIZE = -5,        /* m is 0, not a multiple of 4 * parts, or too long for a worm */
    COLL_ESEND_SPACE = -6,  /* send buffer smaller than the call needs */
    COLL_ERECV_SPACE = -7,  /* result buffer smaller than the call needs */
    COLL_EWORKSPACE = -8,   /* workspace smaller than coll_plan_workspace_bytes() */
    COLL_ESHAPE = -9,       /* table built for another machine shape, or another part of it (a row, column or pillar) */
    COLL_ENODE = -10,       /* table of another node */
    COLL_ETABLE = -11,      /* table damaged, inconsistent, or not runnable in order */
    COLL_ECOLLECTIVE = -12, /* the table's collective is not the one called */
    COLL_EUNEXPECTED = -13, /* a worm fit no window or epoch of this node (ctx->err_src sent it) */
    COLL_EWORM = -14,       /* a malformed worm (its length disagrees with its info flit) */
    COLL_EREFUSED = -15,    /* the NI refused a worm of ours (its route leaves the machine) */
    COLL_ETIMEOUT = -16,    /* no progress for ctx->timeout_cycles */
    COLL_EDESC = -17,       /* the NI refused a descriptor or a window (it should not: all checked) */
    COLL_EBUSY = -18,       /* coll_plan_start on a plan that is running */
    COLL_EOVERFLOW = -19,    /* an NI counter passed 65535 */
    /* the application kit (rvmesh.h) */
    COLL_EUNDECLARED = -20,  /* a collective (or root) the program did not declare in its Makefile */
    COLL_ENOTABLES = -21     /* no tables area in this node's RAM, or one for another machine or node */
};

/* coll_plan_test: still running */
#define COLL_RUNNING 1

typedef struct {
    struct ni_shape ni;           /* this machine and node, from the NI */
    sched_shape shape;            /* the same, as the tables spell it */
    uint8_t *workspace;           /* for the blocking calls: word aligned */
    uint32_t workspace_bytes;
    uint32_t timeout_cycles;      /* a wait gives up after this many cycles without progress; 0: never */
    uint8_t quiet;                /* 1: do not print errors (the codes still say what) */
    uint8_t sync_start;           /* 1: every plan starts with the barrier (wormhole plans always do) */
    uint8_t initialised;
    uint8_t running;              /* a plan of this context has been started and not waited for */
    uint8_t barrier_target;       /* the barrier counter that has a target in the NI (+1) */
    /* coll_barrier_only's lists, built at its first call (8 rounds and their 7 links at
     * most): port p's list is barrier[barrier_first[p]], barrier_count[p] long */
    struct ni_desc barrier[15] __attribute__((aligned(16)));
    uint16_t barrier_first[NI_MAX_PORTS + 1], barrier_count[NI_MAX_PORTS + 1];
    uint8_t barrier_ready;
    uint8_t line_words;           /* the NI's RAM line (ni_line_words); 4 or more: plans relay cut-through */
    /* about the last call */
    uint32_t err_src;             /* COLL_EUNEXPECTED / COLL_EWORM: the worm's sender ... */
    uint32_t err_port;            /* ... and the port it came in on */
    uint32_t setup_cycles;        /* of the last blocking call: the plan's compilation */
    uint32_t start_cycle;         /* mcycle when the last plan's data began to move (after its barrier) */
    uint32_t end_cycle;           /* mcycle when the last wait saw it done */
    uint32_t early_signals;       /* barrier rounds whose signal had come before the last start
                                     (sent by nodes already in that call) */
} coll_ctx;

/* A communicator of part of the machine (as MPI_Cart_sub): the nodes of this node's line
 * along one dimension of a 2-D or 3-D machine (dim 0: its row, dim 1: its column, dim 2 on a
 * 3-D machine: its pillar), each line running collectives of its own at the same time as the
 * others, on the links of its line alone. Its tables are built for the line as a shape of its
 * own (Xx1, 1xY; on a 3-D machine Xx1x1, 1xYx1, 1x1xZ; torus or mesh as the machine:
 * sched_table.h, byte 23 `line`), whose node ids are ranks: rank r is machine node
 * first + r * stride (stride 1, X, X*Y). Its start barrier is over its members only: every
 * member signals every other once, counted on NI counter `counter` (COLL_COMM_COUNTER: 15 for
 * rows, 14 for columns, 7 for pillars; the machine's barrier counts on 8 .. 8 + rounds - 1). */
/* An XY plane of a 3-D machine (coll_comm_plane: dim 3, the nodes of this node's z) is one
 * too: its tables built for the 2-D machine XxY, ranks x + X*y, routes in x and y alone, its
 * barrier's signals counted on counter 13. So is a block of a 2-D machine cut into equal
 * bx x by blocks (coll_comm_block: dim 4): its tables built for the 2-D mesh bxxby (a torus
 * when the block is the whole torus), ranks x % bx + bx * (y % by), routes inside the block,
 * its barrier's signals counted on counter 7 (the pillars', which a 2-D machine lacks). */
#define COLL_COMM_MAX_SIZE 32u    /* members of a line, a plane or a block (its barrier: size - 1 signals a node, 16 bytes each) */
typedef struct {
    uint32_t rank, size;          /* this node's rank in it, its members */
    uint32_t first, stride;       /* the machine node of rank 0; node ids between ranks (a line's) */
    uint8_t dim;                  /* 0, 1, 2: the line along that dimension; 3: the XY plane; 4: a block */
    uint8_t span;                 /* the machine's dimensions its routes move in: bit d for d */
    uint8_t line;                 /* its tables' byte 23 (sched_table.h): 1 + dim, or the block's */
    uint8_t block[2];             /* a block's sides bx, by (0 for the others) */
    uint8_t counter;
    /* its start barrier's lists, built once (as the context's): a signal to each other
     * member, on a route along the line; port p's list is signal[signal_first[p]],
     * signal_count[p] long */
    struct ni_desc signal[COLL_COMM_MAX_SIZE - 1u] __attribute__((aligned(16)));
    uint16_t signal_first[NI_MAX_PORTS + 1], signal_count[NI_MAX_PORTS + 1];
} coll_comm;

/* This node's line along dimension dim (0: its row, 1: its column, 2: its pillar on a 3-D
 * machine) as a communicator. COLL_EARG for a dim the machine lacks, a line of more than
 * COLL_COMM_MAX_SIZE nodes, or a machine whose barrier leaves no counter for it (rows: more
 * than 128 nodes; columns: more than 64). */
int coll_comm_line(const coll_ctx *ctx, unsigned dim, coll_comm *comm);
/* This node's XY plane (the X*Y nodes of its z) of a 3-D machine as a communicator (rank
 * x + X*y). COLL_EARG on a 2-D machine, a plane of more than COLL_COMM_MAX_SIZE nodes, or a
 * machine of more than 32 nodes (its barrier leaves no counter for it). */
int coll_comm_plane(const coll_ctx *ctx, coll_comm *comm);
/* This node's block of a 2-D machine cut into equal bx x by blocks (a sub-rectangle, rank
 * x % bx + bx * (y % by)). COLL_EARG on a 3-D machine, sides that do not divide the machine's,
 * sides below 2 or above SCHED_BLOCK_MAX_SIDE, blocks of more than COLL_COMM_MAX_SIZE nodes. */
int coll_comm_block(const coll_ctx *ctx, unsigned bx, unsigned by, coll_comm *comm);

/* What a start writes into the NI, worked out once when a plan is compiled (the start is on
 * every call's critical path): per counter and list q <= NI_MAX_PORTS (the ports, then the
 * NI's local one; 0 past this node's ports) */
typedef struct {
    uint32_t target[NI_MAX_PORTS + 1];     /* CNT_TARGET(q): (1 << 31) | receives, or 0 */
    uint32_t list_addr[NI_MAX_PORTS + 1];  /* TXQ_ADDR(q) */
    uint32_t list_count[NI_MAX_PORTS + 1]; /* TXQ_COUNT(q); 0: no list */
} coll_start_image;

/* A start barrier as the NI counts it: counters first .. first + counters - 1 (0: no barrier),
 * the last one reaching `last`. The machine's: a counter a round from 8 (coll_internal.h); a
 * communicator's: one counter, its other members' signals. */
typedef struct {
    uint8_t first, counters;
    uint16_t last;
} coll_barrier_counts;

/* A compiled collective: what coll_plan_start posts. Fields are the library's. */
typedef struct {
    coll_ctx *ctx;
    const char *name;             /* "coll_bcast", ... for messages */
    uint8_t collective;
    coll_barrier_counts barrier;  /* its start barrier (counters 0: none) */
    uint8_t ports;
    uint32_t m;
    uint32_t recv_words, transit_words;
    uint8_t *recv;
    uint8_t *transit;
    struct ni_desc *desc;         /* the lists: port by port, then the NI's local port */
    uint16_t list_first[NI_MAX_PORTS + 1], list_count[NI_MAX_PORTS + 1];
    uint16_t recv_count[NI_MAX_PORTS + 1];   /* what each port counts in one run: puts, or their lines (coll_plan.c) */
    coll_start_image start;
    uint32_t compile_cycles;
    uint8_t started;
} coll_plan;

/* Reads the shape and this node from the NI and puts its ports in plan mode. workspace
 * (word aligned; NULL with 0 bytes for none) is what the blocking calls compile their plans
 * into. COLL_ENI without an NI of version 3. */
int coll_init(coll_ctx *ctx, void *workspace, uint32_t workspace_bytes);

/* Validates a table (sched_table_open) against this machine's shape and this node:
 * COLL_ESHAPE, COLL_ENODE or COLL_ETABLE (damaged, truncated, another format version). */
int coll_open_table(coll_ctx *ctx, const void *table_bytes, uint32_t len, sched_table *table);

/* Workspace bytes a plan of this table and m needs (0 if m or the table is unusable). */
uint32_t coll_plan_workspace_bytes(const coll_ctx *ctx, const sched_table *table, uint32_t m);
/* the same, for the blocking calls (their plans are compiled into ctx's workspace) */
uint32_t coll_workspace_bytes(const coll_ctx *ctx, const sched_table *table, uint32_t m);
/* Whether this node starts with data in the table's collective (the root of bcast/scatter,
 * every node of gather/allgather/alltoall, the sources of the partial ones). */
int coll_node_has_data(const coll_ctx *ctx, const sched_table *table);
/* Bytes of this node's send / result buffer for the table's collective and m (the sizes
 * of the table above; 0 when the node needs none). For bcast both are m (one buffer). */
uint32_t coll_send_bytes(const coll_ctx *ctx, const sched_table *table, uint32_t m);
uint32_t coll_recv_bytes(const coll_ctx *ctx, const sched_table *table, uint32_t m);

const char *coll_strerror(int code);

/* ---- persistent plans ---- */
/* Compiles the table's collective with these buffers and m (for bcast, recv is the buffer
 * and send is ignored) into `plan`, in `workspace` (16-byte aligned RAM, at least
 * coll_plan_workspace_bytes). Everything is checked here: a plan that compiled runs. */
int coll_plan_init(coll_plan *plan, coll_ctx *ctx, const sched_table *table, const void *send,
                   uint32_t send_bytes, void *recv, uint32_t recv_bytes, uint32_t m, void *workspace,
                   uint32_t workspace_bytes);
/* coll_plan_init on a communicator (coll_comm_line): the table is one of its line's (its shape
 * and this node's rank), and the plan's worms and start barrier stay on its line. */
int coll_plan_init_on(coll_plan *plan, coll_ctx *ctx, const coll_comm *comm, const sched_table *table,
                      const void *send, uint32_t send_bytes, void *recv, uint32_t recv_bytes, uint32_t m,
                      void *workspace, uint32_t workspace_bytes);
/* Posts the plan to the NI (a few dozen register writes) and copies the node's own block;
 * the collective then runs in the NI. COLL_EBUSY if a plan of this context is running. */
int coll_plan_start(coll_plan *plan);
/* COLL_OK once the collective is complete on this node (its buffers are the caller's
 * again), COLL_RUNNING while it runs, or an error (the plan is then stopped). */
int coll_plan_test(coll_plan *plan);
/* Waits for the started plan: COLL_OK, or an error (COLL_ETIMEOUT after ctx->timeout_cycles
 * without a worm counted, naming the ports still waiting). */
int coll_plan_wait(coll_plan *plan);

/* ---- the blocking calls: init + start + wait ----
 * send_bytes / recv_bytes are the capacities of the buffers; root is a node id
 * (x + X*(y + Y*z)). A node without a send (or result) buffer in the table above may pass
 * NULL and 0. ctx->setup_cycles tells the compile cycles of the call. */
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
/* Partial gather (schedgen --algo pg --sources: the destinations): every node sends its block
 * for each destination; a destination's own block is not copied (it gathers the others'). */
int coll_gather_partial(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes,
                        void *recv, uint32_t recv_bytes, uint32_t m);
/* Any of the above, picked by the table's collective (root = the table's root). For bcast,
 * recv is the buffer (in place: the root's holds block 0) and send is ignored. */
int coll_run(coll_ctx *ctx, const sched_table *table, const void *send, uint32_t send_bytes, void *recv,
             uint32_t recv_bytes, uint32_t m);

#endif
