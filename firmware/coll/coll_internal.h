/* SPDX-License-Identifier: ISC
 * rvmesh collectives: what the library's files share (not for programs: coll.h is the API). */
#ifndef RVMESH_COLL_INTERNAL_H
#define RVMESH_COLL_INTERNAL_H

#include <stdint.h>

#include "coll.h"

/* The collectives' numbers (sched.h, sched_coll.h) */
#define COLL_BCAST 1u
#define COLL_SCATTER 2u
#define COLL_GATHER 3u
#define COLL_ALLGATHER 16u
#define COLL_ALLTOALL 17u
#define COLL_ALLGATHER_PARTIAL 18u
#define COLL_ALLTOALL_PARTIAL 19u
#define COLL_GATHER_PARTIAL 20u   /* partial gather: blocks s*N+t to the destinations t */
/* NI counters: 0 .. ports-1 count the puts that arrive on that port; the barrier's round r
 * counts its signals on COLL_BARRIER_COUNTER + r */
#define COLL_BARRIER_COUNTER 8u
#define COLL_MAX_ROUNDS 8u
/* a line's barrier (coll_comm, along dimension dim) counts on a counter of its own: the rows'
 * and columns' on the NI's last two (15, 14), above the machine's rounds (8 .. 8 + rounds - 1:
 * up to 128 nodes leave 15 free, up to 64 leave 14); the pillars' (a 3-D machine's lines along
 * z) on counter 7, which no plan uses on any machine (the ports' counters are 0 .. ports - 1,
 * the local port's is `ports`, at most 6, and plans clear only 0 .. NI_MAX_PORTS), so that a
 * third line costs the machine's barrier no round (13 would have left 3-D machines of more
 * than 32 nodes without pillars, the 4x4x4 among them) */
/* An XY plane of a 3-D machine (dim 3) counts on 13: free while the machine's barrier has at
 * most 5 rounds (up to 32 nodes: the 3x3x3, 4x2x3, 2x2x2 ...). Larger machines have no counter
 * left for it (4x4x4: 8 .. 13 its rounds, 7 the pillars', 14, 15 columns and rows), and no
 * planes (coll_comm_plane refuses them). */
/* A block of a 2-D machine (dim 4) counts on 7: a 2-D machine has no pillars. */
#define COLL_COMM_COUNTER(dim) ((dim) == 2u || (dim) == 4u ? 7u : (dim) == 3u ? 13u : 15u - (dim))
#define COLL_COMM_PLANE 3u   /* coll_comm.dim of an XY plane */
#define COLL_COMM_BLOCK 4u   /* coll_comm.dim of a block */
_Static_assert(NI_MAX_PORTS < 7, "counter 7 lies above every port's counter and the local port's");

/* Prints "node (x,y): name: <message> (<coll_strerror(code)>)" unless ctx->quiet; returns code. */
int coll_fail(const coll_ctx *ctx, int code, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *coll_name(uint32_t collective);
/* "row", "column", "pillar": the line along dimension 0, 1, 2; "plane" (3: an XY plane) */
const char *coll_line_name(uint32_t dim);

/* Plans count puts by their RAM lines and relay cut-through (NI_PUT_LINES, NI_PACED) on NIs
 * whose lines are 4 words or more (the TX engine builds pacing only there) */
static inline int coll_by_lines(const coll_ctx *ctx) { return ctx->line_words >= 4u; }

static inline int coll_is_exchange(uint32_t collective)
{
    return collective == COLL_ALLTOALL || collective == COLL_ALLTOALL_PARTIAL || collective == COLL_GATHER_PARTIAL;
}
/* the node that starts with block b */
static inline uint32_t coll_block_owner(uint32_t collective, uint32_t nodes, uint32_t root, uint32_t block)
{
    if (collective == COLL_BCAST || collective == COLL_SCATTER)
        return root;
    return coll_is_exchange(collective) ? block / nodes : block;
}
/* where block b lies in its owner's send buffer */
static inline uint32_t coll_send_offset(uint32_t collective, uint32_t nodes, uint32_t block, uint32_t m)
{
    if (collective == COLL_SCATTER)
        return block * m;
    if (coll_is_exchange(collective))
        return (block % nodes) * m;
    return 0;
}
/* Is [p, p + bytes) word-aligned RAM (what the NI reads and writes)? Empty is. */
static inline int coll_in_ram(const void *p, uint32_t bytes)
{
    const uintptr_t a = (uintptr_t)p;
    return bytes == 0 || ((a & 3u) == 0 && a >= RVMESH_RAM_BASE && bytes <= RVMESH_RAM_BYTES &&
                          a - RVMESH_RAM_BASE <= RVMESH_RAM_BYTES - bytes);
}
/* Do [a, a + a_bytes) and [b, b + b_bytes) share a byte? (an empty range shares none) */
static inline int coll_overlap(const void *a, uint64_t a_bytes, const void *b, uint64_t b_bytes)
{
    const uint64_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a_bytes && b_bytes && a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}
/* rounds of the dissemination barrier: ceil(log2 N) */
/* node ids between neighbours along dimension dim (node id = x + X*y + X*Y*z) */
static inline uint32_t coll_dim_stride(const coll_ctx *ctx, unsigned dim)
{
    return dim == 0 ? 1u : dim == 1 ? ctx->ni.size[0] : (uint32_t)ctx->ni.size[0] * ctx->ni.size[1];
}

static inline uint32_t coll_barrier_rounds(uint32_t nodes)
{
    uint32_t rounds = 0;
    while ((1u << rounds) < nodes)
        ++rounds;
    return rounds;
}

/* The dissemination barrier in the NI. Round r: a signal to node + 2^r, counted there on
 * counter B(r) = COLL_BARRIER_COUNTER + r. A node may send round r only once it has heard
 * rounds 0 .. r-1 (all of them: waiting for round r-1 alone lets a node through having
 * heard a chain of nodes, not all). A trigger tests one counter, so the rounds are linked
 * on the NI's local port, whose list runs in order: link r (r >= 1) waits for B(r-1) to
 * reach coll_barrier_heard(r-1) and then signals B(r) locally. So B(r) counts its remote
 * signal plus link r, and reaches coll_barrier_heard(r) = 2 (1 for round 0) only when
 * this node has heard rounds 0 .. r. (A count reached early by the next call's signal
 * says more: its sender had left this barrier, so every node had entered it.) */
static inline uint32_t coll_barrier_heard(uint32_t round) { return round == 0 ? 1u : 2u; }
/* The counts of the machine's barrier of `rounds` rounds, or (comm_heard != 0) a
 * communicator's, its signals on comm_counter */
static inline coll_barrier_counts coll_barrier_of(uint32_t rounds, uint32_t comm_counter, uint32_t comm_heard)
{
    coll_barrier_counts b = {(uint8_t)COLL_BARRIER_COUNTER, (uint8_t)rounds,
                             (uint16_t)(rounds ? coll_barrier_heard(rounds - 1u) : 0u)};
    if (comm_heard) {
        b.first = (uint8_t)comm_counter;
        b.counters = 1;
        b.last = (uint16_t)comm_heard;
    }
    return b;
}
/* descriptors of a barrier of `rounds` rounds: the rounds and their links */
static inline uint32_t coll_barrier_descs(uint32_t rounds) { return rounds ? 2u * rounds - 1u : 0u; }
/* Round r's signal: *d gets the descriptor, the return value is its port. */
/* The shortest dimension-order route from this node to node dst: its hops per dimension (a
 * torus's the shorter way round) into hops, returns the port its first hop leaves by. */
unsigned coll_route_to(const coll_ctx *ctx, uint32_t dst, int16_t hops[SCHED_MAX_DIMS]);
unsigned coll_barrier_desc(const coll_ctx *ctx, uint32_t round, struct ni_desc *d);
/* Link r (1 <= r < rounds), for the local port's list: see above. */
void coll_barrier_link_desc(uint32_t round, struct ni_desc *d);
/* The barrier of `rounds` rounds as descriptor lists in ctx (barrier, barrier_first,
 * barrier_count: per port its rounds in order, on the local port the links), built on the
 * first call of a context (coll_barrier.c). */
void coll_barrier_lists(coll_ctx *ctx, uint32_t rounds);

/* A blocking call: its name for messages ("coll_bcast", "rvm_bcast", ...), the collective,
 * buffers, m and root. coll_blocking checks it against the table, compiles the plan into
 * ctx's workspace, starts it and waits; a call this node refuses still takes its part in
 * the others' barrier or epoch (coll_skip_call). */
typedef struct {
    const char *name;
    uint32_t collective;
    const void *send;
    uint32_t send_bytes;
    void *recv;
    uint32_t recv_bytes;
    uint32_t m;
    uint32_t root;
    int has_root;              /* the call names a root */
    const coll_comm *comm;     /* a communicator (root and table by its ranks), or NULL: the machine */
} coll_call;
int coll_blocking(coll_ctx *ctx, const sched_table *table, const coll_call *call);
/* The checks and compilation of coll_blocking, into `plan` in this workspace (16-byte
 * aligned): the caller starts and waits (or keeps the plan to start again). */
int coll_call_compile(coll_ctx *ctx, const sched_table *table, const coll_call *call, coll_plan *plan,
                      void *workspace, uint32_t workspace_bytes);

/* coll_plan_init with the caller's name in messages (the blocking calls'), on a communicator
 * (NULL: the machine) */
int coll_plan_compile(coll_plan *plan, coll_ctx *ctx, const coll_comm *comm, const sched_table *table,
                      const void *send, uint32_t send_bytes, void *recv, uint32_t recv_bytes, uint32_t m,
                      void *workspace, uint32_t workspace_bytes, const char *name);
/* coll_plan_workspace_bytes on a communicator (NULL: the machine) */
uint32_t coll_plan_workspace_on(const coll_ctx *ctx, const coll_comm *comm, const sched_table *table, uint32_t m);
/* Whether a plan of this table starts with the barrier (wormhole schedules, or sync_start). */
int coll_wants_barrier(const coll_ctx *ctx, const sched_table *table);
/* Descriptors of a plan's start barrier on a communicator (NULL: the machine's rounds and links) */
uint32_t coll_start_barrier_descs(const coll_ctx *ctx, const coll_comm *comm, const sched_table *table);
/* Whether comm is one coll_comm_line (or coll_comm_plane) could have made on this machine
 * (NULL, the machine, is) */
static inline int coll_comm_valid(const coll_ctx *ctx, const coll_comm *comm)
{
    const uint32_t X = ctx->ni.size[0];
    if (comm && comm->dim == COLL_COMM_BLOCK) {
        const uint32_t bx = comm->block[0], by = comm->block[1];
        return ctx->ni.dims == 2u && comm->span == 3u && bx >= 2u && by >= 2u && X % bx == 0 &&
               ctx->ni.size[1] % by == 0 && comm->size == bx * by && comm->size <= COLL_COMM_MAX_SIZE &&
               comm->line == SCHED_LINE_BLOCK(bx, by) && comm->rank == ctx->ni.coord[0] % bx + bx * (ctx->ni.coord[1] % by);
    }
    if (comm && comm->dim == COLL_COMM_PLANE)
        return ctx->ni.dims == 3u && comm->span == 3u && comm->size == X * ctx->ni.size[1] &&
               comm->size <= COLL_COMM_MAX_SIZE && comm->rank == ctx->ni.coord[0] + X * ctx->ni.coord[1];
    return !comm || (comm->dim < ctx->ni.dims && comm->span == 1u << comm->dim &&
                     comm->size == ctx->ni.size[comm->dim] && comm->size <= COLL_COMM_MAX_SIZE &&
                     comm->rank == ctx->ni.coord[comm->dim]);
}
/* The barrier alone, for a call this node refused (see coll_plan.c). */
int coll_barrier_only(coll_ctx *ctx, const char *name);
/* The same on a communicator (NULL: the machine): its members' signals */
int coll_barrier_on(coll_ctx *ctx, const coll_comm *comm, const char *name);
/* A call this node refused (the others may have started it): keeps every node's epoch and
 * barrier counts alike, so that the next call starts clean. A wormhole plan's barrier is
 * run alone; else the epoch moves on with the windows closed (a put of the refused call
 * is drained and reported, never written). */
int coll_skip_call(coll_ctx *ctx, const sched_table *table, const char *name);
/* the same on a communicator (NULL: the machine) */
int coll_skip_call_on(coll_ctx *ctx, const coll_comm *comm, const sched_table *table, const char *name);

/* Clears a word-aligned object a word at a time (picolibc's memset goes by bytes, and gcc
 * turns a plain loop back into memset). */
static inline void coll_clear_words(void *object, uint32_t bytes)
{
    for (volatile uint32_t *w = (uint32_t *)object, *end = w + bytes / 4u; w < end; ++w)
        *w = 0;
}

/* Allreduce on a 2-D torus by rings, combined in the NI (coll_ring.c): whether this machine
 * and count take it (a torus of sides 3 .. COLL_COMM_MAX_SIZE, an NI with combining puts,
 * count a multiple of 4N), the workspace of its plan, and its compiler: the plan of an
 * allreduce of count elements from send (== recv: in place) to recv, combined by NI
 * combining put `kind` (NI_COMBINE_*). COLL_EARG / COLL_EWORKSPACE / COLL_ESIZE (a count
 * whose lines pass a counter) without a message: the caller takes another path. The
 * compiler needs COLL_RING_SCRATCH more free bytes above the workspace while it runs. */
int coll_ring_allreduce_fits(const coll_ctx *ctx, uint32_t count);
uint32_t coll_ring_allreduce_workspace(const coll_ctx *ctx);
/* what the compiler uses above the plan's workspace while it runs (the receives' counts) */
#define COLL_RING_SCRATCH 1056u
int coll_ring_allreduce_compile(coll_plan *plan, coll_ctx *ctx, const void *send, void *recv, uint32_t count,
                                uint32_t kind, void *workspace, uint32_t workspace_bytes, const char *name);
/* A reduce-scatter by the same rings (the same fits and workspace): phases A and B reduce
 * the vector into acc (apart from send: in place is refused), then each node puts its four reduced
 * sub-segments straight to their owners: node r's block, elements [r count/N, (r+1)
 * count/N), into its `block` (count/N words, apart from send and acc), counted on its local
 * port's counter. No allgather: about half the allreduce's traffic. */
int coll_ring_reduce_scatter_compile(coll_plan *plan, coll_ctx *ctx, const void *send, void *acc, void *block,
                                     uint32_t count, uint32_t kind, void *workspace, uint32_t workspace_bytes,
                                     const char *name);
/* The same on every line along dimension `dim` of a 2-D or 3-D torus at once (the rows, the
 * columns, the pillars: every node calls, each line reduces its own members' vectors): sides
 * along dim 3 .. COLL_COMM_MAX_SIZE, count a multiple of 2n (n the line's length); the plan
 * starts with the whole machine's barrier. */
int coll_ring_line_fits(const coll_ctx *ctx, unsigned dim, uint32_t count);
uint32_t coll_ring_line_workspace(const coll_ctx *ctx, unsigned dim);
int coll_ring_line_compile(coll_plan *plan, coll_ctx *ctx, unsigned dim, const void *send, void *recv, uint32_t count,
                           uint32_t kind, void *workspace, uint32_t workspace_bytes, const char *name);
/* Its reduce-scatter (the same fits and workspace): phase A along the line into acc (== send:
 * in place), then each node puts its two segments, reduced over its line, straight into their
 * owners' blocks (member t's block: elements [t count/n, (t+1) count/n), count/n words at
 * `block`, apart from send and acc), counted on the owner's local counter. */
int coll_ring_line_reduce_scatter_compile(coll_plan *plan, coll_ctx *ctx, unsigned dim, const void *send, void *acc,
                                          void *block, uint32_t count, uint32_t kind, void *workspace,
                                          uint32_t workspace_bytes, const char *name);

/* A short allreduce by recursive doubling, combined in the NI (coll_dbl.c): sides that are
 * powers of two (mesh or torus, 2-D or 3-D), at most COLL_DBL_MAX_ROUNDS rounds (64 nodes),
 * count 1 .. COLL_DBL_MAX_COUNT, an NI with combining puts, combining put `kind`. The plan's
 * result is in its workspace: copy it out (coll_dbl_result, count words) once it is done. send
 * may be the caller's recv (nothing is written into send). COLL_EARG / COLL_EWORKSPACE without
 * a message: the caller takes another path. */
#define COLL_DBL_MAX_ROUNDS 6u
#define COLL_DBL_MAX_COUNT 1024u
int coll_dbl_allreduce_fits(const coll_ctx *ctx, uint32_t count);
/* its rounds, log2(N) (0 where the sides are not powers of two); its workspace grows by
 * 4 x rounds bytes an element: workspace(count) = workspace(0) + 4 x rounds x count */
uint32_t coll_dbl_rounds(const coll_ctx *ctx);
uint32_t coll_dbl_allreduce_workspace(const coll_ctx *ctx, uint32_t count);
int coll_dbl_allreduce_compile(coll_plan *plan, coll_ctx *ctx, const void *send, uint32_t count, uint32_t kind,
                               void *workspace, uint32_t workspace_bytes, const char *name);
const void *coll_dbl_result(const coll_plan *plan);

/* The start image of these receive counts and lists (port q's list: desc[first[q]], count[q]
 * long), for this node's ports. */
void coll_start_image_of(const coll_ctx *ctx, const uint16_t recv_count[NI_MAX_PORTS + 1], const struct ni_desc *desc,
                         const uint16_t first[NI_MAX_PORTS + 1], const uint16_t count[NI_MAX_PORTS + 1],
                         coll_start_image *image);

/* The end of a plan the NI's own compilers build (coll_ring.c, coll_dbl.c): lists of
 * `desc` starting with the machine's barrier of `rounds`, its receive targets set; m bytes,
 * the receive window recv (recv_words words), no transit window; its start image (the
 * compiler sets compile_cycles). */
static inline void coll_ni_plan_finish(coll_plan *plan, const coll_ctx *ctx, uint32_t rounds, struct ni_desc *desc,
                                       uint32_t m, void *recv, uint32_t recv_words)
{
    plan->collective = (uint8_t)COLL_ALLGATHER;
    plan->barrier = coll_barrier_of(rounds, 0, 0);
    plan->ports = ctx->ni.ports;
    plan->m = m;
    plan->recv = recv;
    plan->recv_words = recv_words;
    plan->transit = 0;
    plan->transit_words = 0;
    plan->desc = desc;
    coll_start_image_of(ctx, plan->recv_count, desc, plan->list_first, plan->list_count, &plan->start);
}


#endif
