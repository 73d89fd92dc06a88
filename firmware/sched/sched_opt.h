/* SPDX-License-Identifier: ISC */
/* rvmesh schedule library: the optimal multinode broadcast on tori (mnb-opt), broadcast over
 * arc-disjoint spanning trees (bcast-edst), and the baselines a user would otherwise write
 * (bcast-binomial, allgather-ring, alltoall-pairwise). Host generators: they allocate.
 *
 * Numbers: bcast-edst 7 and bcast-binomial 8 are sched_algo enumerators (sched.h; broadcasts
 * are dispatched by sched_generate); mnb-opt 42, allgather-ring 43 and alltoall-pairwise 44 are
 * issue-5 numbers (sched_coll.h; dispatched by sched_coll_generate). The contended wormhole
 * model (bcast-binomial, alltoall-pairwise) is SCHED_MODEL_WORMHOLE_CONTENDED (sched_coll.h).
 * See firmware/sched/README.md.
 */
#ifndef RVMESH_SCHED_OPT_H
#define RVMESH_SCHED_OPT_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"

/* ---- mnb-opt (sched_mnb_opt.c) ----
 * One spanning tree T of the torus rooted at node 0; tree edge j leaves tree node tail[j] in
 * direction dir[j] (a port, 0 .. 2d-1) at slot slot[j]. A slot labels at most one edge per
 * direction and an edge's slot is later than its parent edge's. Node v broadcasts along T
 * translated by v: in slot t it sends piece v - tail[j] on dir[j] for the slot-t edges j. */
typedef struct {
    uint32_t edges;     /* N - 1 */
    uint32_t slots;     /* the largest slot */
    uint32_t *tail;     /* per edge: tree node it leaves (node id, root 0) */
    uint8_t *dir;       /* per edge: port it leaves on */
    uint32_t *slot;     /* per edge: 1-based slot; edges sorted by slot */
} sched_mnb_tree;

/* Lower bound of any all-port store-and-forward allgather on a torus: every node takes N-1
 * pieces over 2d in-links, and the farthest piece needs the diameter: max(ceil((N-1)/2d), diam). */
uint32_t sched_mnb_opt_lower_bound(const sched_shape *shape);
/* The tree search (deterministic: greedy with fixed-seed randomised restarts, stops at the lower
 * bound). 0, or -1 with err. Free with sched_mnb_tree_free. */
int sched_mnb_opt_tree(const sched_shape *shape, sched_mnb_tree *tree, char *err, size_t errlen);
void sched_mnb_tree_free(sched_mnb_tree *tree);
int sched_gen_mnb_opt(sched_schedule *out, char *err, size_t errlen);

/* ---- bcast-edst (sched_edst.c) ----
 * Arc-disjoint spanning arborescences rooted at the root: 2d on a torus, d on a mesh (a mesh
 * corner has d in-links). parent[i * N + v] is v's parent in tree i (the root's is the root)
 * and port[i * N + v] the port of the parent the link to v leaves on (on a torus with a side
 * of 2 both ports of that dimension reach the same neighbour: the port names the link). */
typedef struct {
    uint32_t trees;
    uint32_t nodes;
    uint32_t *parent;
    uint8_t *port;
    uint32_t max_depth;   /* the deepest node of any tree */
    uint64_t moves;       /* search moves tried, over every target depth */
} sched_edst_forest;

/* Trees on this shape (2d on a torus, d on a mesh). */
uint32_t sched_edst_tree_count(const sched_shape *shape);
/* A lower bound on the deepest tree: on a torus 1 + the eccentricity of a root neighbour in the
 * torus without the root (every tree has exactly one root child); on a mesh the root's
 * eccentricity, and at least 3 (a root neighbour is reached by all but one tree from a node at
 * distance 2). */
uint32_t sched_edst_depth_bound(const sched_shape *shape, uint32_t root);
/* The search (deterministic local search, tightened from a loose depth to the bound). */
int sched_edst_forest_build(const sched_shape *shape, uint32_t root, sched_edst_forest *forest, char *err,
                            size_t errlen);
void sched_edst_forest_free(sched_edst_forest *forest);
/* Part i*chunks + c (tree i, chunk c, 0-based) crosses a tree edge into depth h at slot c + h:
 * slots = max depth + chunks - 1, parts = trees * chunks (s->parts). */
int sched_gen_bcast_edst(sched_schedule *out, uint32_t chunks, char *err, size_t errlen);
#define SCHED_EDST_MAX_CHUNKS 1024u

/* ---- baselines (sched_baseline.c) ---- */
/* The router's dimension-order route from src to dst: the shortest way round each ring
 * (+ on a tie), dimensions in order 0, 1, 2 (start at the first one with hops). 0, or -1 if
 * src == dst. */
int sched_route_dimension_order(const sched_shape *shape, uint32_t src, uint32_t dst, sched_msg *msg);
/* A Hamiltonian cycle through neighbour links in snake order: order[k] is the k-th node. 0, or
 * a message saying which shapes have one (tori always; meshes need an even side). */
const char *sched_snake_cycle(const sched_shape *shape, uint32_t *order);
int sched_gen_bcast_binomial(sched_schedule *out, char *err, size_t errlen);
int sched_gen_allgather_ring(sched_schedule *out, char *err, size_t errlen);
int sched_gen_alltoall_pairwise(sched_schedule *out, char *err, size_t errlen);

#endif
