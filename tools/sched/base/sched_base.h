/* SPDX-License-Identifier: ISC */
/* tools/sched/base: growing a schedule on the host (every generator uses it). */
#ifndef RVMESH_SCHED_BASE_H
#define RVMESH_SCHED_BASE_H

#include <stddef.h>

#include "sched.h"

/* Appends a message. Returns 0, or -1 when out of memory. */
int sched_push(sched_schedule *sched, const sched_msg *msg);
/* Sorts messages by step (stable) and sets nsteps. */
void sched_finish(sched_schedule *sched);
/* Frees the messages (the schedule may be reused). */
void sched_free(sched_schedule *sched);
/* Writes the message (printf format) into err (errlen bytes; err may be 0) and returns -1: every
 * generator's refusal. */
int sched_fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
