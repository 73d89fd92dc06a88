/* SPDX-License-Identifier: ISC */
/* What every generator uses: a schedule grown message by message (sched_push), sorted by
 * step when done (sched_finish), freed (sched_free), and the error message of a refusal
 * (sched_fail). Host only: it allocates. */
#include "base/sched_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int sched_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int sched_push(sched_schedule *s, const sched_msg *m)
{
    if (s->count == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2u : 256u;
        sched_msg *grown = realloc(s->msgs, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        s->msgs = grown;
        s->cap = cap;
    }
    s->msgs[s->count++] = *m;
    return 0;
}

void sched_free(sched_schedule *s)
{
    free(s->msgs);
    s->msgs = 0;
    s->count = s->cap = 0;
}

void sched_finish(sched_schedule *s)
{
    /* Counting sort by step: stable, keeps generation order within a step. */
    uint32_t maxstep = 0;
    for (uint32_t i = 0; i < s->count; i++) if (s->msgs[i].step > maxstep) maxstep = s->msgs[i].step;
    s->nsteps = maxstep;
    if (s->count < 2) return;
    uint32_t *start = calloc((size_t)maxstep + 2u, sizeof *start);
    sched_msg *sorted = malloc((size_t)s->count * sizeof *sorted);
    if (!start || !sorted) { free(start); free(sorted); return; } /* left unsorted: the checker says so */
    for (uint32_t i = 0; i < s->count; i++) start[s->msgs[i].step + 1u]++;
    for (uint32_t t = 1; t <= maxstep + 1u; t++) start[t] += start[t - 1];
    for (uint32_t i = 0; i < s->count; i++) sorted[start[s->msgs[i].step]++] = s->msgs[i];
    free(s->msgs);
    s->msgs = sorted;
    s->cap = s->count;
    free(start);
}
