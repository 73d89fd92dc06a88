/* SPDX-License-Identifier: ISC */
/* tools/sched/check: the checker, independent of the generators. Portable C11, no allocation
 * (the caller provides the workspace): the host tools use it, and tests cross-compile it to
 * prove tables on the core. */
#ifndef RVMESH_SCHED_CHECK_H
#define RVMESH_SCHED_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"
#include "sched_coll.h"

/* ---- checker (sched_check.c, portable; caller provides the workspace) ---- */
typedef struct {
    int ok;                     /* 1 when the schedule passed every check */
    char error[256];            /* first problem found, when ok == 0 */
    uint32_t steps;             /* largest step used */
    uint32_t messages;
    uint64_t total_distance;    /* sum of hop counts (total communication distance) */
    uint32_t max_path;          /* longest route, hops */
    uint32_t max_link_load;     /* most messages over one directed link, whole schedule */
    uint32_t links_used;        /* directed links used at least once */
    uint32_t max_sends_per_step;/* most messages one node sends in one step */
} sched_check_result;

/* Workspace bytes the checker needs for this schedule. */
size_t sched_check_workspace_bytes(const sched_schedule *sched);
/* Checks the schedule against its model and collective. Returns result->ok. */
int sched_check(const sched_schedule *sched, void *workspace, size_t workspace_bytes,
                sched_check_result *result);

/* ---- checker for the collectives above (sched_check_coll.c, portable) ----
 * sources: one byte per node, non-zero for a source; needed for the partial collective,
 * ignored (may be 0) otherwise. sched_check() calls this with sources = 0. */
size_t sched_check_coll_workspace_bytes(const sched_schedule *s);
int sched_check_coll(const sched_schedule *s, const uint8_t *sources, void *workspace,
                     size_t workspace_bytes, sched_check_result *result);
/* Extra figures of the last sched_check_coll() call on this result (deliveries, relays). */
typedef struct {
    uint64_t deliveries;   /* receipts that delivered a piece */
    uint64_t relays;       /* receipts marked SCHED_MSG_TRANSIT */
} sched_coll_stats;
int sched_check_coll_stats(const sched_schedule *s, const uint8_t *sources, void *workspace,
                           size_t workspace_bytes, sched_check_result *result, sched_coll_stats *stats);

#endif
