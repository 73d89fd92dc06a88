/* SPDX-License-Identifier: ISC
 * Partial gather on a 2-D mesh (Varvarigos-Bertsekas sec. 5, digest A2 and A8): M
 * destinations, chosen at run time, each receive a distinct packet from every other node, no
 * combining. It is the dual of the partial exchange: the partial exchange of the destination
 * set (sched_pe.c: R/C routing, first legs before second legs, non-wasting links) with every
 * path reversed and the time axis run backwards. A message of the exchange in slot t from a
 * to b carrying piece x*N + y (from source x to node y) becomes, in slot T + 1 - t, a message
 * from b to a carrying piece y*N + x (from node y to destination x). Reversal keeps every
 * rule the checker holds a store-and-forward schedule to: a node forwarded a piece after it
 * received it, so in reverse it receives it before it forwards it; a directed link carried
 * one packet per slot, so its reverse does; the exchange's first hop out of x becomes the
 * gather's delivery into x. So the gather takes exactly the exchange's slots, within the
 * exchange's bound 2 floor(sqrt M)(N - p) + 2(p - 1) (the digest's T_PE; t_p apart).
 * Host only (allocates). */
#include "sched_coll.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sched_sim_pg(sched_schedule *out, const sched_shape *sh, const uint8_t *dests, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    sched_schedule pe;
    if (sched_sim_pe(&pe, sh, dests, err, errlen)) {
        if (err && errlen && !strncmp(err, "pe:", 3)) {
            char why[256];
            snprintf(why, sizeof why, "pg:%s", err + 3);
            snprintf(err, errlen, "%s", why);
        }
        return -1;
    }
    const uint32_t n = sched_nodes(sh), t_end = pe.nsteps + 1u;
    out->shape = *sh;
    out->algo = SCHED_ALGO_PG;
    out->coll = SCHED_COLL_PARTIAL_GATHER;
    out->model = SCHED_MODEL_SAF_ALLPORT;
    for (uint32_t i = pe.count; i-- > 0;) {
        const sched_msg *m = &pe.msgs[i];
        const uint32_t x = m->piece / n, y = m->piece % n;   /* exchange: from x to y */
        sched_msg r;
        memset(&r, 0, sizeof r);
        r.src = m->dst;
        r.dst = m->src;
        r.piece = y * n + x;                                 /* gather: from y to x */
        r.step = (uint16_t)(t_end - m->step);
        r.start_dim = m->start_dim;
        for (uint32_t d = 0; d < SCHED_MAX_DIMS; d++) r.hops[d] = (int16_t)-m->hops[d];
        r.reserved = r.dst == x ? 0 : SCHED_MSG_TRANSIT;
        if (sched_push(out, &r)) {
            sched_free(&pe);
            sched_free(out);
            if (err && errlen) snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    sched_free(&pe);
    sched_finish(out);
    return 0;
}
