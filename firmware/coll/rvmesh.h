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
 * A node's own block is copied into its result too, as MPI does. m is a multiple of 4; the
 * call runs the fastest declared schedule that takes m (a schedule that cuts blocks into
 * parts wants a multiple of 4 * parts; the error says which m the declared ones take).
 * Buffers: word aligned, in RAM (static arrays, or the stack), not overlapping. A node
 * without a buffer in the call (scatter's send and gather's recv off the root) may pass NULL.
 * Every node must make the same calls in the same order, with the same m and root.
 *
 * Errors, as MPI's default handler (MPI_ERRORS_ARE_FATAL): a call that fails prints why
 * ("node (x,y): rvm_bcast: ...") and ends the node with exit status RVM_EXIT_STATUS(code)
 * (64 + the code's magnitude, coll.h: 80 is a timeout, 84 a collective not declared).
 * rvm_errors_return(1) makes the calls return the negative code instead (MPI_ERRORS_RETURN).
 *
 * Safe by default: every call starts with a barrier of all nodes (in the network
 * interface), and a call that makes no progress for rvm_timeout() cycles ends with a
 * timeout error naming the call: the usual cause is a node that did not make the same call
 * with the same m and root. The limit is RVM_TIMEOUT_CYCLES (1,000,000; TIMEOUT := in the
 * Makefile) or rvm_set_timeout().
 *
 * Workspace: a call is compiled into descriptors for the network interface (and transit
 * slots for the pieces a node relays) in the RAM the program leaves free between its data
 * and its stack: rvm_workspace_bytes(). A call that needs more says how much. So a program
 * of the kit does not use malloc.
 *
 * Time: rvm_cycles() is the machine-wide cycle count (every node's counts from the same
 * reset). The kit adds the cycles of every call to the region "comm" (rvmesh_region_begin/
 * _end in rvmesh_rt.h: a program times its own regions the same way); mesh-sim --report
 * lists every node's regions.
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

void rvm_set_timeout(uint32_t cycles);    /* 0: wait for ever */
uint32_t rvm_timeout(void);
void rvm_errors_return(int on);           /* 1: calls return errors instead of ending the node */
uint32_t rvm_workspace_bytes(void);       /* the free RAM the calls compile into */
uint32_t rvm_tables_bytes(void);          /* this node's tables area (what it holds) */
uint32_t rvm_init_cycles(void);           /* what rvm_init took on this node */
uint32_t rvm_last_setup_cycles(void);     /* the last call's plan compilation */
static inline uint64_t rvm_cycles(void) { return rvmesh_cycles(); }

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

#endif
