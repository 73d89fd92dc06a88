/* SPDX-License-Identifier: ISC */
/* tools/sched/baseline: what a user would otherwise write: bcast-binomial, allgather-ring,
 * alltoall-pairwise (sched_baseline.c). Host generators: they allocate. */
#ifndef RVMESH_SCHED_BASELINE_H
#define RVMESH_SCHED_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"

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
