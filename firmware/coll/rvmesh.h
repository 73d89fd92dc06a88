/* SPDX-License-Identifier: ISC
 * rvmesh.h: the application kit's C API, the one header a program includes
 * (docs/first-program.md, kit/README.md).
 *
 * A program is one image that every node runs (SPMD, as an MPI program runs on every rank).
 * rvm_init() opens the collectives the program declared in its Makefile (COLLECTIVES :=
 * bcast allgather ...): their tables were generated when it was built, and the loader
 * (mesh-sim) wrote each node's own tables into that node's RAM before reset.
 *
 *   call                             as MPI         buffers (m bytes a block, N = rvm_nodes())
 *   rvm_bcast(buf, m, root)          MPI_Bcast      buf: m bytes on every node, the root's is sent
 *   rvm_scatter(send, recv, m, root) MPI_Scatter    root's send N*m (block t for node t); recv m
 *   rvm_gather(send, recv, m, root)  MPI_Gather     send m; root's recv N*m (block s from node s)
 *   rvm_allgather(send, recv, m)     MPI_Allgather  send m; recv N*m (block s from node s)
 *   rvm_alltoall(send, recv, m)      MPI_Alltoall   send N*m (block t for node t); recv N*m
 *                                                   (block s from node s)
 *   rvm_allreduce(send, recv, count, op)     MPI_Allreduce  send, recv: count int32/uint32 elements
 *   rvm_reduce(send, recv, count, op, root)  MPI_Reduce     the same; only the root's recv is
 *                                                           written (NULL elsewhere is fine)
 *   rvm_reduce_scatter(send, recv, count, op)  MPI_Reduce_scatter_block  send N*count elements
 *                                                           (block t for node t); recv count
 *   rvm_op_create(fn)                MPI_Op_create  an op of the program's own
 *   rvm_barrier()                    MPI_Barrier    returns once every node has entered it
 *   rvm_bcast_on(comm, buf, m, root)                    the calls above on a row, a column, a
 *   rvm_scatter_on(comm, send, recv, m, root)           pillar, a plane or a block (below):
 *   rvm_gather_on(comm, send, recv, m, root)            n = rvm_comm_size(comm) members for N,
 *   rvm_allgather_on(comm, send, recv, m)               ranks for nodes (a root is a rank of
 *   rvm_alltoall_on(comm, send, recv, m)                comm); declared with a prefix
 *   rvm_allreduce_on(comm, send, recv, count, op)       (row.bcast@1, col.alltoall, pln.,
 *   rvm_reduce_on(comm, send, recv, count, op, root)    blk2x2.); reductions on rows need
 *   rvm_reduce_scatter_on(comm, send, recv, count, op)  row.allgather [and row.alltoall], as
 *                                                       the machine's need allgather [alltoall]
 *
 * Reductions (op: RVM_SUM, RVM_MIN, RVM_MAX, RVM_BAND, RVM_BOR, RVM_BXOR on int32; RVM_UMIN,
 * RVM_UMAX for uint32; sum and the bitwise ops are the same for both, the sum modulo 2^32)
 * run on the NI's rings where they can (rvm_allreduce on a 2-D torus, below: no declared
 * collective, the NI combines), else on the declared collectives, so the program declares those: small vectors take
 * an rvm_allgather of every node's vector and a local combine in node order (declare
 * allgather; the workspace holds N vectors); a count that is a multiple of N, of at least
 * RVM_ALLREDUCE_LARGE_BYTES (256) bytes of elements, with alltoall declared too, takes a
 * reduce-scatter by rvm_alltoall (block t of every node to node t, count/N elements),
 * combined locally, then an rvm_allgather of the reduced blocks (Rabenseifner; the workspace
 * holds count/N elements for an allreduce apart, whose blocks come into recv, count + count/N
 * in place and for rvm_reduce). rvm_reduce runs the same as rvm_allreduce. count 0 does
 * nothing; recv may be send (in place). The results do not depend on the path (the integer
 * operations are associative and commutative). An op that is none of these: COLL_EARG.
 * rvm_barrier is the network interface's dissemination barrier (signals only; it needs no
 * declared collective and no workspace): no node leaves it before every node has entered;
 * a node that does not call it leaves the others in a timeout error naming rvm_barrier.
 */
#ifndef RVMESH_KIT_H
#define RVMESH_KIT_H

#include <stdint.h>

#include "coll.h"
#include "rvmesh_rt.h"

#ifndef RVM_TIMEOUT_CYCLES
#define RVM_TIMEOUT_CYCLES 1000000u
#endif
/* the nodes of the shape the program was built for (SHAPE: rvmesh_config.h), a constant for
 * array sizes; rvm_nodes() is the same number at run time */
#define RVM_NODES (RVMESH_MESH_X * RVMESH_MESH_Y * RVMESH_MESH_Z)
/* the exit status of a node ended by a failed call: 64 + the magnitude of its code */
#define RVM_EXIT_STATUS(code) (64u + (uint32_t)(-(code)))
/* the region every collective call is counted in */
#define RVM_COMM_REGION "comm"

/* Opens this node's tables and sets the collectives up (MPI_Init); call it first. Constant
 * time in the size of the tables (the loader checked them). Errors: no network interface
 * (COLL_ENI), no tables or tables of another machine or node in RAM (COLL_ENOTABLES). */
int rvm_init(void);
uint32_t rvm_node(void);                  /* this node: x + X*(y + Y*z) (MPI_Comm_rank) */
uint32_t rvm_nodes(void);                 /* N (MPI_Comm_size) */
const struct ni_shape *rvm_shape(void);   /* sides, torus, this node's coordinates */

int rvm_bcast(void *buf, uint32_t m, uint32_t root);
int rvm_scatter(const void *send, void *recv, uint32_t m, uint32_t root);
int rvm_gather(const void *send, void *recv, uint32_t m, uint32_t root);
int rvm_allgather(const void *send, void *recv, uint32_t m);
int rvm_alltoall(const void *send, void *recv, uint32_t m);

/* Communicators of part of the machine (MPI_Cart_sub on a 2-D or 3-D machine): this node's
 * row (the nodes with its y and z; rank = x), its column (the nodes with its x and z; rank =
 * y) or, on a 3-D machine, its pillar (the nodes with its x and y; rank = z) or its XY plane
 * (the nodes with its z; rank = x + X*y; declared pln.bcast@0 ...: built for the plane as an
 * XxY machine of its own), or on a 2-D machine its block (a sub-rectangle: the machine cut
 * into equal BX x BY blocks, declared blk2x2.bcast@0 ...; rank x % BX + BX * (y % BY); built
 * for the block as a BXxBY mesh of its own, a torus only when the block is the whole torus). Every row (or
 * column, or pillar) runs its own collective at the same time as the others, on the links of
 * its line alone, with a start barrier over its members only. The program declares them in
 * its Makefile with a prefix: COLLECTIVES := row.bcast@2 col.allgather pil.alltoall (the
 * tables are built for the line as a shape of its own: a ring on a torus, a linear array on a
 * mesh). A root is a rank of the communicator. Every node makes the same calls in the same
 * order (the rows' roots and data may differ): each node's NI tells plans apart by counting
 * them. */
typedef enum {
    RVM_COMM_WORLD = 0,   /* every node (MPI_COMM_WORLD): rvm_bcast ... */
    RVM_COMM_ROW = 1,     /* this node's row (along x) */
    RVM_COMM_COL = 2,     /* this node's column (along y) */
    RVM_COMM_PILLAR = 3,  /* this node's pillar (along z; 3-D machines) */
    RVM_COMM_PLANE = 4,   /* this node's XY plane (the X*Y nodes of its z; rank x + X*y; 3-D machines
                             of up to 32 nodes, planes of up to 16: pln. in COLLECTIVES) */
    RVM_COMM_BLOCK = 5    /* this node's block of a 2-D machine cut into equal BX x BY blocks (the
                             shape its blkBXxBY. declarations give; rank x % BX + BX * (y % BY);
                             blocks of up to 16 nodes) */
} rvm_comm;
uint32_t rvm_comm_rank(rvm_comm comm);   /* this node's rank in it (MPI_Comm_rank); */
uint32_t rvm_comm_size(rvm_comm comm);   /* its members (MPI_Comm_size); 0: no such communicator */
/* The calls on a communicator (MPI_Bcast ... MPI_Alltoall on it): the machine's calls with n =
 * rvm_comm_size(comm) members for N and ranks for nodes: root is a rank of comm; scatter's send
 * and alltoall's buffers hold n blocks (block r for rank r), gather's and allgather's recv n
 * blocks (block r from rank r). A rank that is not comm's: COLL_EROOT; a collective the program
 * did not declare for comm: COLL_EUNDECLARED (the message says what to add, e.g. row.bcast@1);
 * a communicator the machine has none of: COLL_EARG. */
int rvm_bcast_on(rvm_comm comm, void *buf, uint32_t m, uint32_t root);
int rvm_scatter_on(rvm_comm comm, const void *send, void *recv, uint32_t m, uint32_t root);
int rvm_gather_on(rvm_comm comm, const void *send, void *recv, uint32_t m, uint32_t root);
int rvm_allgather_on(rvm_comm comm, const void *send, void *recv, uint32_t m);
int rvm_alltoall_on(rvm_comm comm, const void *send, void *recv, uint32_t m);

typedef enum {
    RVM_SUM = 1,
    RVM_MIN,
    RVM_MAX,
    RVM_BAND,
    RVM_BOR,
    RVM_BXOR,
    RVM_UMIN,
    RVM_UMAX,
    RVM_OP_USER = 64   /* the first op rvm_op_create makes (MPI_Op_create) */
} rvm_op;
/* A combine function of the program's own: acc[i] = acc[i] (op) x[i] for i < count. It must
 * be associative; it need not commute: the kit combines the nodes' vectors in node order
 * (node 0's, then node 1's, ...), on every path. */
typedef void (*rvm_combine_fn)(uint32_t *acc, const uint32_t *x, uint32_t count);
#define RVM_MAX_USER_OPS 4
/* the op that combines by fn, for every reduction call; (rvm_op)0 with errors returning
 * when fn is NULL or RVM_MAX_USER_OPS ops exist already. Every node creates the same ops in
 * the same order (then the same op means the same function everywhere). */
rvm_op rvm_op_create(rvm_combine_fn fn);
/* the smallest vector (bytes) a reduction with alltoall declared reduce-scatters (on the 4x4
 * torus a repeated allreduce of 64 elements: 3,220 cycles so, 9,947 by allgather alone) */
#define RVM_ALLREDUCE_LARGE_BYTES 256u
/* rvm_allreduce on a 2-D torus of sides 3 or more whose NI combines (ni_has_combine(): the
 * simulated machine's, config.mk NI_COMBINE), with a built-in op and count a multiple of 4N,
 * runs the NI's rings (firmware/coll/coll_ring.c): reduce-scatter and allgather by rings in
 * both dimensions at once, the elements combined by the NI as they arrive; no declared
 * collective, about 3 KiB of workspace on the 8x8 torus, send and recv the same buffer (in
 * place: fastest) or apart (not overlapping). It is the fastest path at every size it takes
 * (make bench-apps: build/bench/allreduce.json). rvm_allreduce_rings(0) turns it off (the
 * other paths, for comparison), 1 on again; every node alike. rvm_reduce takes the rings
 * too (the allreduce, its result off the root held in the free RAM: count words on every node,
 * the root's too; 9.6x the other paths at 16 KiB on the 8x8 torus), and so does
 * rvm_reduce_scatter (below). */
void rvm_allreduce_rings(int on);
/* A short rvm_allreduce of the machine that the rings do not take (at most
 * RVM_DOUBLING_MAX_BYTES bytes, and where alltoall + allgather can take it too at most
 * 3 KiB / log2(N): 512 bytes on the 8x8 torus; on a machine of sides that are powers of two, mesh or torus,
 * up to 64 nodes, whose NI combines; a built-in op) runs
 * recursive doubling in the NI (firmware/coll/coll_dbl.c): log2(N) rounds, each a put to the
 * partner and the node's own combined in; any count, in place or apart (recv may overlap send);
 * nothing to declare. rvm_reduce and rvm_reduce_scatter of such vectors (N x count elements)
 * take it too. rvm_last_reduce_path() says "doubling"; rvm_allreduce_rings(0) turns it off too. */
#ifndef RVM_DOUBLING_MAX_BYTES
#define RVM_DOUBLING_MAX_BYTES 1024u
#endif
int rvm_allreduce(const void *send, void *recv, uint32_t count, rvm_op op);
int rvm_reduce(const void *send, void *recv, uint32_t count, rvm_op op, uint32_t root);
/* MPI_Reduce_scatter_block: send holds N*count elements (block t, count elements, for node
 * t); recv gets count elements, every node's block of this node combined in node order. The
 * workspace holds N*count elements. Where rvm_allreduce takes the NI's rings (a built-in op,
 * count a multiple of 4), the whole vector is reduced there and block t kept (path "rings",
 * nothing to declare); else by rvm_alltoall (declare alltoall), combined in the core (path
 * "alltoall"). */
int rvm_reduce_scatter(const void *send, void *recv, uint32_t count, rvm_op op);
/* The reductions on a row, a column or a pillar (MPI_Allreduce ... on MPI_Cart_sub's communicator): the
 * same paths and ops on the line's collectives, n = rvm_comm_size(comm) members combined in
 * rank order, root a rank of comm. On a torus whose NI combines, a built-in op and count a
 * multiple of 2n (a reduce-scatter's: even) run every line's ring at once ("rings": nothing to
 * declare). Else the program declares what the machine's need, prefixed:
 * row.allgather (small vectors), and row.alltoall too for the reduce-scatter path (count a
 * multiple of n, at least RVM_ALLREDUCE_LARGE_BYTES); rvm_reduce_scatter_on: row.alltoall. */
int rvm_allreduce_on(rvm_comm comm, const void *send, void *recv, uint32_t count, rvm_op op);
int rvm_reduce_on(rvm_comm comm, const void *send, void *recv, uint32_t count, rvm_op op, uint32_t root);
int rvm_reduce_scatter_on(rvm_comm comm, const void *send, void *recv, uint32_t count, rvm_op op);
int rvm_barrier(void);
/* how the last rvm_allreduce/rvm_reduce/rvm_reduce_scatter (or its _on form) ran: "allgather"
 * (small), "alltoall+allgather" (large), "alltoall" (reduce-scatter), "rings" (the NI's), or ""
 * (none yet, count 0, or an error before it ran) */
const char *rvm_last_reduce_path(void);

void rvm_set_timeout(uint32_t cycles);    /* 0: wait for ever */
uint32_t rvm_timeout(void);
void rvm_errors_return(int on);           /* 1: calls return errors instead of ending the node */
uint32_t rvm_workspace_bytes(void);       /* the free RAM the calls compile into */
uint32_t rvm_tables_bytes(void);          /* this node's tables area (what it holds) */
uint32_t rvm_init_cycles(void);           /* what rvm_init took on this node */
uint32_t rvm_last_setup_cycles(void);     /* the last call's plan compilation */
static inline uint64_t rvm_cycles(void) { return rvmesh_cycles(); }

/* The kept plans (rvm_plan_stats): a call is compiled into a plan in the free RAM (the
 * workspace, rvm_workspace_bytes) and the plan kept, so that the same call again (same
 * collective, communicator, buffers and m) only posts it. Plans are kept one after the other
 * while they fit below what a reduction holds for its blocks during its call; when the next
 * one does not fit, all are dropped and compiled again when next called. A program whose
 * arrays leave too little free RAM (or that cycles through many buffer/size combinations)
 * then compiles on every call, a few thousand cycles to 100k+ more each: after a loop of the
 * same calls, `compiled` must not have grown. At most 16 plans are kept: a 17th distinct call
 * replaces one of them, which compiles again without a drop. Counted since rvm_init, on this
 * node. */
struct rvm_plan_stats {
    uint32_t reused;            /* calls that posted a kept plan (no compilation) */
    uint32_t compiled;          /* plans compiled (a reduction's call: one or two) */
    uint32_t drops;             /* times the kept plans were all dropped because the free RAM
                                 * could not hold the next one (or a reduction's blocks) too */
    uint32_t kept_bytes;        /* free RAM the kept plans take now */
    uint32_t workspace_bytes;   /* the free RAM they are kept in (rvm_workspace_bytes) */
};
/* fills *out; COLL_EARG (as every refused argument: the node ends, status 66, unless
 * rvm_errors_return(1)) when out is NULL, COLL_ENI before rvm_init */
int rvm_plan_stats(struct rvm_plan_stats *out);

/* For persistent plans (coll_plan_init ... in coll.h) on the declared tables: the context and
 * the table a call of this collective (RVM_BCAST ...) with this root and m would run
 * (NULL if none is declared). */
#define RVM_BCAST 1u
#define RVM_SCATTER 2u
#define RVM_GATHER 3u
#define RVM_ALLGATHER 16u
#define RVM_ALLTOALL 17u
coll_ctx *rvm_ctx(void);
const sched_table *rvm_table(uint32_t collective, uint32_t root, uint32_t m);
/* the same on a communicator (coll_plan_init_on takes both); NULL if it has none */
const coll_comm *rvm_comm_of(rvm_comm comm);
const sched_table *rvm_comm_table(rvm_comm comm, uint32_t collective, uint32_t root, uint32_t m);

#endif
