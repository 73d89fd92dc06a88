/* SPDX-License-Identifier: ISC */
/* tools/sched/gen: one dispatcher from an algorithm's number (or name, sched_names.c) to its
 * generator, and the bounds each algorithm is held to. Host: the generators allocate; free a
 * schedule with sched_free (base/sched_base.h). */
#ifndef RVMESH_SCHED_GEN_H
#define RVMESH_SCHED_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"
#include "sched_coll.h"

/* ---- broadcast, scatter, gather (sched_gen.c); numbers >= SCHED_COLL_ALGO_FIRST go on to
 * sched_coll_generate ---- */
/* Each returns 0 on success, or -1 with a message in err (errlen bytes). */
int sched_generate(sched_schedule *out, const sched_shape *shape, sched_algo algo, uint32_t root,
                   char *err, size_t errlen);
/* Like sched_generate, with the chunks per tree of bcast-edst (0 or 1: one chunk; other
 * algorithms refuse chunks above 1). */
int sched_generate_chunks(sched_schedule *out, const sched_shape *shape, sched_algo algo, uint32_t root,
                          uint32_t chunks, char *err, size_t errlen);
/* Bound stated in the digests for the algorithm on the shape (what the generator must meet),
 * and the paper's printed bound (0 when the paper gives none). */
uint32_t sched_expected_steps(const sched_shape *shape, sched_algo algo, uint32_t root);
uint32_t sched_paper_steps(const sched_shape *shape, sched_algo algo, uint32_t root);
/* ---- the collectives of sched_coll.h (sched_gen_coll.c) ---- */
/* "3,7,12" (node ids) or "random:M[:SEED]" into one byte per node. 0, or -1 with err. */
int sched_coll_parse_sources(const char *text, const sched_shape *shape, uint8_t *sources, char *err, size_t errlen);
/* M, the digest bound and a lower bound (schedule slots) of a partial schedule for its set. */
void sched_coll_partial_bounds(const sched_schedule *s, const uint8_t *sources, uint32_t *m, uint32_t *bound,
                               uint32_t *lower);
/* pmnb, pmnb-split, pe for a source set. */
int sched_coll_generate_partial(sched_schedule *out, const sched_shape *shape, int algo, const uint8_t *sources,
                                char *err, size_t errlen);
/* The same for a machine with dead links (directed, node * 2d + port, both ways of each
 * failed cable; the array must outlive the schedule): out->dead and out->ndead are set to
 * them, so the checker rejects any route over one, and the -ft algorithms avoid them. */
int sched_generate_dead(sched_schedule *out, const sched_shape *shape, sched_algo algo, uint32_t root,
                        uint32_t chunks, const uint32_t *dead, uint32_t ndead, char *err, size_t errlen);
int sched_coll_generate_dead(sched_schedule *out, const sched_shape *shape, int algo, uint32_t root,
                             const uint32_t *dead, uint32_t ndead, char *err, size_t errlen);
int sched_coll_generate(sched_schedule *out, const sched_shape *shape, int algo, uint32_t root,
                        char *err, size_t errlen);
/* Lower bound in the schedule's own slots (mini-slots for split schedules). */
uint32_t sched_coll_lower_bound(const sched_schedule *s);
/* Digest bound for the generated algorithm (slots of the schedule; mini-slots for split). */
uint32_t sched_coll_expected_slots(const sched_shape *shape, int algo, uint32_t m);

#endif
