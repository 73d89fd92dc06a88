/* Host: slot-by-slot simulation of the dynamic-broadcast rule (sched_dyn.c) on the abstract
 * all-port store-and-forward model: Poisson broadcast requests at every generating node,
 * one packet per directed link per slot from per-output-port queues (FIFO, 2-class priority
 * or more-descendants-first), the rule applied to every arriving packet. The simulation
 * checks as it goes that no node receives a packet twice, that every measured packet reaches
 * every receiver, and (STAR) that a broadcast costs exactly N-1 transmissions. */
#include "sched_dynsim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dyn_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

typedef struct {
    sched_dyn_packet pkt;
    uint32_t pid;
    int32_t next;
} q_entry;

typedef struct {
    int32_t head[2], tail[2];   /* per priority class (FIFO uses class 0 only) */
    uint32_t len;
} port_queue;

typedef struct {
    double gen;
    uint32_t receptions, transmissions;
    uint8_t measured;
    double last;   /* latest reception */
} pkt_info;

typedef struct {
    uint64_t s;
} rng_t;

static uint64_t rng_next(rng_t *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ull;
}

static double rng_unit(rng_t *r) { return ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0; }

/* e^x by its series (no libm): x in [-2, 0] here. */
static double exp_series(double x)
{
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 60; k++) { term *= x / k; sum += term; }
    return sum;
}

/* Poisson(mean) count with e^-mean given (Knuth). */
static uint32_t poisson(rng_t *r, double exp_minus_mean)
{
    uint32_t k = 0;
    double prod = rng_unit(r);
    while (prod > exp_minus_mean) { k++; prod *= rng_unit(r); }
    return k;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    q_entry *pool;
    uint32_t cap, used;
    int32_t free_head;
} pool_t;

static int32_t pool_get(pool_t *p)
{
    if (p->free_head >= 0) { int32_t i = p->free_head; p->free_head = p->pool[i].next; return i; }
    if (p->used == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2u : 4096u;
        q_entry *g = realloc(p->pool, sizeof *g * cap);
        if (!g) return -1;
        p->pool = g;
        p->cap = cap;
    }
    return (int32_t)p->used++;
}

const char *sched_dyn_discipline_name(int discipline)
{
    return discipline == SCHED_DYN_FIFO ? "fifo" : discipline == SCHED_DYN_PRIO2 ? "prio2"
         : discipline == SCHED_DYN_DESC ? "desc" : "?";
}

int sched_dyn_discipline_from_name(const char *name)
{
    for (int k = 0; k <= SCHED_DYN_DESC; k++)
        if (!strcmp(name, sched_dyn_discipline_name(k))) return k;
    return -1;
}

int sched_dyn_simulate(const sched_shape *shape, int discipline, double rho, uint32_t warmup, uint32_t measure,
                       uint64_t seed, sched_dyn_stats *st, char *err, size_t errlen)
{
    sched_dyn_sim_options o = {discipline, SCHED_DYN_ROUTE_STAR, 0, rho, warmup, measure, measure, seed};
    return sched_dyn_simulate_ex(shape, &o, st, err, errlen);
}

int sched_dyn_simulate_ex(const sched_shape *shape, const sched_dyn_sim_options *opt, sched_dyn_stats *st,
                          char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    const int discipline = opt->discipline;
    const double rho = opt->rho;
    const uint32_t warmup = opt->warmup, measure = opt->measure, tail = opt->tail;
    const uint64_t seed = opt->seed;
    sched_dyn_plan pl;
    const char *why = sched_dyn_make_plan_ex(&pl, shape, opt->routing, opt->uniform);
    if (why) return dyn_error(err, errlen, "dynamic broadcast: %s", why);
    if (rho <= 0 || rho >= 1.5) return dyn_error(err, errlen, "dynamic broadcast: load rho must be in (0, 1.5)");
    const uint32_t n = pl.nodes, d = shape->dims, ports = 2u * d;
    const double lambda = rho * 2.0 * d / (double)(pl.receivers - 1u);   /* per generating node per slot */
    port_queue *q = calloc((size_t)n * ports, sizeof *q);
    uint32_t *seq = calloc(n, sizeof *seq);
    uint32_t *backlog = calloc((size_t)n * SCHED_MAX_DIMS, sizeof *backlog);   /* Eul_X(i) */
    uint32_t *node_queue = calloc(n, sizeof *node_queue);
    double *bdelays = 0;
    size_t nbdelays = 0, capbdelays = 0;
    uint64_t dim_trans[SCHED_MAX_DIMS] = {0};
    pkt_info *info = 0;
    uint32_t ninfo = 0, capinfo = 0;
    uint64_t *seen = 0;          /* per packet, one bit per node */
    const uint32_t words = (n + 63u) / 64u;
    double *delays = 0;
    size_t ndelays = 0, capdelays = 0;
    typedef struct { uint32_t dst; uint8_t port; q_entry e; } flight;
    flight *fl = malloc(sizeof *fl * (size_t)n * ports);
    pool_t pool = {0, 0, 0, -1};
    rng_t rng = {seed * 0x9E3779B97F4A7C15ull + 1u};
    int rc = -1;
    if (!q || !seq || !fl || !backlog || !node_queue) { dyn_error(err, errlen, "out of memory"); goto done; }
    if (discipline < SCHED_DYN_FIFO || discipline > SCHED_DYN_DESC) { dyn_error(err, errlen, "dynamic broadcast: unknown discipline"); goto done; }
    if (lambda > 2.0) { dyn_error(err, errlen, "dynamic broadcast: rate too high for this shape"); goto done; }
    const double exp_minus_lambda = exp_series(-lambda);
    for (uint32_t k = 0; k < (uint32_t)n * ports; k++) q[k].head[0] = q[k].head[1] = q[k].tail[0] = q[k].tail[1] = -1;

    const uint32_t stop_gen = warmup + measure, gen_end = stop_gen + tail, limit = gen_end + 20u * measure + 1000u;
    uint32_t measured_open = 0;
    uint64_t transmissions = 0;
    uint32_t t;
    for (t = 1; t <= limit; t++) {
        /* Requests that arrived during the previous slot (Poisson count, uniform times). */
        if (t - 1u < gen_end) {
            for (uint32_t v = 0; v < n; v++) {
                if (!sched_dyn_is_receiver(&pl, v)) continue;
                for (uint32_t arrivals = t > 1u ? poisson(&rng, exp_minus_lambda) : 0u; arrivals > 0; arrivals--) {
                    double gen = (double)(t - 2u) + rng_unit(&rng);
                    if (ninfo == capinfo) {
                        capinfo = capinfo ? capinfo * 2u : 1024u;
                        pkt_info *gi = realloc(info, sizeof *gi * capinfo);
                        uint64_t *gs = realloc(seen, sizeof *gs * capinfo * words);
                        if (!gi || !gs) { free(gi ? gi : info); free(gs ? gs : seen); info = 0; seen = 0; dyn_error(err, errlen, "out of memory"); goto done; }
                        info = gi;
                        seen = gs;
                    }
                    uint32_t pid = ninfo++;
                    memset(&info[pid], 0, sizeof info[pid]);
                    memset(&seen[(size_t)pid * words], 0, sizeof *seen * words);
                    info[pid].gen = gen;
                    info[pid].measured = gen >= (double)warmup && gen < (double)stop_gen;
                    if (info[pid].measured) { measured_open++; st->packets++; }
                    sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
                    const uint32_t r1 = (uint32_t)(rng_next(&rng) >> 32), r2 = (uint32_t)(rng_next(&rng) >> 32);
                    int ns = sched_dyn_originate_ex(&pl, v, seq[v]++, r1, r2, &backlog[(size_t)v * SCHED_MAX_DIMS], sends);
                    for (int s = 0; s < ns; s++) {
                        sched_dyn_future_load(&pl, &sends[s].pkt, &backlog[(size_t)v * SCHED_MAX_DIMS]);
                        node_queue[v]++;
                        int32_t e = pool_get(&pool);
                        if (e < 0) { dyn_error(err, errlen, "out of memory"); goto done; }
                        pool.pool[e].pkt = sends[s].pkt;
                        pool.pool[e].pid = pid;
                        pool.pool[e].next = -1;
                        port_queue *pq = &q[v * ports + sends[s].port];
                        int cls = discipline == SCHED_DYN_PRIO2 ? sends[s].pkt.prio : 0;
                        if (pq->tail[cls] >= 0) pool.pool[pq->tail[cls]].next = e; else pq->head[cls] = e;
                        pq->tail[cls] = e;
                        pq->len++;
                    }
                }
            }
        } else if (measured_open == 0) break;
        /* Each output port sends one packet. */
        uint32_t nf = 0;
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t p = 0; p < ports; p++) {
                port_queue *pq = &q[v * ports + p];
                if (!pq->len) continue;
                if (pq->len > st->max_queue) st->max_queue = pq->len;
                int32_t pick = -1, prev_pick = -1;
                int cls = 0;
                if (discipline == SCHED_DYN_PRIO2) { cls = pq->head[0] >= 0 ? 0 : 1; pick = pq->head[cls]; }
                else if (discipline == SCHED_DYN_FIFO) pick = pq->head[0];
                else {   /* more descendants first, ties to the older packet */
                    int32_t prev = -1;
                    for (int32_t e = pq->head[0]; e >= 0; prev = e, e = pool.pool[e].next) {
                        if (pick < 0) { pick = e; prev_pick = prev; continue; }
                        const q_entry *a = &pool.pool[e], *b = &pool.pool[pick];
                        if (a->pkt.descendants > b->pkt.descendants ||
                            (a->pkt.descendants == b->pkt.descendants && info[a->pid].gen < info[b->pid].gen)) {
                            pick = e;
                            prev_pick = prev;
                        }
                    }
                }
                /* Unlink. */
                if (discipline == SCHED_DYN_DESC && prev_pick >= 0) {
                    pool.pool[prev_pick].next = pool.pool[pick].next;
                    if (pq->tail[0] == pick) pq->tail[0] = prev_pick;
                } else {
                    pq->head[cls] = pool.pool[pick].next;
                    if (pq->head[cls] < 0) pq->tail[cls] = -1;
                }
                pq->len--;
                if (node_queue[v] > st->max_node_queue) st->max_node_queue = node_queue[v];
                node_queue[v]--;
                {
                    uint32_t fut[SCHED_MAX_DIMS] = {0};
                    sched_dyn_future_load(&pl, &pool.pool[pick].pkt, fut);
                    for (uint32_t i = 0; i < d; i++) backlog[(size_t)v * SCHED_MAX_DIMS + i] -= fut[i];
                }
                if (t > warmup && t <= stop_gen) dim_trans[p / 2u]++;
                int64_t nb = sched_neighbour(shape, v, (uint8_t)p);
                if (nb < 0) { dyn_error(err, errlen, "node %u sends off the mesh on port %u", (unsigned)v, (unsigned)p); goto done; }
                fl[nf].dst = (uint32_t)nb;
                fl[nf].port = (uint8_t)(p ^ 1u);
                fl[nf].e = pool.pool[pick];
                nf++;
                pool.pool[pick].next = pool.free_head;
                pool.free_head = pick;
            }
        if (t > warmup && t <= stop_gen) transmissions += nf;
        /* Arrivals at the end of the slot. */
        for (uint32_t k = 0; k < nf; k++) {
            const uint32_t dst = fl[k].dst, pid = fl[k].e.pid;
            pkt_info *pi = &info[pid];
            pi->transmissions++;
            int deliver = 0;
            sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
            int ns = sched_dyn_on_receive(&pl, dst, &fl[k].e.pkt, &deliver, sends);
            if (deliver) {
                uint64_t *bits = &seen[(size_t)pid * words + dst / 64u];
                if (*bits & (1ull << (dst % 64u))) {
                    dyn_error(err, errlen, "node %u receives packet %u twice (slot %u)", (unsigned)dst, (unsigned)pid, (unsigned)t);
                    goto done;
                }
                if (!sched_dyn_is_receiver(&pl, dst)) {
                    dyn_error(err, errlen, "packet delivered to a relay node %u", (unsigned)dst);
                    goto done;
                }
                *bits |= 1ull << (dst % 64u);
                pi->receptions++;
                double delay = (double)t - pi->gen;
                if (pi->measured) {
                    if (ndelays == capdelays) {
                        capdelays = capdelays ? capdelays * 2u : 65536u;
                        double *g = realloc(delays, sizeof *g * capdelays);
                        if (!g) { dyn_error(err, errlen, "out of memory"); goto done; }
                        delays = g;
                    }
                    delays[ndelays++] = delay;
                    if (delay > pi->last) pi->last = delay;
                    if (pi->receptions == pl.receivers - 1u) {
                        measured_open--;
                        st->mean_broadcast_delay += pi->last;
                        if (t - 1u >= gen_end) st->late++;
                        if (nbdelays == capbdelays) {
                            capbdelays = capbdelays ? capbdelays * 2u : 4096u;
                            double *g = realloc(bdelays, sizeof *g * capbdelays);
                            if (!g) { dyn_error(err, errlen, "out of memory"); goto done; }
                            bdelays = g;
                        }
                        bdelays[nbdelays++] = pi->last;
                    }
                }
            }
            for (int s = 0; s < ns; s++) {
                int32_t e = pool_get(&pool);
                if (e < 0) { dyn_error(err, errlen, "out of memory"); goto done; }
                pool.pool[e].pkt = sends[s].pkt;
                pool.pool[e].pid = pid;
                pool.pool[e].next = -1;
                sched_dyn_future_load(&pl, &sends[s].pkt, &backlog[(size_t)dst * SCHED_MAX_DIMS]);
                node_queue[dst]++;
                port_queue *pq = &q[dst * ports + sends[s].port];
                int cls = discipline == SCHED_DYN_PRIO2 ? sends[s].pkt.prio : 0;
                if (pq->tail[cls] >= 0) pool.pool[pq->tail[cls]].next = e; else pq->head[cls] = e;
                pq->tail[cls] = e;
                pq->len++;
            }
        }
    }
    if (measured_open) {
        st->saturated = 1;
        rc = 0;   /* not an error: the load is beyond what the scheme sustains */
        goto done;
    }
    /* Every measured packet: all receivers, and (STAR) a spanning tree: N-1 transmissions. */
    for (uint32_t pid = 0; pid < ninfo; pid++) {
        if (!info[pid].measured) continue;
        if (info[pid].receptions != pl.receivers - 1u) { dyn_error(err, errlen, "packet %u reached %u of %u receivers", (unsigned)pid, (unsigned)info[pid].receptions, (unsigned)(pl.receivers - 1u)); goto done; }
        if (!pl.arc && info[pid].transmissions != n - 1u) { dyn_error(err, errlen, "packet %u used %u transmissions, a spanning tree has %u", (unsigned)pid, (unsigned)info[pid].transmissions, (unsigned)(n - 1u)); goto done; }
    }
    st->receptions = ndelays;
    if (ndelays) {
        double sum = 0;
        for (size_t k = 0; k < ndelays; k++) sum += delays[k];
        st->mean_delay = sum / (double)ndelays;
        qsort(delays, ndelays, sizeof *delays, cmp_double);
        st->p95_delay = delays[(size_t)(0.95 * (double)(ndelays - 1u))];
        st->max_delay = delays[ndelays - 1u];
    }
    if (st->packets) st->mean_broadcast_delay /= st->packets;
    if (nbdelays) {
        qsort(bdelays, nbdelays, sizeof *bdelays, cmp_double);
        st->p95_broadcast_delay = bdelays[(size_t)(0.95 * (double)(nbdelays - 1u))];
    }
    {
        uint64_t links = 0, dim_links[SCHED_MAX_DIMS] = {0};
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t p = 0; p < ports; p++)
                if (sched_neighbour(shape, v, (uint8_t)p) >= 0) { links++; dim_links[p / 2u]++; }
        st->link_utilisation = measure && links ? (double)transmissions / ((double)measure * (double)links) : 0;
        for (uint32_t i = 0; i < d; i++)
            st->dim_utilisation[i] = measure && dim_links[i] ? (double)dim_trans[i] / ((double)measure * (double)dim_links[i]) : 0;
    }
    st->slots = t;
    rc = 0;
done:
    free(q); free(seq); free(info); free(seen); free(delays); free(fl); free(pool.pool);
    free(backlog); free(node_queue); free(bdelays);
    return rc;
}

/* ---------------------------------------------------------------- burst = MNB via the rule */

int sched_dyn_burst(sched_schedule *out, const sched_shape *shape, int discipline, uint64_t seed, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof *out);
    sched_dyn_plan pl;
    const char *why = sched_dyn_make_plan(&pl, shape);
    if (why) return dyn_error(err, errlen, "dyn-star: %s", why);
    if (pl.arc) return dyn_error(err, errlen, "dyn-star: the burst (every node one packet) needs a torus (ARC serves the interior only)");
    const uint32_t n = pl.nodes, ports = 2u * shape->dims;
    out->shape = *shape;
    out->algo = SCHED_ALGO_DYN_STAR;
    out->coll = SCHED_COLL_ALLGATHER;
    out->model = SCHED_MODEL_SAF_ALLPORT;
    port_queue *q = calloc((size_t)n * ports, sizeof *q);
    typedef struct { uint32_t dst; uint8_t port; q_entry e; } flight;
    flight *fl = malloc(sizeof *fl * (size_t)n * ports);
    pool_t pool = {0, 0, 0, -1};
    rng_t rng = {seed * 0x9E3779B97F4A7C15ull + 7u};
    int rc = -1;
    uint64_t queued = 0;
    if (!q || !fl) { dyn_error(err, errlen, "out of memory"); goto done; }
    for (uint32_t k = 0; k < n * ports; k++) q[k].head[0] = q[k].head[1] = q[k].tail[0] = q[k].tail[1] = -1;
    for (uint32_t v = 0; v < n; v++) {
        sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
        int ns = sched_dyn_originate(&pl, v, 0, (uint32_t)(rng_next(&rng) >> 32), sends);
        for (int s = 0; s < ns; s++) {
            int32_t e = pool_get(&pool);
            if (e < 0) { dyn_error(err, errlen, "out of memory"); goto done; }
            pool.pool[e] = (q_entry){sends[s].pkt, v, -1};
            port_queue *pq = &q[v * ports + sends[s].port];
            int cls = discipline == SCHED_DYN_PRIO2 ? sends[s].pkt.prio : 0;
            if (pq->tail[cls] >= 0) pool.pool[pq->tail[cls]].next = e; else pq->head[cls] = e;
            pq->tail[cls] = e;
            pq->len++;
            queued++;
        }
    }
    for (uint32_t t = 1; queued; t++) {
        if (t > 65000u) { dyn_error(err, errlen, "dyn-star: does not drain"); goto done; }
        uint32_t nf = 0;
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t p = 0; p < ports; p++) {
                port_queue *pq = &q[v * ports + p];
                if (!pq->len) continue;
                int cls = (discipline == SCHED_DYN_PRIO2 && pq->head[0] < 0) ? 1 : 0;
                int32_t pick = pq->head[cls];
                pq->head[cls] = pool.pool[pick].next;
                if (pq->head[cls] < 0) pq->tail[cls] = -1;
                pq->len--;
                queued--;
                fl[nf].dst = (uint32_t)sched_neighbour(shape, v, (uint8_t)p);
                fl[nf].port = (uint8_t)p;
                fl[nf].e = pool.pool[pick];
                nf++;
                pool.pool[pick].next = pool.free_head;
                pool.free_head = pick;
            }
        for (uint32_t k = 0; k < nf; k++) {
            int deliver = 0;
            sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
            const uint32_t dst = fl[k].dst;
            int ns = sched_dyn_on_receive(&pl, dst, &fl[k].e.pkt, &deliver, sends);
            sched_msg msg;
            memset(&msg, 0, sizeof msg);
            msg.src = (uint32_t)sched_neighbour(shape, dst, (uint8_t)(fl[k].port ^ 1u));
            msg.dst = dst;
            msg.piece = fl[k].e.pid;
            msg.step = (uint16_t)t;
            msg.start_dim = (uint8_t)(fl[k].port / 2u);
            msg.hops[fl[k].port / 2u] = (fl[k].port & 1u) ? -1 : 1;
            msg.reserved = deliver ? 0 : SCHED_MSG_TRANSIT;
            if (sched_push(out, &msg)) { dyn_error(err, errlen, "out of memory"); goto done; }
            for (int s = 0; s < ns; s++) {
                int32_t e = pool_get(&pool);
                if (e < 0) { dyn_error(err, errlen, "out of memory"); goto done; }
                pool.pool[e] = (q_entry){sends[s].pkt, fl[k].e.pid, -1};
                port_queue *pq = &q[dst * ports + sends[s].port];
                int cls = discipline == SCHED_DYN_PRIO2 ? sends[s].pkt.prio : 0;
                if (pq->tail[cls] >= 0) pool.pool[pq->tail[cls]].next = e; else pq->head[cls] = e;
                pq->tail[cls] = e;
                pq->len++;
                queued++;
            }
        }
    }
    sched_finish(out);
    rc = 0;
done:
    free(q); free(fl); free(pool.pool);
    if (rc) sched_free(out);
    return rc;
}
