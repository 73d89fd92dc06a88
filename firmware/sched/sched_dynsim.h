/* Host: slot simulation of the dynamic-broadcast rule (sched_dyn_sim.c). */
#ifndef RVMESH_SCHED_DYNSIM_H
#define RVMESH_SCHED_DYNSIM_H

#include <stddef.h>
#include <stdint.h>

#include "sched_dyn.h"
#include "sched_coll.h"

enum { SCHED_DYN_FIFO = 0, SCHED_DYN_PRIO2 = 1, SCHED_DYN_DESC = 2 };

typedef struct {
    uint32_t packets;            /* measured broadcasts */
    uint64_t receptions;         /* measured (packet, receiver) pairs */
    double mean_delay;           /* mean reception delay, slots */
    double p95_delay;            /* 95th percentile reception delay */
    double max_delay;
    double mean_broadcast_delay; /* mean time to the last receiver */
    double link_utilisation;     /* transmissions per directed link per slot while generating */
    uint32_t max_queue;          /* longest output-port queue seen */
    uint32_t slots;              /* slots simulated */
    int saturated;               /* measured packets still open at the slot limit */
} sched_dyn_stats;

/* rho: STAR lambda (N-1)/(2d); ARC lambda (N'-1)/(2d) over the interior (digest B1, B5).
 * Packets generated in [warmup, warmup+measure) are measured. Deterministic for a seed.
 * Returns 0 (stats filled; saturated = 1 if the load is not sustained) or -1 with err. */
int sched_dyn_simulate(const sched_shape *shape, int discipline, double rho, uint32_t warmup, uint32_t measure,
                       uint64_t seed, sched_dyn_stats *stats, char *err, size_t errlen);

/* Burst: every node of a torus broadcasts one packet at slot 1 with the STAR rule (random
 * ending dimensions from seed) through per-port queues (discipline), until all queues drain.
 * The transmissions are recorded as an allgather schedule (algo dyn-star) for the checker. */
int sched_dyn_burst(sched_schedule *out, const sched_shape *shape, int discipline, uint64_t seed, char *err,
                    size_t errlen);

#endif
