/* SPDX-License-Identifier: ISC */
/* On-core test of the issue-5 run-time rules: runs on the RV32IM core (or qemu) with static
 * buffers only. On a 4x4 torus it evaluates, for all 16 nodes, the partial-MNB rule (the
 * parallel prefix on control steps, then packing and broadcast slot by slot, without and with
 * splitting) for a fixed source set, records every transmission and proves the result with
 * the allgather checker; it then propagates STAR broadcasts from every node with the
 * dynamic-broadcast rule, also from the header the machine's wire carries. Prints
 * "core: PASS ..." / "core: FAIL ..." and exits with the number of failures. */
#include <stdio.h>
#include <string.h>

#include "sched.h"
#include "sched_coll.h"
#include "sched_dyn.h"
#include "sched_pmnb.h"
#include "check/sched_check.h"

#define NODES 16
#define MAX_MSGS 240
static sched_msg msgs[MAX_MSGS];
static uint8_t workspace[9000];
static sched_pmnb_node node[NODES];
static uint32_t store[NODES][2 * 8];
static sched_prefix_node pfx[NODES][2];
static sched_pmnb_packet outp[NODES][2 * SCHED_MAX_DIMS];
static int failures;
static uint32_t last_count;

static void result(const char *name, int ok, const char *why)
{
    printf("core: %s %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ", ok ? "" : why);
    if (!ok) failures++;
}

/* inst prefix instances per node (rotation = instance index, or 0 when inst == 1). */
static void run_prefix(const sched_pmnb_plan *pl, uint32_t inst, const uint32_t value[NODES][2])
{
    uint32_t word[NODES][2][2];
    int32_t to[NODES][2];
    for (uint32_t v = 0; v < NODES; v++)
        for (uint32_t i = 0; i < inst; i++) sched_prefix_init(&pfx[v][i], pl, v, (uint8_t)i, value[v][i]);
    for (uint32_t s = 1; s <= 2u * pl->classes * (pl->p - 1u); s++) {
        for (uint32_t v = 0; v < NODES; v++)
            for (uint32_t i = 0; i < inst; i++) {
                int port = sched_prefix_send(pl, &pfx[v][i], s, word[v][i]);
                to[v][i] = port < 0 ? -1 : (int32_t)sched_neighbour(&pl->shape, v, (uint8_t)port);
            }
        for (uint32_t v = 0; v < NODES; v++)
            for (uint32_t i = 0; i < inst; i++)
                if (to[v][i] >= 0) sched_prefix_receive(pl, &pfx[to[v][i]][i], s, word[v][i]);
    }
}

static int pmnb_on_core(const sched_shape *sh, const uint8_t *src, int split, const char **why)
{
    uint32_t m = 0;
    for (uint32_t v = 0; v < NODES; v++) m += src[v];
    sched_pmnb_plan pl;
    *why = sched_pmnb_make_plan(&pl, sh, m, split, 1);
    if (*why) return 0;
    uint32_t val[NODES][2], cls[NODES];
    for (uint32_t v = 0; v < NODES; v++) { val[v][0] = val[v][1] = src[v]; cls[v] = 0; }
    if (!split) {   /* prefix 1: global rank, class = rank mod d */
        run_prefix(&pl, 1, val);
        for (uint32_t v = 0; v < NODES; v++) {
            if (sched_prefix_total(&pfx[v][0]) != m) { *why = "prefix: wrong M"; return 0; }
            cls[v] = sched_prefix_rank(&pfx[v][0]) % pl.classes;
            for (uint32_t c = 0; c < pl.classes; c++) val[v][c] = src[v] && cls[v] == c;
        }
    }
    run_prefix(&pl, pl.classes, val);
    for (uint32_t v = 0; v < NODES; v++) {
        sched_pmnb_node_init(&node[v], &pl, v, store[v], 8);
        if (!src[v]) continue;
        for (uint32_t c = 0; c < pl.classes; c++) {
            if (!split && cls[v] != c) continue;
            if (sched_pmnb_node_source(&node[v], &pl, (uint8_t)c, sched_prefix_rank(&pfx[v][c]), split ? v * 2u + c : v)) {
                *why = "source: rank outside the class";
                return 0;
            }
        }
    }
    sched_schedule s;
    memset(&s, 0, sizeof s);
    s.shape = *sh;
    s.algo = split ? SCHED_ALGO_PMNB_SPLIT : SCHED_ALGO_PMNB;
    s.coll = SCHED_COLL_PARTIAL_ALLGATHER;
    s.model = SCHED_MODEL_SAF_ALLPORT;
    s.msgs = msgs;
    for (uint32_t t = 1; t <= pl.total_slots; t++) {
        for (uint32_t v = 0; v < NODES; v++)
            if (sched_pmnb_node_send(&pl, &node[v], t, outp[v])) { *why = "two packets on one port"; return 0; }
        for (uint32_t v = 0; v < NODES; v++)
            for (uint32_t q = 0; q < 4; q++) {
                const sched_pmnb_packet *pk = &outp[v][q];
                if (pk->kind == SCHED_PMNB_NONE) continue;
                if (s.count == MAX_MSGS) { *why = "message buffer full"; return 0; }
                uint32_t dst = (uint32_t)sched_neighbour(sh, v, (uint8_t)q), origin = pk->piece / pl.parts;
                sched_msg *msg = &msgs[s.count++];
                memset(msg, 0, sizeof *msg);
                msg->src = v;
                msg->dst = dst;
                msg->piece = pk->piece;
                msg->step = (uint16_t)t;
                msg->start_dim = (uint8_t)(q / 2u);
                msg->hops[q / 2u] = (q & 1u) ? -1 : 1;
                if (pk->kind == SCHED_PMNB_PACK) msg->reserved = (pk->target == dst && origin != dst) ? 0 : SCHED_MSG_TRANSIT;
                else msg->reserved = origin == dst ? SCHED_MSG_TRANSIT : 0;
                if (sched_pmnb_node_receive(&pl, &node[dst], t, (uint8_t)(q ^ 1u), pk) < 0) { *why = "receive overflow"; return 0; }
            }
    }
    s.nsteps = pl.total_slots;
    last_count = s.count;
    if (sched_check_coll_workspace_bytes(&s) > sizeof workspace) { *why = "checker workspace too small"; return 0; }
    sched_check_result r;
    static char buf[300];
    if (!sched_check_coll(&s, src, workspace, sizeof workspace, &r)) {
        snprintf(buf, sizeof buf, "checker: %s", r.error);
        *why = buf;
        return 0;
    }
    snprintf(buf, sizeof buf, "checker slots %u, plan %u", (unsigned)r.steps, (unsigned)pl.total_slots);
    *why = buf;
    return r.steps <= pl.total_slots;
}

/* STAR from every node: each node reached once, at its torus distance, N-1 transmissions. */
static int star_on_core(const sched_shape *sh, const char **why)
{
    sched_dyn_plan pl;
    *why = sched_dyn_make_plan(&pl, sh);
    if (*why) return 0;
    static struct { uint32_t node; sched_dyn_packet pkt; } cur[32], next[32];
    for (uint32_t src = 0; src < NODES; src++)
        for (uint32_t l = 0; l < 2; l++) {
            uint8_t got[NODES] = {0};
            sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
            int ns = sched_dyn_originate(&pl, src, 1, l ? 0xFFFFFFFFu : 0u, sends);
            uint32_t ncur = 0, tx = 0;
            for (int k = 0; k < ns; k++) { cur[ncur].node = (uint32_t)sched_neighbour(sh, src, sends[k].port); cur[ncur++].pkt = sends[k].pkt; }
            for (uint32_t hop = 1; ncur; hop++) {
                uint32_t nn = 0;
                for (uint32_t k = 0; k < ncur; k++) {
                    int deliver;
                    int m = sched_dyn_on_receive(&pl, cur[k].node, &cur[k].pkt, &deliver, sends);
                    tx++;
                    if (deliver) {
                        if (got[cur[k].node]) { *why = "a node receives twice"; return 0; }
                        if (hop != sched_distance(sh, src, cur[k].node)) { *why = "reached later than its distance"; return 0; }
                        got[cur[k].node] = 1;
                    }
                    for (int q = 0; q < m; q++) {
                        if (nn == 32) { *why = "propagation buffer full"; return 0; }
                        next[nn].node = (uint32_t)sched_neighbour(sh, cur[k].node, sends[q].port);
                        next[nn++].pkt = sends[q].pkt;
                    }
                }
                memcpy(cur, next, sizeof cur[0] * nn);
                ncur = nn;
            }
            for (uint32_t v = 0; v < NODES; v++) if (v != src && !got[v]) { *why = "a node is never reached"; return 0; }
            if (tx != NODES - 1u) { *why = "not a spanning tree (transmissions != N-1)"; return 0; }
        }
    *why = "";
    return 1;
}

/* The rule from the machine's wire (firmware/apps/dynamic sends only the routing state:
 * packets arrive with prio = 0, descendants = 0): STAR from every node, every arrival routed
 * from the stripped header; every transmission must have the paper's class, LOW exactly in
 * the ending dimension (the last phase), and the descendant count of the whole header. */
static int star_wire_on_core(const sched_shape *sh, const char **why)
{
    sched_dyn_plan pl;
    *why = sched_dyn_make_plan(&pl, sh);
    if (*why) return 0;
    static struct { uint32_t node; sched_dyn_packet pkt; } cur[32], next[32];
    for (uint32_t src = 0; src < NODES; src++)
        for (uint32_t l = 0; l < 2; l++) {
            sched_dyn_send sends[SCHED_DYN_MAX_SENDS], full[SCHED_DYN_MAX_SENDS];
            int ns = sched_dyn_originate(&pl, src, 1, l ? 0xFFFFFFFFu : 0u, sends);
            uint32_t ncur = 0;
            for (int k = 0; k < ns; k++) { cur[ncur].node = (uint32_t)sched_neighbour(sh, src, sends[k].port); cur[ncur++].pkt = sends[k].pkt; }
            while (ncur) {
                uint32_t nn = 0;
                for (uint32_t k = 0; k < ncur; k++) {
                    const sched_dyn_packet *in = &cur[k].pkt;
                    if (in->prio != (in->phase + 1u == sh->dims ? SCHED_DYN_LOW : SCHED_DYN_HIGH)) {
                        *why = "a transmission's class is not LOW exactly in the ending dimension";
                        return 0;
                    }
                    sched_dyn_packet wire = *in;
                    wire.prio = 0;
                    wire.descendants = 0;
                    int deliver, deliver_full;
                    int m = sched_dyn_on_receive(&pl, cur[k].node, &wire, &deliver, sends);
                    int mf = sched_dyn_on_receive(&pl, cur[k].node, in, &deliver_full, full);
                    if (m != mf || deliver != deliver_full) { *why = "the wire's header routes differently"; return 0; }
                    for (int q = 0; q < m; q++) {
                        if (sends[q].port != full[q].port || sends[q].pkt.prio != full[q].pkt.prio ||
                            sends[q].pkt.descendants != full[q].pkt.descendants) {
                            *why = "a send from the wire's header has another port, class or descendant count";
                            return 0;
                        }
                        if (nn == 32) { *why = "propagation buffer full"; return 0; }
                        next[nn].node = (uint32_t)sched_neighbour(sh, cur[k].node, sends[q].port);
                        next[nn++].pkt = sends[q].pkt;
                    }
                }
                memcpy(cur, next, sizeof cur[0] * nn);
                ncur = nn;
            }
        }
    *why = "";
    return 1;
}

int main(void)
{
    sched_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.dims = 2;
    sh.torus = 1;
    sh.side[0] = sh.side[1] = 4;
    sh.side[2] = 1;
    static const uint8_t src[NODES] = {0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1};
    const char *why;
    int ok = pmnb_on_core(&sh, src, 0, &why);
    result("partial MNB rule, 4x4 torus, 6 sources, no split: prefix + packing + broadcast, checker passes", ok, why);
    ok = pmnb_on_core(&sh, src, 1, &why);
    result("partial MNB rule, 4x4 torus, 6 sources, split: checker passes", ok, why);
    static const uint8_t one[NODES] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    ok = pmnb_on_core(&sh, one, 0, &why);
    result("partial MNB rule, 4x4 torus, 1 source: checker passes", ok, why);
    ok = star_on_core(&sh, &why);
    result("dynamic STAR rule, 4x4 torus: every source, both ending dimensions, shortest-path spanning tree", ok, why);
    ok = star_wire_on_core(&sh, &why);
    result("dynamic STAR rule, 4x4 torus, from the wire's header (no prio, no descendants): the paper's classes, the same sends", ok, why);
    /* A broken recorded schedule is rejected on the core too. */
    ok = pmnb_on_core(&sh, src, 0, &why);
    if (ok) {
        sched_schedule s;
        memset(&s, 0, sizeof s);
        s.shape = sh;
        s.algo = SCHED_ALGO_PMNB;
        s.coll = SCHED_COLL_PARTIAL_ALLGATHER;
        s.model = SCHED_MODEL_SAF_ALLPORT;
        s.msgs = msgs;
        s.count = last_count - 1u;   /* drop the last message */
        sched_check_result r;
        ok = !sched_check_coll(&s, src, workspace, sizeof workspace, &r);
        result("checker on the core rejects the schedule with its last message dropped", ok, "accepted");
    } else result("checker on the core rejects a broken schedule", 0, why);
    printf("core: %d failures\n", failures);
    return failures;
}
