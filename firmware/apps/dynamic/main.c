/* SPDX-License-Identifier: ISC
 * Dynamic broadcast on the machine (issue 16): every node generates broadcasts as a Poisson
 * process and forwards every packet it receives by the Yeh-Varvarigos-Lee rule of
 * firmware/sched/sched_dyn.c (STAR, REDO or adaptive STAR on a torus, ARC on a mesh), from
 * per-output-port queues (FIFO, the paper's 2-class priority, or more-descendants-first).
 *
 * The store-and-forward slot model of the paper, on real links: the machine runs in slots.
 * In each slot every node sends exactly one worm to each neighbour, one hop, and receives
 * one from each, on all ports at once and never stalling on one port while another could
 * move (the link-port driver's raw per-port calls, flit by flit, as its ni_exchange does;
 * DYN_EXCHANGE=1 uses the driver's ni_exchange_pio, 2 its ni_exchange): the head packet of that port's
 * queue, or an idle worm of one word when the queue is empty.
 * So a link carries one packet per slot, as in the paper, and the nodes keep in step with
 * their neighbours without a clock: a slot lasts as long as its exchange and the work after
 * it (delivering, routing, generating) take; it is measured on the machine-wide cycle count.
 *
 * Slot s (1, 2, ...): exchange; deliver and route what arrived (queued for slot s + 1 on);
 * then the requests that arrived during slot s (a Poisson number, uniform times in
 * [s - 1, s)) are queued and go out from slot s + 1. Requests arrive in slots
 * 1 .. warmup + measure + tail; those of [warmup, warmup + measure) are measured.
 *
 * The end: every worm carries the last slot its sender knows some node was busy (queued or
 * generating); a node keeps the largest it hears. Information crosses one hop per slot, so
 * after slot s a node knows of every busy slot up to s - diameter; when the last it knows
 * is older than that, the network has drained (no packet can appear once no node holds one)
 * and every node stops after the same slot: last busy + diameter + 1.
 *
 * Everything a node saw goes into its log (dyn_log.h, the symbol rvmesh_dump), which
 * mesh-sim --dump writes out after the run; dyn-report checks there that every broadcast
 * reached every receiver exactly once with the right data and computes the delays. A node
 * also exits non-zero on what it can see itself (a duplicate, wrong data, a bad worm, a full
 * queue pool).
 *
 * Build parameters (the Makefile sets them from RHO, SEED, ...): DYN_RHO_PPM, DYN_SEED,
 * DYN_DISC, DYN_ROUTING, DYN_UNIFORM, DYN_WARMUP, DYN_MEASURE, DYN_TAIL, DYN_MAX_SLOTS,
 * DYN_DATA_WORDS, DYN_MAX_SEQ, DYN_POOL, DYN_PLANT, DYN_EXCHANGE. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dyn_log.h"
#include "linkport.h"
#include "rvmesh_rt.h"
#include "sched_dyn.h"

#ifndef DYN_RHO_PPM
#define DYN_RHO_PPM 500000u
#endif
#ifndef DYN_SEED
#define DYN_SEED 1u
#endif
#ifndef DYN_DISC
#define DYN_DISC 1u /* 0 FIFO, 1 2-class priority, 2 more descendants first */
#endif
#ifndef DYN_ROUTING
#define DYN_ROUTING 0u
#endif
#ifndef DYN_UNIFORM
#define DYN_UNIFORM 0u
#endif
#ifndef DYN_WARMUP
#define DYN_WARMUP 50u
#endif
#ifndef DYN_MEASURE
#define DYN_MEASURE 200u
#endif
#ifndef DYN_TAIL
#define DYN_TAIL 50u
#endif
#ifndef DYN_MAX_SLOTS
#define DYN_MAX_SLOTS 2000u
#endif
#ifndef DYN_DATA_WORDS
#define DYN_DATA_WORDS 2u
#endif
#ifndef DYN_MAX_SEQ
#define DYN_MAX_SEQ 64u
#endif
#ifndef DYN_POOL
#define DYN_POOL 512u
#endif
#ifndef DYN_PLANT
#define DYN_PLANT 0u
#endif
#ifndef DYN_EXCHANGE
#define DYN_EXCHANGE 0u /* 0 exchange_slot, 1 ni_exchange_pio, 2 ni_exchange */
#endif

#define NODES (RVMESH_MESH_X * RVMESH_MESH_Y * RVMESH_MESH_Z)
#define PORTS (2u * RVMESH_MESH_DIMS)
#define DISC_FIFO 0u
#define DISC_PRIO2 1u
#define DISC_DESC 2u
#define HDR_WORDS 4u                          /* busy | data flag, source | seq, gen, route */
#define PKT_WORDS (HDR_WORDS + DYN_DATA_WORDS)
#define W0_DATA 0x80000000u

#if DYN_MAX_SLOTS > 65000u || DYN_MAX_SEQ > 65535u || DYN_POOL > 32767u
#error "DYN_MAX_SLOTS <= 65000, DYN_MAX_SEQ <= 65535, DYN_POOL <= 32767"
#endif

_Static_assert(sizeof(struct dyn_log_head) == DYN_LOG_HEAD_BYTES, "dyn_log_head is 256 bytes");

#define LOG_BYTES (DYN_LOG_HEAD_BYTES + 8u * DYN_MAX_SEQ + ((2u * NODES * DYN_MAX_SEQ + 3u) & ~3u) + 4u * (DYN_MAX_SLOTS + 1u))
uint32_t rvmesh_dump[LOG_BYTES / 4u] __attribute__((aligned(8), used));

static struct dyn_log_head *const head = (struct dyn_log_head *)rvmesh_dump;
#define GEN_SF ((uint32_t *)((uint8_t *)rvmesh_dump + dyn_log_gen_sf_off()))
#define GEN_CYCLE ((uint32_t *)((uint8_t *)rvmesh_dump + dyn_log_gen_cycle_off(DYN_MAX_SEQ)))
#define RECV ((uint16_t *)((uint8_t *)rvmesh_dump + dyn_log_recv_off(DYN_MAX_SEQ)))
#define SLOT_CYCLE ((uint32_t *)((uint8_t *)rvmesh_dump + dyn_log_slot_off(NODES, DYN_MAX_SEQ)))

/* ---- per-port queues: a pool of entries, two classes per port (FIFO uses class 0) ---- */
typedef struct {
    sched_dyn_packet pkt;
    uint32_t gen;         /* slot << 16 | frac of the request: the age for ties */
    int16_t next;
} qent;

static qent pool[DYN_POOL];
static int16_t free_head;
static int16_t qhead[PORTS][2], qtail[PORTS][2];
static uint16_t qlen[PORTS];
static uint32_t queued;                 /* all ports */
static uint32_t backlog[SCHED_MAX_DIMS]; /* adaptive STAR: Eul_X(i) of the queued packets */
static sched_dyn_plan plan;

static void fail(uint32_t code)
{
    if (head->status == DYN_OK)
        head->status = code;
}

static void enqueue(const sched_dyn_send *s, uint32_t gen)
{
    if (free_head < 0) {
        head->overflow++;
        fail(DYN_E_POOL);
        return;
    }
    const int16_t e = free_head;
    free_head = pool[e].next;
    pool[e].pkt = s->pkt;
    pool[e].gen = gen;
    pool[e].next = -1;
    const unsigned p = s->port, c = DYN_DISC == DISC_PRIO2 ? s->pkt.prio : 0u;
    if (qtail[p][c] >= 0)
        pool[qtail[p][c]].next = e;
    else
        qhead[p][c] = e;
    qtail[p][c] = e;
    if (++qlen[p] > head->max_queue)
        head->max_queue = qlen[p];
    if (++queued > head->max_node_queue)
        head->max_node_queue = queued;
    if (DYN_ROUTING == SCHED_DYN_ROUTE_ADAPTIVE)
        sched_dyn_future_load(&plan, &s->pkt, backlog);
}

/* the entry port p sends next, unlinked; -1 if its queue is empty */
static int16_t dequeue(unsigned p)
{
    if (!qlen[p])
        return -1;
    int16_t e;
    unsigned c = 0;
    if (DYN_DISC == DISC_DESC) {   /* more descendants first, ties to the older */
        int16_t prev = -1;
        e = qhead[p][0];
        for (int16_t k = pool[e].next, before = e; k >= 0; before = k, k = pool[k].next) {
            const qent *a = &pool[k], *b = &pool[e];
            if (a->pkt.descendants > b->pkt.descendants ||
                (a->pkt.descendants == b->pkt.descendants && a->gen < b->gen)) {
                e = k;
                prev = before;
            }
        }
        if (prev >= 0) {
            pool[prev].next = pool[e].next;
            if (qtail[p][0] == e)
                qtail[p][0] = prev;
        } else {
            qhead[p][0] = pool[e].next;
            if (qhead[p][0] < 0)
                qtail[p][0] = -1;
        }
    } else {
        if (DYN_DISC == DISC_PRIO2 && qhead[p][0] < 0)
            c = 1;
        e = qhead[p][c];
        qhead[p][c] = pool[e].next;
        if (qhead[p][c] < 0)
            qtail[p][c] = -1;
    }
    qlen[p]--;
    queued--;
    if (DYN_ROUTING == SCHED_DYN_ROUTE_ADAPTIVE) {
        uint32_t fut[SCHED_MAX_DIMS] = {0, 0, 0};
        sched_dyn_future_load(&plan, &pool[e].pkt, fut);
        for (unsigned i = 0; i < SCHED_MAX_DIMS; i++)
            backlog[i] -= fut[i];
    }
    return e;
}

static void release(int16_t e)
{
    pool[e].next = free_head;
    free_head = e;
}

/* ---- the packet on the wire ---- */
static uint32_t route_word(const sched_dyn_packet *p)
{
    return (uint32_t)p->stage | (uint32_t)p->ending << 2 | (uint32_t)p->phase << 4 | (p->dir < 0 ? 1u << 6 : 0u) |
           (uint32_t)p->reverse << 7 | (uint32_t)p->face_side << 8 | (uint32_t)p->hops_left << 16;
}

static void unpack(const uint32_t *w, sched_dyn_packet *p)
{
    memset(p, 0, sizeof *p);
    p->source = w[1] >> 16;
    p->seq = w[1] & 0xffffu;
    p->stage = (uint8_t)(w[3] & 3u);
    p->ending = (uint8_t)(w[3] >> 2 & 3u);
    p->phase = (uint8_t)(w[3] >> 4 & 3u);
    p->dir = (int8_t)(w[3] & (1u << 6) ? -1 : 1);
    p->reverse = (uint8_t)(w[3] >> 7 & 1u);
    p->face_side = (uint8_t)(w[3] >> 8 & 1u);
    p->hops_left = (uint16_t)(w[3] >> 16);
}

/* ---- the node's random numbers: xorshift64*, seeded by (seed, node) ---- */
static uint64_t rng_state;
static uint32_t rng32(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static inline uint32_t cycles32(void) { return RVMESH_CSR_READ(mcycle); }

/* e^-x for x in [0, 2], as a fraction of 2^32 (Knuth's Poisson threshold) */
static uint32_t exp_neg_q32(double x)
{
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 40; k++) {
        term *= -x / k;
        sum += term;
    }
    return sum <= 0 ? 0u : (uint32_t)(sum * 4294967296.0);
}

/* the worms of a slot, whole (head, info, payload); the driver's calls take the payloads */
static uint32_t tx_worm[PORTS][PKT_WORDS + 2u] __attribute__((aligned(4)));
static uint32_t rx_worm[PORTS][PKT_WORDS + 2u] __attribute__((aligned(4)));
#define tx_buf(p) (&tx_worm[p][2])
#define rx_buf(p) (&rx_worm[p][2])
static uint32_t tx_n[PORTS];   /* payload words to send */
static uint32_t rx_n[PORTS];   /* payload words received (0: a bad worm) */

/* One worm each way on every port of `mask`, never waiting: flits are written only while
 * the TX queue takes them (TX_STATUS: an idle queue takes `tx_depth` flits at once, else one
 * at a time) and read only while one waits (PORT_STATUS), so a node never stalls while its
 * neighbours need it. A worm is tx_worm[p][0 .. tx_n[p] + 1]: head, info (NOC_INFO: source,
 * length), payload; it arrives in rx_worm[p]. Returns 0, or the number of malformed worms
 * (their rx_n is 0). */
static uint32_t tx_depth;
static uint32_t exchange_slot(uint32_t mask)
{
    uint32_t tx_i[PORTS], rx_i[PORTS], bad = 0;
    uint32_t tx_left = mask, rx_left = mask;
    for (unsigned p = 0; p < PORTS; p++)
        tx_i[p] = rx_i[p] = 0;
    while (tx_left | rx_left) {
        if (tx_left) {
            const uint32_t st = ni_read(NI_TX_STATUS);
            for (unsigned p = 0; p < PORTS; p++) {
                if (!(tx_left & st & (1u << p)))
                    continue;
                const uint32_t last = tx_n[p] + 1u, *w = tx_worm[p];
                uint32_t i = tx_i[p], stop = i + ((st >> 8 & (1u << p)) ? tx_depth : 1u);
                if (stop > last) {
                    for (; i < last; i++)
                        ni_tx_flit(p, w[i]);
                    ni_tx_last(p, w[last]);
                    tx_left &= ~(1u << p);
                    continue;
                }
                for (; i < stop; i++)
                    ni_tx_flit(p, w[i]);
                tx_i[p] = i;
            }
        }
        const uint32_t avail = ni_rx_mask() & rx_left;
        for (unsigned p = 0; p < PORTS; p++) {
            if (!(avail & (1u << p)))
                continue;
            uint32_t st, i = rx_i[p], *w = rx_worm[p];
            while ((st = ni_port_status(p)) & NI_PS_RX_VALID) {
                const uint32_t word = ni_rx_flit(p);
                if (i < PKT_WORDS + 2u)
                    w[i] = word;
                i++;
                if (st & NI_PS_RX_LAST) {
                    rx_left &= ~(1u << p);
                    break;
                }
            }
            rx_i[p] = i;
        }
    }
    /* a worm: whole, with the length its info flit says, and a payload that fits */
    for (unsigned p = 0; p < PORTS; p++) {
        if (!(mask & (1u << p)))
            continue;
        const uint32_t i = rx_i[p];
        rx_n[p] = i >= 3u && i <= PKT_WORDS + 2u && NOC_INFO_FLITS(rx_worm[p][1]) == i ? i - 2u : 0u;
        bad += rx_n[p] == 0;
    }
    return bad;
}

int main(void)
{
    struct ni_shape ni;
    if (ni_init(&ni) != NI_OK) {
        printf("dynamic: no network interface\n");
        return 2;
    }
    const uint32_t node = ni.node;
    sched_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.dims = ni.dims;
    sh.torus = ni.torus;
    for (unsigned k = 0; k < SCHED_MAX_DIMS; k++)
        sh.side[k] = k < ni.dims ? ni.size[k] : 1u;

    head->magic = DYN_LOG_MAGIC;
    head->version = DYN_LOG_VERSION;
    head->node = node;
    head->nodes = ni.nodes;
    head->rho_ppm = DYN_RHO_PPM;
    head->seed = DYN_SEED;
    head->discipline = DYN_DISC;
    head->routing = DYN_ROUTING;
    head->uniform = DYN_UNIFORM;
    head->warmup = DYN_WARMUP;
    head->measure = DYN_MEASURE;
    head->tail = DYN_TAIL;
    head->max_slots = DYN_MAX_SLOTS;
    head->data_words = DYN_DATA_WORDS;
    head->max_seq = DYN_MAX_SEQ;
    head->plant = DYN_PLANT;
    head->pool = DYN_POOL;
    head->exchange = DYN_EXCHANGE;
    head->diameter = sched_eccentricity(&sh, 0);

    const char *why = ni.nodes != NODES ? "built for another shape" : sched_dyn_make_plan_ex(&plan, &sh, DYN_ROUTING, DYN_UNIFORM);
    if (why) {
        if (node == 0)
            printf("dynamic: %s\n", why);
        head->status = DYN_E_PLAN;
        return 2;
    }
    const int gen_here = sched_dyn_is_receiver(&plan, node);
    /* lambda per generating node and slot: rho = lambda (N-1) / (2d) (digest B1; N' on a mesh) */
    const double lambda = (double)DYN_RHO_PPM * 1e-6 * 2.0 * ni.dims / (double)(plan.receivers - 1u);
    const uint32_t exp_neg_lambda = exp_neg_q32(lambda > 2.0 ? 2.0 : lambda);
    rng_state = ((uint64_t)DYN_SEED << 32 | (node + 1u)) * 0x9e3779b97f4a7c15ull + 1u;
    for (int k = 0; k < 4; k++)
        (void)rng32();

    for (int k = 0; k < (int)DYN_POOL; k++)
        pool[k].next = (int16_t)(k + 1 < (int)DYN_POOL ? k + 1 : -1);
    free_head = 0;
    for (unsigned p = 0; p < PORTS; p++)
        qhead[p][0] = qhead[p][1] = qtail[p][0] = qtail[p][1] = -1;

    /* ports with a neighbour: one worm each way per slot */
    uint32_t port_mask = 0;
    tx_depth = (ni_read(NI_PORTS) >> 16) & 0xffu;
    if (tx_depth == 0)
        tx_depth = 1;
    struct ni_tx tx[PORTS];
    struct ni_rx rx[PORTS];
    struct ni_tx *txp[NI_MAX_PORTS];
    struct ni_rx *rxp[NI_MAX_PORTS];
    for (unsigned p = 0; p < NI_MAX_PORTS; p++) {
        txp[p] = 0;
        rxp[p] = 0;
    }
    for (unsigned p = 0; p < PORTS; p++) {
        tx_worm[p][0] = ni_one_hop_head(p, 0);
        if (ni_neighbour(&ni, node, p) == NI_NO_NODE)
            continue;
        port_mask |= 1u << p;
        tx[p].head = tx_worm[p][0];
        tx[p].payload = tx_buf(p);
        txp[p] = &tx[p];
        rx[p].payload = rx_buf(p);
        rx[p].max = PKT_WORDS;
        rxp[p] = &rx[p];
    }

    const uint32_t gen_end = DYN_WARMUP + DYN_MEASURE + DYN_TAIL;
    uint32_t seq = 0, sends_seen = 0, last_busy = 0;
    SLOT_CYCLE[0] = head->start_cycle = cycles32();
    uint32_t t_prev = SLOT_CYCLE[0];
    uint32_t s;
    for (s = 1; s <= DYN_MAX_SLOTS; s++) {
        /* this slot's worms: each port's next packet, or an idle word */
        int16_t out[PORTS];
        for (unsigned p = 0; p < PORTS; p++) {
            out[p] = -1;
            if (!(port_mask & (1u << p)))
                continue;
            tx_buf(p)[0] = last_busy;
            out[p] = dequeue(p);
            if (out[p] < 0) {
                tx[p].n = tx_n[p] = 1;
                tx_worm[p][1] = NOC_INFO(node, 3u);
                continue;
            }
            const qent *e = &pool[out[p]];
            tx_buf(p)[0] |= W0_DATA;
            tx_buf(p)[1] = e->pkt.source << 16 | (e->pkt.seq & 0xffffu);
            tx_buf(p)[2] = e->gen;
            tx_buf(p)[3] = route_word(&e->pkt);
            for (unsigned i = 0; i < DYN_DATA_WORDS; i++)
                tx_buf(p)[HDR_WORDS + i] = dyn_data_word(e->pkt.source, e->pkt.seq, i);
            tx[p].n = tx_n[p] = PKT_WORDS;
            tx_worm[p][1] = NOC_INFO(node, PKT_WORDS + 2u);
            head->sent++;
        }
        const uint32_t t0 = cycles32();
        uint32_t bad = 0;
        if (DYN_EXCHANGE == 0) {
            bad = exchange_slot(port_mask);
        } else {
            (void)(DYN_EXCHANGE == 1 ? ni_exchange_pio(txp, rxp) : ni_exchange(txp, rxp));
            for (unsigned p = 0; p < PORTS; p++) {
                if (!(port_mask & (1u << p)))
                    continue;
                rx_n[p] = rx[p].status == NI_OK ? rx[p].msg.n : 0u;
                bad += rx[p].status != NI_OK || rx[p].msg.n == 0;
            }
        }
        const uint32_t t1 = cycles32();
        SLOT_CYCLE[s] = t1;
        head->work_cycles += t0 - t_prev;
        head->exchange_cycles += t1 - t0;
        t_prev = t1;
        if (bad) {
            head->bad_worms += bad;
            fail(DYN_E_WORM);
        }
        for (unsigned p = 0; p < PORTS; p++)
            if (out[p] >= 0)
                release(out[p]);

        /* what arrived: deliver, route */
        for (unsigned p = 0; p < PORTS; p++) {
            if (!(port_mask & (1u << p)) || rx_n[p] == 0)
                continue;
            const uint32_t *w = rx_buf(p);
            if ((w[0] & 0xffffu) > last_busy)
                last_busy = w[0] & 0xffffu;
            if (!(w[0] & W0_DATA))
                continue;
            if (rx_n[p] != PKT_WORDS) {
                head->bad_worms++;
                fail(DYN_E_WORM);
                continue;
            }
            sched_dyn_packet in;
            unpack(w, &in);
            int deliver = 0;
            sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
            const int ns = sched_dyn_on_receive(&plan, node, &in, &deliver, sends);
            if (deliver) {
                if (in.source >= NODES || in.seq >= DYN_MAX_SEQ || in.source == node) {
                    head->stray++;
                    fail(DYN_E_STRAY);
                } else {
                    uint16_t *r = &RECV[in.source * DYN_MAX_SEQ + in.seq];
                    int bad_data = 0;
                    for (unsigned i = 0; i < DYN_DATA_WORDS; i++)
                        bad_data |= w[HDR_WORDS + i] != dyn_data_word(in.source, in.seq, i);
                    if (*r || bad_data) {
                        if (*r) {
                            head->duplicates++;
                            fail(DYN_E_DUP);
                        } else {
                            head->corrupt++;
                            fail(DYN_E_DATA);
                        }
                        if (!head->first_bad_slot) {
                            head->first_bad_source = in.source;
                            head->first_bad_seq = in.seq;
                            head->first_bad_slot = s;
                        }
                    } else {
                        *r = (uint16_t)s;
                        head->received++;
                    }
                }
            }
            for (int k = 0; k < ns; k++) {
                sends_seen++;
                if (DYN_PLANT == 1u && node == 0 && sends_seen == 3u)
                    continue;                       /* planted: a transmission lost */
                enqueue(&sends[k], w[2]);
                if (DYN_PLANT == 2u && node == 0 && sends_seen == 3u)
                    enqueue(&sends[k], w[2]);       /* planted: a transmission doubled */
            }
        }

        /* the requests of slot s: Poisson, uniform times in [s - 1, s) */
        if (gen_here && s <= gen_end) {
            uint32_t prod = rng32(), k = 0;
            while (prod > exp_neg_lambda) {
                k++;
                prod = (uint32_t)(((uint64_t)prod * rng32()) >> 32);
            }
            for (; k > 0; k--) {
                const uint32_t frac = rng32() >> 16, r1 = rng32(), r2 = rng32();
                if (seq >= DYN_MAX_SEQ) {
                    fail(DYN_E_SEQ);
                    continue;
                }
                const uint32_t gen = s << 16 | frac;
                GEN_SF[seq] = gen;
                GEN_CYCLE[seq] = SLOT_CYCLE[s - 1] + (uint32_t)(((uint64_t)(SLOT_CYCLE[s] - SLOT_CYCLE[s - 1]) * frac) >> 16);
                sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
                const int ns = sched_dyn_originate_ex(&plan, node, seq, r1, r2, backlog, sends);
                for (int j = 0; j < ns; j++)
                    enqueue(&sends[j], gen);
                seq++;
                head->generated = seq;
            }
        }

        /* the end: see the top of the file */
        if (s <= gen_end || queued)
            last_busy = s;
        if (s >= last_busy + head->diameter + 1u)
            break;
    }
    head->slots = s > DYN_MAX_SLOTS ? DYN_MAX_SLOTS : s;
    head->last_busy = last_busy;
    head->left_queued = queued;
    if (s > DYN_MAX_SLOTS)
        fail(DYN_E_SLOTS);
    if (node == 0)
        printf("dynamic: %lu slots, %lu broadcasts generated here, %lu received, status %lu\n",
               (unsigned long)head->slots, (unsigned long)head->generated, (unsigned long)head->received,
               (unsigned long)head->status);
    return head->status == DYN_OK || head->status == DYN_E_SLOTS ? 0 : (int)(10u + head->status);
}
