/* SPDX-License-Identifier: ISC */
/* tools/sched/fault: schedules around dead links (sched_ft.c). Host: they allocate. */
#ifndef RVMESH_SCHED_FAULT_H
#define RVMESH_SCHED_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"
#include "sched_coll.h"

/* bcast-ft, scatter-ft, gather-ft, allgather-ft or alltoall-ft (out->algo) on out->shape from
 * out->root, never over out->dead's links; store-and-forward, all-port. 0, or -1 with a
 * message (a dead link set that cuts a node off is refused by name). */
int sched_gen_ft(sched_schedule *out, char *err, size_t errlen);

#endif
