/* SPDX-License-Identifier: ISC */
/* tools/sched/bcast: the broadcast family (and its duals scatter and gather). Host generators:
 * they allocate. Each fills a schedule whose shape, root, algo, coll and model the dispatcher
 * (tools/sched/gen) has set, and returns 0, or -1 with a message in err (errlen bytes). */
#ifndef RVMESH_SCHED_BCAST_H
#define RVMESH_SCHED_BCAST_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"

/* ---- tsay-wang (sched_tw.c), cang-wu and cang-wu-dp (sched_cw.c), saf-bcast (sched_saf.c),
 * scatter and gather (sched_scatter.c) ---- */
int sched_gen_tsay_wang(sched_schedule *out, char *err, size_t errlen);
int sched_gen_cang_wu(sched_schedule *out, int use_dp, char *err, size_t errlen);
int sched_gen_saf_bcast(sched_schedule *out, char *err, size_t errlen);
int sched_gen_scatter_gather(sched_schedule *out, int gather, char *err, size_t errlen);
/* Parent array of the scatter tree (parent[root] = root); returns subtree-max or 0 on error. */
uint32_t sched_scatter_tree(const sched_shape *shape, uint32_t root, uint32_t *parent,
                            int *used_construction);

/* Lower bound for scatter/gather over a spanning tree: ceil((N-1)/deg), raised where a
 * root neighbour can reach only a few nodes without crossing another (thin meshes). */
uint32_t sched_scatter_tree_bound(const sched_shape *shape, uint32_t root);
/* Cang-Wu reference values (digest A4). */
uint64_t sched_cw_eye_tcd(unsigned k);
uint64_t sched_cw_corner_tcd(unsigned k);
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

/* Trees on this shape (2d on a torus, d on a mesh; on a line, a ring 2, an array 1). */
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

#endif
