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
    double p95_broadcast_delay;  /* 95th percentile of the time to the last receiver */
    double dim_utilisation[SCHED_MAX_DIMS]; /* per dimension, as link_utilisation */
    uint32_t max_node_queue;     /* most packets queued at one node (all its ports) */
    uint32_t late;               /* measured broadcasts completed after generation stopped */
} sched_dyn_stats;

typedef struct {
    int discipline;       /* SCHED_DYN_FIFO / PRIO2 / DESC */
    int routing;          /* SCHED_DYN_ROUTE_* */
    int uniform;          /* base probabilities 1/d */
    double rho;
    uint32_t warmup;      /* slots before the measured window */
    uint32_t measure;     /* packets generated in [warmup, warmup + measure) are measured */
    uint32_t tail;        /* slots of generation after the window (then only the drain) */
    uint64_t seed;
} sched_dyn_sim_options;

/* rho: STAR lambda (N-1)/(2d); ARC lambda (N'-1)/(2d) over the interior (digest B1, B5).
 * Packets generated in [warmup, warmup+measure) are measured. Deterministic for a seed.
 * Returns 0 (stats filled; saturated = 1 if the load is not sustained) or -1 with err. */
int sched_dyn_simulate(const sched_shape *shape, int discipline, double rho, uint32_t warmup, uint32_t measure,
                       uint64_t seed, sched_dyn_stats *stats, char *err, size_t errlen);
/* The same with every option (sched_dyn_simulate: STAR, solved probabilities, tail = measure).
 * A slot is the machine's (firmware/apps/dynamic): requests that arrive in slot s (uniform
 * times) are queued at its end and sent from slot s + 1; a packet sent in slot t is received
 * at its end, time t. */
int sched_dyn_simulate_ex(const sched_shape *shape, const sched_dyn_sim_options *opt, sched_dyn_stats *stats,
                          char *err, size_t errlen);
const char *sched_dyn_discipline_name(int discipline);   /* "fifo", "prio2", "desc" */
int sched_dyn_discipline_from_name(const char *name);    /* -1 if unknown */

/* Burst: every node of a torus broadcasts one packet at slot 1 with the STAR rule (random
 * ending dimensions from seed) through per-port queues (discipline), until all queues drain.
 * The transmissions are recorded as an allgather schedule (algo dyn-star) for the checker. */
int sched_dyn_burst(sched_schedule *out, const sched_shape *shape, int discipline, uint64_t seed, char *err,
                    size_t errlen);

#endif
