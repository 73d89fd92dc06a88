/* SPDX-License-Identifier: ISC */
/* On-core test of the firmware part of the schedule library: runs on the RV32IM core (or
 * qemu) with no dynamic allocation. For two tables files built by schedgen for a 4x4 torus
 * (Tsay-Wang broadcast and a scatter), every node finds and validates its own table; the
 * schedule is rebuilt from the send records and proved by the checker in a static
 * workspace; the receive records must mirror the sends; tables are refused for another
 * shape; a broken schedule is rejected. Prints "core: PASS ..." / "core: FAIL ..." lines
 * and exits with the number of failures. */
#include <stdio.h>
#include <string.h>

#include "sched.h"
#include "sched_table.h"
#include "check/sched_check.h"

extern const uint8_t sched_blob_tw[], sched_blob_tw_end[], sched_blob_sc[], sched_blob_sc_end[];

#define MAX_MSGS 256
static sched_msg msgs[MAX_MSGS];
static uint8_t workspace[16384];   /* the checker needs 2.5 KB for these schedules */
static int failures;

static void result(const char *name, int ok, const char *why)
{
    printf("core: %s %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ", ok ? "" : why);
    if (!ok) failures++;
}

/* Rebuilds the whole schedule from the per-node tables; returns messages, or -1. */
static int rebuild(const uint8_t *blob, uint32_t len, const sched_shape *shape, sched_schedule *s, const char **why)
{
    uint32_t n = sched_nodes(shape), count = 0, recvs = 0;
    sched_table t;
    memset(s, 0, sizeof *s);
    for (uint32_t v = 0; v < n; v++) {
        int rc = sched_table_find(blob, len, shape, v, &t);
        if (rc != SCHED_TABLE_OK) { *why = sched_table_strerror(rc); return -1; }
        if (v == 0) {
            s->shape = t.shape;
            s->algo = (sched_algo)t.algo;
            s->coll = (sched_collective)t.collective;
            s->model = (sched_model)t.model;
            s->root = t.root;
            s->nsteps = t.nsteps;
            s->parts = sched_table_parts(&t);
        }
        recvs += t.nrecv;
    }
    /* Step order: for each step, every node's sends of that step. */
    for (uint32_t step = 1; step <= s->nsteps; step++) {
        for (uint32_t v = 0; v < n; v++) {
            sched_table_find(blob, len, shape, v, &t);
            for (uint32_t i = 0; i < t.nsend; i++) {
                sched_table_send e;
                sched_table_get_send(&t, i, &e);
                if (e.step != step) continue;
                if (count == MAX_MSGS) { *why = "too many messages for the test buffer"; return -1; }
                sched_msg *m = &msgs[count++];
                memset(m, 0, sizeof *m);
                m->src = v;
                m->dst = e.dst;
                m->piece = e.piece;
                m->step = e.step;
                m->start_dim = (uint8_t)(e.port >> 1);
                for (unsigned d = 0; d < SCHED_MAX_DIMS; d++) m->hops[d] = e.hops[d];
                if (sched_msg_send_port(m) != e.port) { *why = "port disagrees with the hops"; return -1; }
                /* The receiver's table must list this message on the port it arrives on. */
                sched_table rt;
                sched_table_find(blob, len, shape, e.dst, &rt);
                int found = 0;
                for (uint32_t k = 0; k < rt.nrecv && !found; k++) {
                    sched_table_recv r;
                    sched_table_get_recv(&rt, k, &r);
                    found = r.step == e.step && r.src == v && r.piece == e.piece &&
                            r.port == sched_msg_recv_port(m, shape->dims);
                }
                if (!found) { *why = "a send has no matching receive record"; return -1; }
            }
        }
    }
    if (recvs != count) { *why = "receive records and sends differ in number"; return -1; }
    s->msgs = msgs;
    s->count = s->cap = count;
    return (int)count;
}

static void test_blob(const char *name, const uint8_t *blob, const uint8_t *end, uint32_t want_steps)
{
    sched_shape shape = {2, 1, {4, 4, 1}}, mesh = {2, 0, {4, 4, 1}}, other = {2, 1, {4, 5, 1}};
    uint32_t len = (uint32_t)(end - blob);
    sched_schedule s;
    const char *why = "";
    char buf[160];
    int n = rebuild(blob, len, &shape, &s, &why);
    snprintf(buf, sizeof buf, "%s: 16 node tables found, valid, sends mirrored by receives", name);
    result(buf, n > 0, why);
    if (n <= 0) return;
    sched_check_result r;
    if (sched_check_workspace_bytes(&s) > sizeof workspace) { result("workspace size", 0, "static workspace too small"); return; }
    sched_check(&s, workspace, sizeof workspace, &r);
    snprintf(buf, sizeof buf, "%s: the checker proves the rebuilt schedule (%lu steps, %lu messages, distance %lu)",
             name, (unsigned long)r.steps, (unsigned long)r.messages, (unsigned long)r.total_distance);
    result(buf, r.ok && r.steps == want_steps, r.ok ? "step count differs" : r.error);
    sched_table t;
    snprintf(buf, sizeof buf, "%s: tables refused for a 4x4 mesh and a 4x5 torus", name);
    result(buf, sched_table_find(blob, len, &mesh, 0, &t) == SCHED_TABLE_ERR_SHAPE &&
                    sched_table_find(blob, len, &other, 5, &t) == SCHED_TABLE_ERR_SHAPE, "not refused");
    /* Break it: the last message's sender moves one step earlier. */
    msgs[s.count - 1].step = 1;
    uint16_t keep = msgs[0].step;
    sched_msg last = msgs[s.count - 1];
    memmove(&msgs[1], &msgs[0], (s.count - 1) * sizeof msgs[0]);
    msgs[0] = last;
    (void)keep;
    sched_check(&s, workspace, sizeof workspace, &r);
    snprintf(buf, sizeof buf, "%s: a message moved before its sender holds the data is rejected", name);
    result(buf, !r.ok, "checker accepted it");
}

int main(void)
{
    test_blob("tsay-wang 4x4 torus", sched_blob_tw, sched_blob_tw_end, 3);
    test_blob("scatter 4x4 torus", sched_blob_sc, sched_blob_sc_end, 4);
    printf("core: %d failure(s)\n", failures);
    return failures;
}
