/* SPDX-License-Identifier: ISC */
/* Test driver for the issue-5 collectives: generates, checks with the independent checker,
 * compares slot counts with the digests' numbers, and breaks schedules on purpose.
 * Usage: coll_test mnb | pmnb | te | neg | dyn | pe | pg | dynx
 * Prints one "PASS name" or "FAIL name: why" line per check; exit 1 if any failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "sched_coll.h"
#include "sched_pmnb.h"
#include "sched_dyn.h"
#include "base/sched_base.h"
#include "check/sched_check.h"
#include "dynamic/sched_dynsim.h"
#include "exchange/sched_exchange.h"
#include "gen/sched_gen.h"

static int failures;

static void result(int ok, const char *name, const char *why)
{
    if (ok) printf("PASS %s\n", name);
    else { printf("FAIL %s: %s\n", name, why); failures++; }
    fflush(stdout);   /* a crash later must not take this line with it */
}

static void shape_name(const sched_shape *s, char *buf, size_t len)
{
    if (s->dims == 3) snprintf(buf, len, "%ux%ux%u-%s", s->side[0], s->side[1], s->side[2], s->torus ? "torus" : "mesh");
    else snprintf(buf, len, "%ux%u-%s", s->side[0], s->side[1], s->torus ? "torus" : "mesh");
}

static int check(const sched_schedule *s, const uint8_t *sources, sched_check_result *r)
{
    size_t bytes = sched_check_coll_workspace_bytes(s);
    void *ws = malloc(bytes);
    if (!ws) { snprintf(r->error, sizeof r->error, "out of memory"); return 0; }
    int ok = sched_check_coll(s, sources, ws, bytes, r);
    free(ws);
    return ok;
}

/* Also through the shared entry point sched_check() (dispatch). */
static int check_shared(const sched_schedule *s, sched_check_result *r)
{
    size_t bytes = sched_check_workspace_bytes(s);
    void *ws = malloc(bytes);
    if (!ws) return 0;
    int ok = sched_check(s, ws, bytes, r);
    free(ws);
    return ok;
}

/* ---------------------------------------------------------------- MNB */

static void test_mnb(void)
{
    static const int cases[][5] = {
        /* dims, p, torus */
        {2, 3, 1}, {2, 4, 1}, {2, 5, 1}, {2, 6, 1}, {2, 7, 1}, {2, 8, 1}, {2, 9, 1}, {2, 10, 1},
        {2, 2, 0}, {2, 3, 0}, {2, 4, 0}, {2, 5, 0}, {2, 6, 0}, {2, 8, 0}, {2, 9, 0},
        {3, 3, 1}, {3, 4, 1}, {3, 5, 1}, {3, 2, 0}, {3, 3, 0}, {3, 4, 0},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sched_shape sh = sched_shape_make(cases[i][0], cases[i][1], cases[i][1], cases[i][1], cases[i][2]);
        char sn[40], name[96], why[400];
        shape_name(&sh, sn, sizeof sn);
        for (int split = 0; split <= 2; split++) {
            int algo = split == 2 ? 40 : (split ? 33 : 32);
            sched_schedule s;
            char err[256] = "";
            snprintf(name, sizeof name, "%s-%s", sched_coll_algo_name(algo), sn);
            if (sched_generate(&s, &sh, (sched_algo)algo, 0, err, sizeof err)) { result(0, name, err); continue; }
            sched_check_result r;
            int ok = check_shared(&s, &r);
            uint32_t parts = sched_coll_parts(&s), lb = sched_lb_mnb(&sh);
            uint32_t bound = sched_coll_expected_slots(&sh, algo, 0);
            if (!ok) snprintf(why, sizeof why, "checker: %s", r.error);
            else if (r.steps > bound) { ok = 0; snprintf(why, sizeof why, "%u slots above the digest bound %u", r.steps, bound); }
            else if (algo == 40 && (r.steps > sched_coll_expected_slots(&sh, 32, 0) || r.steps > lb + sh.side[0] * sh.dims / 2u)) {
                ok = 0;
                snprintf(why, sizeof why, "mnb-diag: %u slots, corollary bound %u, lower bound %u", r.steps,
                         sched_coll_expected_slots(&sh, 32, 0), lb);
            }
            else if (split == 1 && r.steps > parts * lb) {
                ok = 0;
                snprintf(why, sizeof why, "split: %u mini-slots = %.2f packet slots above the lower bound %u", r.steps,
                         (double)r.steps / parts, lb);
            }
            result(ok, name, why);
            sched_free(&s);
        }
    }
    /* mnb-diag keeps its classes in lock step on unequal sides too. */
    static const int uneq[][5] = {{2, 4, 8, 1, 1}, {2, 5, 7, 1, 1}, {2, 6, 5, 1, 0}, {2, 4, 6, 1, 0}, {3, 3, 4, 5, 1}, {3, 4, 4, 8, 0}};
    for (unsigned i = 0; i < sizeof uneq / sizeof uneq[0]; i++) {
        sched_shape sh = sched_shape_make(uneq[i][0], uneq[i][1], uneq[i][2], uneq[i][3], uneq[i][4]);
        char sn[40], name[96], why[300] = "", err[256] = "";
        shape_name(&sh, sn, sizeof sn);
        snprintf(name, sizeof name, "mnb-diag-unequal-sides-%s", sn);
        sched_schedule s;
        if (sched_generate(&s, &sh, (sched_algo)40, 0, err, sizeof err)) { result(0, name, err); continue; }
        sched_check_result r;
        int ok = check_shared(&s, &r);
        uint32_t lb = sched_lb_mnb(&sh), plan = sched_coll_expected_slots(&sh, 40, 0);
        if (!ok) snprintf(why, sizeof why, "checker: %s", r.error);
        else if (r.steps > plan || 2u * r.steps > 3u * lb) {
            ok = 0;
            snprintf(why, sizeof why, "%u slots, plan %u, lower bound %u (more than 1.5x)", r.steps, plan, lb);
        }
        result(ok, name, why);
        sched_free(&s);
    }
    /* Unequal sides are refused with a message. */
    sched_shape bad = sched_shape_make(2, 4, 6, 1, 1);
    sched_schedule s;
    char err[256] = "";
    int rc = sched_generate(&s, &bad, (sched_algo)32, 0, err, sizeof err);
    result(rc != 0 && strstr(err, "equal") != 0, "mnb-refuses-unequal-sides", err[0] ? err : "accepted 4x6");
}

/* ---------------------------------------------------------------- partial MNB */

static uint32_t lcg_state = 12345u;
static uint32_t lcg(void) { lcg_state = lcg_state * 1103515245u + 12345u; return lcg_state >> 8; }

static void pick_sources(uint8_t *src, uint32_t n, uint32_t m)
{
    memset(src, 0, n);
    for (uint32_t k = 0; k < m; k++) {
        uint32_t v;
        do v = lcg() % n; while (src[v]);
        src[v] = 1;
    }
}

static void test_pmnb(void)
{
    static const int cases[][3] = {
        {2, 3, 1}, {2, 4, 1}, {2, 5, 1}, {2, 8, 1}, {2, 3, 0}, {2, 4, 0}, {2, 5, 0}, {2, 8, 0}, {3, 3, 1}, {3, 4, 1}, {3, 3, 0},
    };
    uint8_t *src = malloc(SCHED_MAX_DIMS * 4096);
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sched_shape sh = sched_shape_make(cases[i][0], cases[i][1], cases[i][1], cases[i][1], cases[i][2]);
        const uint32_t n = sched_nodes(&sh);
        char sn[40];
        shape_name(&sh, sn, sizeof sn);
        uint32_t ms[6] = {1, 2, n / 4 ? n / 4 : 1, n / 2, n - 1, 0};
        ms[5] = 1 + lcg() % n;
        for (int split = 0; split <= 1; split++) {
            int worst_ok = 1, runs = 0;
            char why[400] = "";
            uint32_t worst_slack = UINT32_MAX;
            for (unsigned k = 0; k < 6; k++) {
                for (int rep = 0; rep < 3; rep++) {
                    pick_sources(src, n, ms[k]);
                    sched_schedule s;
                    char err[256] = "";
                    uint32_t steps = 0, rank_errors = 0;
                    runs++;
                    if (sched_sim_pmnb(&s, &sh, src, split, &steps, &rank_errors, err, sizeof err)) {
                        if (worst_ok) snprintf(why, sizeof why, "M=%u: %s", ms[k], err);
                        worst_ok = 0;
                        continue;
                    }
                    sched_check_result r;
                    int ok = check(&s, src, &r);
                    uint32_t bound = sched_coll_expected_slots(&sh, split ? 38 : 37, ms[k]);
                    if (!ok) { if (worst_ok) snprintf(why, sizeof why, "M=%u checker: %s", ms[k], r.error); worst_ok = 0; }
                    else if (rank_errors) { if (worst_ok) snprintf(why, sizeof why, "M=%u: prefix wrong on %u nodes", ms[k], rank_errors); worst_ok = 0; }
                    else if (s.nsteps > bound) { if (worst_ok) snprintf(why, sizeof why, "M=%u: %u slots above the bound %u", ms[k], s.nsteps, bound); worst_ok = 0; }
                    else if (bound - s.nsteps < worst_slack) worst_slack = bound - s.nsteps;
                    sched_free(&s);
                }
            }
            char name[96];
            snprintf(name, sizeof name, "%s-%s-%d-source-sets", split ? "pmnb-split" : "pmnb", sn, runs);
            result(worst_ok, name, why);
        }
    }
    /* The partial collective needs the source set: sched_check() alone must refuse it. */
    {
        sched_shape sh = sched_shape_make(2, 4, 4, 1, 1);
        pick_sources(src, 16, 5);
        sched_schedule s;
        char err[256];
        if (sched_sim_pmnb(&s, &sh, src, 0, 0, 0, err, sizeof err) == 0) {
            sched_check_result r;
            int ok = check_shared(&s, &r);
            result(!ok && strstr(r.error, "source set") != 0, "pmnb-check-needs-source-set", ok ? "accepted" : r.error);
            /* With a different source set the same schedule is wrong. */
            uint8_t other[16];
            memcpy(other, src, 16);
            for (int v = 0; v < 16; v++) if (!other[v]) { other[v] = 1; break; }
            ok = check(&s, other, &r);
            result(!ok, "pmnb-check-rejects-wrong-source-set", ok ? "accepted" : r.error);
            sched_free(&s);
        } else result(0, "pmnb-check-needs-source-set", err);
    }
    /* The rule's buffers: a store smaller than the class size is reported, not overrun. */
    {
        sched_shape sh = sched_shape_make(2, 4, 4, 1, 1);
        sched_pmnb_plan pl;
        const char *why = sched_pmnb_make_plan(&pl, &sh, 16, 0, 1);
        sched_pmnb_node node;
        uint32_t store[2];
        sched_pmnb_node_init(&node, &pl, 0, store, 1);
        int rc = why ? 0 : sched_pmnb_node_source(&node, &pl, 0, 9, 0);
        result(!why && rc == -1, "pmnb-rule-rejects-rank-outside-class", why ? why : "accepted rank 9 of class size 8");
    }
    free(src);
}

/* ---------------------------------------------------------------- total exchange */

static void test_te(void)
{
    /* A3, digest acceptance numbers (thesis Thm 5.6, verified values). */
    static const uint32_t torus_a3[] = {3, 8, 15, 30, 42, 64, 90, 130, 165, 216};
    static const uint32_t mesh_a3[] = {6, 16, 30, 54, 84, 128, 180, 250, 330, 432};
    static const uint32_t cut_torus[] = {3, 8, 15, 27, 42, 64, 90, 125, 165, 216};
    for (int torus = 1; torus >= 0; torus--)
        for (int n = 3; n <= 12; n++) {
            sched_shape sh = sched_shape_make(2, n, n, 1, torus);
            char sn[40], name[96], why[400] = "", err[256] = "";
            shape_name(&sh, sn, sizeof sn);
            snprintf(name, sizeof name, "te-a3-%s", sn);
            sched_schedule s;
            if (sched_generate(&s, &sh, (sched_algo)34, 0, err, sizeof err)) { result(0, name, err); continue; }
            sched_check_result r;
            int ok = check_shared(&s, &r);
            uint32_t want = torus ? torus_a3[n - 3] : mesh_a3[n - 3];
            if (!ok) snprintf(why, sizeof why, "checker: %s", r.error);
            else if (r.steps != want) { ok = 0; snprintf(why, sizeof why, "%u slots, the thesis says %u", r.steps, want); }
            result(ok, name, why);
            if (torus) {
                snprintf(name, sizeof name, "te-cut-bound-%s", sn);
                uint32_t lb = sched_lb_te_cut(&sh);
                snprintf(why, sizeof why, "cut bound %u, digest %u", lb, cut_torus[n - 3]);
                result(lb == cut_torus[n - 3] && lb <= r.steps, name, why);
            }
            sched_free(&s);
        }
    /* A2 on other shapes: time = sum_k (N/n_k) T_k exactly. */
    static const int a2[][5] = {
        {2, 4, 8, 1, 1}, {2, 3, 5, 1, 1}, {2, 6, 4, 1, 1}, {2, 5, 7, 1, 1}, {2, 8, 8, 1, 1},
        {2, 4, 8, 1, 0}, {2, 3, 5, 1, 0}, {2, 7, 4, 1, 0},
        {3, 3, 3, 3, 1}, {3, 4, 4, 4, 1}, {3, 3, 4, 5, 1}, {3, 3, 3, 3, 0}, {3, 2, 3, 4, 0},
    };
    for (unsigned i = 0; i < sizeof a2 / sizeof a2[0]; i++) {
        sched_shape sh = sched_shape_make(a2[i][0], a2[i][1], a2[i][2], a2[i][3], a2[i][4]);
        char sn[40], name[96], why[400] = "", err[256] = "";
        shape_name(&sh, sn, sizeof sn);
        snprintf(name, sizeof name, "te-a2-%s", sn);
        sched_schedule s;
        if (sched_generate(&s, &sh, (sched_algo)35, 0, err, sizeof err)) { result(0, name, err); continue; }
        sched_check_result r;
        int ok = check_shared(&s, &r);
        uint32_t want = sched_coll_expected_slots(&sh, 35, 0);
        if (!ok) snprintf(why, sizeof why, "checker: %s", r.error);
        else if (r.steps != want) { ok = 0; snprintf(why, sizeof why, "%u slots, expected %u", r.steps, want); }
        result(ok, name, why);
        sched_free(&s);
    }
    /* The 4x8 torus value the digest gives (4*8 + 8*2 = 48). */
    {
        sched_shape sh = sched_shape_make(2, 4, 8, 1, 1);
        uint32_t v = sched_coll_expected_slots(&sh, 35, 0);
        char why[64];
        snprintf(why, sizeof why, "%u", v);
        result(v == 48, "te-a2-4x8-torus-is-48", why);
    }
    /* Single-port: status s_G (digest list). */
    static const int sp[][5] = {
        {2, 4, 4, 1, 32}, {2, 5, 5, 1, 60}, {2, 6, 6, 1, 108}, {2, 8, 8, 1, 256}, {2, 3, 5, 1, 28}, {2, 4, 6, 1, 60},
        {2, 4, 7, 1, 76}, {3, 3, 3, 3, 54}, {3, 4, 4, 4, 192}, {3, 4, 6, 3, 228},
    };
    for (unsigned i = 0; i < sizeof sp / sizeof sp[0]; i++) {
        sched_shape sh = sched_shape_make(sp[i][0], sp[i][1], sp[i][2], sp[i][3], 1);
        char sn[40], name[96], why[400] = "", err[256] = "";
        shape_name(&sh, sn, sizeof sn);
        snprintf(name, sizeof name, "te-oneport-%s", sn);
        sched_schedule s;
        if (sched_generate(&s, &sh, (sched_algo)36, 0, err, sizeof err)) { result(0, name, err); continue; }
        sched_check_result r;
        int ok = check_shared(&s, &r);
        uint32_t sg = sched_lb_te_status(&sh);
        if (!ok) snprintf(why, sizeof why, "checker: %s", r.error);
        else if (r.steps != (uint32_t)sp[i][4] || sg != (uint32_t)sp[i][4]) {
            ok = 0;
            snprintf(why, sizeof why, "%u slots, status %u, digest %d", r.steps, sg, sp[i][4]);
        }
        result(ok, name, why);
        sched_free(&s);
    }
}

/* ---------------------------------------------------------------- negative tests */

static void expect_reject(const char *name, const sched_schedule *s, const uint8_t *sources, const char *needle)
{
    sched_check_result r;
    int ok = check(s, sources, &r);
    char why[400];
    if (!needle || !*needle) { result(0, name, "the test names no expected reason: any rejection would pass"); return; }
    if (ok) snprintf(why, sizeof why, "the checker accepted it");
    else snprintf(why, sizeof why, "rejected with '%s', expected '%s'", r.error, needle);
    result(!ok && strstr(r.error, needle) != 0, name, why);
}

static int copy_sched(sched_schedule *dst, const sched_schedule *src)
{
    *dst = *src;
    dst->msgs = malloc(sizeof *dst->msgs * (src->count + 1u));
    if (!dst->msgs) return -1;
    memcpy(dst->msgs, src->msgs, sizeof *dst->msgs * src->count);
    dst->cap = src->count + 1u;
    return 0;
}

/* re-sort a copy by slot after a test moved a message */
static void finish_copy(sched_schedule *s)
{
    for (uint32_t i = 1; i < s->count; i++)
        for (uint32_t j = i; j > 0 && s->msgs[j - 1].step > s->msgs[j].step; j--) {
            sched_msg t = s->msgs[j];
            s->msgs[j] = s->msgs[j - 1];
            s->msgs[j - 1] = t;
        }
}

static void test_neg(void)
{
    sched_shape sh = sched_shape_make(2, 5, 5, 1, 1);
    sched_schedule good, bad;
    char err[256];
    if (sched_generate(&good, &sh, (sched_algo)32, 0, err, sizeof err)) { result(0, "neg-setup", err); return; }
    sched_check_result r;
    result(check(&good, 0, &r), "neg-baseline-mnb-passes", r.error);

    copy_sched(&bad, &good);
    bad.count--;   /* drop the last message */
    expect_reject("neg-mnb-dropped-message", &bad, 0, "never gets");
    sched_free(&bad);

    copy_sched(&bad, &good);
    for (uint32_t i = 0; i < bad.count; i++)   /* a delivery re-sent: duplicate */
        if (!(bad.msgs[i].reserved & SCHED_MSG_TRANSIT)) { bad.msgs[bad.count++] = bad.msgs[i]; bad.msgs[bad.count - 1].step = (uint16_t)bad.nsteps; break; }
    expect_reject("neg-mnb-duplicate-delivery", &bad, 0, "delivered twice");
    sched_free(&bad);

    copy_sched(&bad, &good);
    {   /* contention: two messages over one directed link in one slot */
        uint32_t i = bad.count - 1, j = 0;
        for (j = 0; j < bad.count; j++)
            if (bad.msgs[j].step == bad.msgs[i].step && j != i) break;
        sched_msg m = bad.msgs[i];
        m.piece = bad.msgs[j].piece == m.piece ? m.piece + 1 : m.piece;
        bad.msgs[bad.count++] = m;
        expect_reject("neg-mnb-link-contention", &bad, 0, "used twice");
    }
    sched_free(&bad);

    copy_sched(&bad, &good);
    {   /* a relay in slot 1 of a piece the sender does not have */
        bad.msgs[0].piece = (bad.msgs[0].piece + 7u) % 25u;
        if (bad.msgs[0].piece == bad.msgs[0].src) bad.msgs[0].piece = (bad.msgs[0].piece + 1u) % 25u;
        expect_reject("neg-mnb-sender-lacks-piece", &bad, 0, "does not hold");
    }
    sched_free(&bad);

    copy_sched(&bad, &good);
    bad.msgs[3].hops[bad.msgs[3].start_dim] = 2;
    expect_reject("neg-mnb-two-hop-message", &bad, 0, "one hop");
    sched_free(&bad);
    sched_free(&good);

    /* Alltoall: a relay marked as a delivery, and a single-port violation. */
    if (sched_generate(&good, &sh, (sched_algo)34, 0, err, sizeof err) == 0) {
        copy_sched(&bad, &good);
        for (uint32_t i = 0; i < bad.count; i++)
            if (bad.msgs[i].reserved & SCHED_MSG_TRANSIT) { bad.msgs[i].reserved = 0; break; }
        expect_reject("neg-te-delivery-at-intermediate", &bad, 0, "not due");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.model = SCHED_MODEL_SAF_ONEPORT;   /* A3 is all-port: as single-port it must fail */
        expect_reject("neg-te-allport-schedule-as-oneport", &bad, 0, "single-port");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.count -= 10;
        expect_reject("neg-te-incomplete", &bad, 0, "never gets");
        sched_free(&bad);
        sched_free(&good);
    } else result(0, "neg-te-setup", err);

    /* A mesh schedule checked as if it were on a torus of another size is rejected. */
    if (sched_generate(&good, &sh, (sched_algo)33, 0, err, sizeof err) == 0) {
        copy_sched(&bad, &good);
        bad.shape.side[0] = 6;
        bad.shape.side[1] = 6;
        expect_reject("neg-split-wrong-shape", &bad, 0, "does not end at the receiver");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.algo = (sched_algo)32;   /* one piece per node: the mini-packet numbers do not exist */
        expect_reject("neg-split-checked-unsplit", &bad, 0, "does not hold");
        sched_free(&bad);
        sched_free(&good);
    }
}

/* ---------------------------------------------------------------- partial exchange */

static void test_pe(void)
{
    uint8_t *src = malloc(4096);
    static const int sides[] = {3, 4, 5, 6, 8};
    for (unsigned i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        sched_shape sh = sched_shape_make(2, sides[i], sides[i], 1, 0);
        const uint32_t n = sched_nodes(&sh);
        uint32_t ms[6] = {1, 2, 4, n / 4 ? n / 4 : 1, n / 2, n};
        char sn[40], name[96], why[400] = "";
        shape_name(&sh, sn, sizeof sn);
        int ok = 1, runs = 0;
        for (unsigned k = 0; k < 6 && ok; k++)
            for (int rep = 0; rep < 3 && ok; rep++) {
                pick_sources(src, n, ms[k]);
                sched_schedule s;
                char err[256] = "";
                runs++;
                if (sched_sim_pe(&s, &sh, src, err, sizeof err)) { snprintf(why, sizeof why, "M=%u: %s", ms[k], err); ok = 0; break; }
                sched_check_result r;
                uint32_t bound = sched_pe_bound(&sh, ms[k]), lb = sched_pe_lb_placement(&sh, src);
                if (!check(&s, src, &r)) { snprintf(why, sizeof why, "M=%u checker: %s", ms[k], r.error); ok = 0; }
                else if (r.steps > bound) { snprintf(why, sizeof why, "M=%u: %u slots above the paper's bound %u", ms[k], r.steps, bound); ok = 0; }
                else if (r.steps < lb) { snprintf(why, sizeof why, "M=%u: %u slots below the lower bound %u (bound wrong)", ms[k], r.steps, lb); ok = 0; }
                sched_free(&s);
            }
        snprintf(name, sizeof name, "pe-%s-%d-source-sets-within-paper-bound", sn, runs);
        result(ok, name, why);
    }
    /* The R/C rule: a packet never leaves on a port that does not exist, and first legs are
     * along the row for R sources. */
    {
        sched_shape sh = sched_shape_make(2, 5, 5, 1, 0);
        int leg, ok = 1;
        for (uint32_t v = 0; v < 25 && ok; v++)
            for (uint32_t t = 0; t < 25 && ok; t++) {
                if (t == v) continue;
                int port = sched_pe_next_port(&sh, v, t, 1, &leg);
                if (port < 0 || sched_neighbour(&sh, v, (uint8_t)port) < 0) ok = 0;
                if ((v % 5 != t % 5) && (port / 2 != 0 || !leg)) ok = 0;
            }
        result(ok, "pe-rule-row-first-legs", "a row-first packet leaves on a wrong port");
    }
    /* Partial exchange without the source set is refused; with another source set rejected. */
    {
        sched_shape sh = sched_shape_make(2, 4, 4, 1, 0);
        pick_sources(src, 16, 5);
        sched_schedule s;
        char err[256];
        if (sched_sim_pe(&s, &sh, src, err, sizeof err) == 0) {
            sched_check_result r;
            int ok = check_shared(&s, &r);
            result(!ok && strstr(r.error, "source set"), "pe-check-needs-source-set", ok ? "accepted" : r.error);
            uint8_t other[16];
            memcpy(other, src, 16);
            for (int v = 0; v < 16; v++) if (other[v]) { other[v] = 0; break; }
            ok = check(&s, other, &r);
            result(!ok, "pe-check-rejects-wrong-source-set", ok ? "accepted" : r.error);
            sched_free(&s);
        } else result(0, "pe-check-needs-source-set", err);
        sh.torus = 1;
        int rc = sched_sim_pe(&s, &sh, src, err, sizeof err);
        result(rc != 0 && strstr(err, "mesh"), "pe-refuses-torus", rc ? err : "accepted a torus");
    }
    free(src);
}

/* ---------------------------------------------------------------- partial gather */

static void test_pg(void)
{
    uint8_t *dst = malloc(4096);
    static const int sides[][2] = {{3, 3}, {4, 4}, {5, 5}, {6, 6}, {8, 8}, {4, 6}};
    for (unsigned i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        sched_shape sh = sched_shape_make(2, sides[i][0], sides[i][1], 1, 0);
        const uint32_t n = sched_nodes(&sh);
        uint32_t ms[6] = {1, 2, 4, n / 4 ? n / 4 : 1, n / 2, n};
        char sn[40], name[128], why[400] = "";
        shape_name(&sh, sn, sizeof sn);
        int ok = 1, runs = 0;
        for (unsigned k = 0; k < 6 && ok; k++)
            for (int rep = 0; rep < 3 && ok; rep++) {
                pick_sources(dst, n, ms[k]);
                sched_schedule g, e;
                char err[256] = "";
                runs++;
                if (sched_sim_pg(&g, &sh, dst, err, sizeof err)) { snprintf(why, sizeof why, "M=%u: %s", ms[k], err); ok = 0; break; }
                if (sched_sim_pe(&e, &sh, dst, err, sizeof err)) { snprintf(why, sizeof why, "M=%u pe: %s", ms[k], err); ok = 0; sched_free(&g); break; }
                sched_check_result r;
                const uint32_t bound = sched_pe_bound(&sh, ms[k]), lb = sched_pe_lb_placement(&sh, dst);
                uint64_t due = 0;
                for (uint32_t t = 0; t < n; t++) due += dst[t] ? n - 1u : 0u;
                sched_coll_stats cs;
                size_t wb = sched_check_coll_workspace_bytes(&g);
                void *ws = malloc(wb);
                int pass = ws && sched_check_coll_stats(&g, dst, ws, wb, &r, &cs);
                free(ws);
                if (!pass) { snprintf(why, sizeof why, "M=%u checker: %s", ms[k], r.error); ok = 0; }
                else if (g.coll != SCHED_COLL_PARTIAL_GATHER || cs.deliveries != due)
                    { snprintf(why, sizeof why, "M=%u: %llu deliveries, want %llu", ms[k], (unsigned long long)cs.deliveries, (unsigned long long)due); ok = 0; }
                else if (r.steps != e.nsteps || g.count != e.count)
                    { snprintf(why, sizeof why, "M=%u: %u slots and %u messages, the exchange %u and %u", ms[k], r.steps, g.count, e.nsteps, e.count); ok = 0; }
                else if (r.steps > bound) { snprintf(why, sizeof why, "M=%u: %u slots above the digest's bound %u", ms[k], r.steps, bound); ok = 0; }
                else if (r.steps < lb) { snprintf(why, sizeof why, "M=%u: %u slots below the lower bound %u (bound wrong)", ms[k], r.steps, lb); ok = 0; }
                sched_free(&g);
                sched_free(&e);
            }
        snprintf(name, sizeof name, "pg-%s-%d-destination-sets-proven-in-the-exchange-slots-within-the-digest-bound", sn, runs);
        result(ok, name, why);
    }
    /* The checker can fail it: a lost delivery, a piece sent before it arrived, a link used
     * twice, the wrong destination set, no destination set. */
    {
        sched_shape sh = sched_shape_make(2, 5, 5, 1, 0);
        pick_sources(dst, 25, 6);
        sched_schedule good, bad;
        char err[256];
        if (sched_sim_pg(&good, &sh, dst, err, sizeof err)) { result(0, "pg-negative-cases", err); free(dst); return; }
        copy_sched(&bad, &good);
        for (uint32_t i = bad.count; i-- > 0;)
            if (!(bad.msgs[i].reserved & SCHED_MSG_TRANSIT)) { memmove(&bad.msgs[i], &bad.msgs[i + 1], sizeof *bad.msgs * (bad.count - i - 1u)); bad.count--; break; }
        expect_reject("pg-neg-lost-delivery", &bad, dst, "never gets piece");
        sched_free(&bad);
        copy_sched(&bad, &good);
        for (uint32_t i = 0; i < bad.count; i++)     /* a relayed piece forwarded in the slot it arrives */
            if (bad.msgs[i].reserved & SCHED_MSG_TRANSIT) {
                for (uint32_t j = i + 1u; j < bad.count; j++)
                    if (bad.msgs[j].piece == bad.msgs[i].piece && bad.msgs[j].src == bad.msgs[i].dst) { bad.msgs[j].step = bad.msgs[i].step; break; }
                break;
            }
        finish_copy(&bad);
        expect_reject("pg-neg-forwarded-before-it-arrived", &bad, dst, "does not hold the piece");
        sched_free(&bad);
        copy_sched(&bad, &good);
        bad.msgs[bad.count] = bad.msgs[0];          /* the same link and slot, another of its sender's pieces */
        for (uint32_t t = 0; t < 25; t++)
            if (dst[t] && t != bad.msgs[0].src && bad.msgs[0].src * 25u + t != bad.msgs[0].piece) {
                bad.msgs[bad.count].piece = bad.msgs[0].src * 25u + t;
                break;
            }
        bad.count++;
        finish_copy(&bad);
        expect_reject("pg-neg-link-used-twice-in-a-slot", &bad, dst, "twice");
        sched_free(&bad);
        uint8_t other[25];
        memcpy(other, dst, 25);
        for (int v = 0; v < 25; v++) if (!other[v]) { other[v] = 1; break; }
        expect_reject("pg-neg-other-destination-set", &good, other, "never gets piece");
        sched_check_result r;
        int ok = check_shared(&good, &r);
        result(!ok && strstr(r.error, "destination"), "pg-check-needs-destination-set", ok ? "accepted" : r.error);
        sched_free(&good);
        sh.torus = 1;
        int rc = sched_sim_pg(&good, &sh, dst, err, sizeof err);
        result(rc != 0 && strstr(err, "pg:") && strstr(err, "mesh"), "pg-refuses-torus", rc ? err : "accepted a torus");
    }
    free(dst);
}

/* ---------------------------------------------------------------- REDO and adaptive STAR */

/* One broadcast by a given order, alone: every node once, at its distance, N-1 transmissions;
 * adds the transmissions per dimension to per_dim[] (weighted by w). */
static int lone_order(const sched_dyn_plan *pl, uint32_t source, uint32_t rnd, uint32_t rnd2, double w, double *per_dim,
                      uint32_t *load0, char *why, size_t len)
{
    const uint32_t n = pl->nodes;
    uint32_t *got = calloc(n, sizeof *got), ok = 1, tr = 0;
    typedef struct { uint32_t node; sched_dyn_packet pkt; } item;
    item *cur = malloc(sizeof *cur * 8u * n), *next = malloc(sizeof *next * 8u * n);
    uint32_t ncur = 0;
    sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
    int ns = sched_dyn_originate_ex(pl, source, 3, rnd, rnd2, 0, sends);
    if (load0) for (int k = 0; k < ns; k++) sched_dyn_future_load(pl, &sends[k].pkt, load0);
    for (int k = 0; k < ns; k++) {
        cur[ncur].node = (uint32_t)sched_neighbour(&pl->shape, source, sends[k].port);
        cur[ncur++].pkt = sends[k].pkt;
        per_dim[sends[k].port / 2u] += w;
    }
    for (uint32_t hop = 1; ncur && ok; hop++) {
        uint32_t nn = 0;
        for (uint32_t k = 0; k < ncur && ok; k++) {
            tr++;
            int deliver;
            int m = sched_dyn_on_receive(pl, cur[k].node, &cur[k].pkt, &deliver, sends);
            if (deliver) {
                if (got[cur[k].node]) { snprintf(why, len, "node %u receives twice", cur[k].node); ok = 0; }
                got[cur[k].node] = hop;
                if (hop != sched_distance(&pl->shape, source, cur[k].node)) { snprintf(why, len, "node %u at %u hops, distance %u", cur[k].node, hop, sched_distance(&pl->shape, source, cur[k].node)); ok = 0; }
            }
            for (int j = 0; j < m; j++) {
                next[nn].node = (uint32_t)sched_neighbour(&pl->shape, cur[k].node, sends[j].port);
                next[nn++].pkt = sends[j].pkt;
                per_dim[sends[j].port / 2u] += w;
            }
        }
        item *t = cur; cur = next; next = t;
        ncur = nn;
    }
    for (uint32_t v = 0; v < n && ok; v++)
        if (v != source && !got[v]) { snprintf(why, len, "node %u never receives", v); ok = 0; }
    if (ok && tr != n - 1u) { snprintf(why, len, "%u transmissions, not N-1", tr); ok = 0; }
    free(got); free(cur); free(next);
    return (int)ok;
}

static void test_dynx(void)
{
    /* REDO: every forward and reverse order from every source reaches every node once at its
     * distance; the two balance systems each spread the transmissions evenly over the
     * dimensions; equal sides give every order 1/d!. Adaptive STAR: a queued transmission's
     * future load (the paper's Eul) adds up to the broadcast's transmissions per dimension. */
    static const int shapes[][4] = {{3, 4, 4, 4}, {3, 3, 4, 5}, {3, 3, 4, 6}, {2, 4, 8, 1}, {2, 5, 5, 1}};
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        sched_shape sh = sched_shape_make(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], 1);
        char sn[40], name[128], why[300] = "";
        shape_name(&sh, sn, sizeof sn);
        sched_dyn_plan pl;
        const char *bad = sched_dyn_make_plan_ex(&pl, &sh, SCHED_DYN_ROUTE_REDO, 0);
        snprintf(name, sizeof name, "dyn-redo-%s-every-order-every-source-once-at-distance-and-balanced", sn);
        if (bad) { result(0, name, bad); continue; }
        const uint32_t d = sh.dims;
        double per_dim[2][SCHED_MAX_DIMS] = {{0}};
        int ok = 1;
        for (uint32_t v = 0; v < pl.nodes && ok; v++)
            for (int rev = 0; rev < 2 && ok; rev++)
                for (uint32_t l = 0; l < d && ok; l++) {
                    const uint32_t *num = rev ? pl.reverse_num : pl.ending_num, *thr = rev ? pl.reverse_threshold : pl.ending_threshold;
                    const double w = (double)num[l] / (double)(rev ? pl.reverse_den : pl.ending_den);
                    uint32_t load0[SCHED_MAX_DIMS] = {0}, fut_total = 0;
                    ok = lone_order(&pl, v, l == 0 ? 0u : thr[l - 1] + 1u, rev ? 0x80000000u : 0u, w, per_dim[rev], load0, why, sizeof why);
                    for (uint32_t k = 0; k < d; k++) fut_total += load0[k];
                    if (ok && fut_total != pl.nodes - 1u) { snprintf(why, sizeof why, "future load of the source's sends %u, not N-1", fut_total); ok = 0; }
                    if (ok && !rev)
                        for (uint32_t k = 0; k < d; k++)
                            if (load0[k] != pl.trans[k][l]) { snprintf(why, sizeof why, "future load on dim %u: %u, a_{i,l} %u", k, load0[k], pl.trans[k][l]); ok = 0; }
                }
        for (int rev = 0; rev < 2 && ok; rev++)
            for (uint32_t k = 1; k < d && ok; k++)
                if (per_dim[rev][k] < per_dim[rev][0] * 0.999 || per_dim[rev][k] > per_dim[rev][0] * 1.001) {
                    snprintf(why, sizeof why, "%s orders put %.1f transmissions on dim 0, %.1f on dim %u", rev ? "reverse" : "forward",
                             per_dim[rev][0], per_dim[rev][k], k);
                    ok = 0;
                }
        if (ok && sh.side[0] == sh.side[1] && sh.side[1] == sh.side[2] && d == 3)
            for (uint32_t l = 0; l < d; l++)
                if (pl.reverse_num[l] * pl.ending_den != pl.ending_num[l] * pl.reverse_den || pl.ending_num[l] * d != pl.ending_den) {
                    snprintf(why, sizeof why, "equal sides: orders not 1/d! each");
                    ok = 0;
                }
        result(ok, name, why);
    }
    {
        sched_shape sh = sched_shape_make(2, 8, 8, 1, 0);
        sched_dyn_plan pl;
        const char *bad = sched_dyn_make_plan_ex(&pl, &sh, SCHED_DYN_ROUTE_REDO, 0);
        result(bad && strstr(bad, "ARC"), "dyn-redo-refused-on-a-mesh", bad ? bad : "accepted");
        result(sched_dyn_routing_from_name("adaptive") == SCHED_DYN_ROUTE_ADAPTIVE && sched_dyn_routing_from_name("redo") == SCHED_DYN_ROUTE_REDO &&
               sched_dyn_routing_from_name("arc") == -1, "dyn-routing-names", "names do not round-trip");
    }
    /* The abstract model: on the 4x8 torus with uniform base probabilities STAR unbalances the
     * dimensions and saturates at rho 0.9; adaptive STAR balances them from its backlog. */
    {
        sched_shape sh = sched_shape_make(2, 4, 8, 1, 1);
        sched_dyn_sim_options o = {SCHED_DYN_PRIO2, SCHED_DYN_ROUTE_STAR, 1, 0.9, 200, 1500, 200, 7};
        sched_dyn_stats u, a;
        char err[256] = "", why[300];
        int ra = sched_dyn_simulate_ex(&sh, &o, &u, err, sizeof err);
        o.routing = SCHED_DYN_ROUTE_ADAPTIVE;
        int rb = ra ? -1 : sched_dyn_simulate_ex(&sh, &o, &a, err, sizeof err);
        snprintf(why, sizeof why, "%s uniform STAR: mean broadcast delay %.1f, dims %.3f/%.3f; adaptive %.1f (saturated %d), dims %.3f/%.3f",
                 err, u.mean_broadcast_delay, u.dim_utilisation[0], u.dim_utilisation[1], a.mean_broadcast_delay, a.saturated,
                 a.dim_utilisation[0], a.dim_utilisation[1]);
        result(!ra && !rb && !a.saturated && u.dim_utilisation[1] - u.dim_utilisation[0] > 0.15 &&
                   a.dim_utilisation[1] - a.dim_utilisation[0] < 0.1 && (u.saturated || a.mean_broadcast_delay * 2 < u.mean_broadcast_delay),
               "dyn-adaptive-4x8-uniform-rho0.9-balances-what-star-does-not", why);
        sh = sched_shape_make(2, 8, 8, 1, 1);
        sched_dyn_sim_options p = {SCHED_DYN_PRIO2, SCHED_DYN_ROUTE_STAR, 0, 0.8, 200, 1500, 200, 7};
        ra = sched_dyn_simulate_ex(&sh, &p, &u, err, sizeof err);
        p.routing = SCHED_DYN_ROUTE_ADAPTIVE;
        rb = ra ? -1 : sched_dyn_simulate_ex(&sh, &p, &a, err, sizeof err);
        snprintf(why, sizeof why, "%s STAR %.2f, adaptive %.2f", err, u.mean_broadcast_delay, a.mean_broadcast_delay);
        result(!ra && !rb && !u.saturated && !a.saturated && a.mean_broadcast_delay < u.mean_broadcast_delay,
               "dyn-adaptive-8x8-rho0.8-beats-star", why);
        p.routing = SCHED_DYN_ROUTE_REDO;
        sh = sched_shape_make(3, 4, 4, 4, 1);
        rb = sched_dyn_simulate_ex(&sh, &p, &a, err, sizeof err);
        snprintf(why, sizeof why, "%s REDO %.2f (saturated %d), utilisation %.3f", err, a.mean_broadcast_delay, a.saturated, a.link_utilisation);
        result(!rb && !a.saturated && a.link_utilisation > 0.75 && a.link_utilisation < 0.85, "dyn-redo-4x4x4-rho0.8-stable-and-checked", why);
    }
}

/* ---------------------------------------------------------------- dynamic broadcast */

/* One broadcast alone (no contention): propagate the rule hop by hop. Checks that every
 * receiver gets it exactly once, relays never deliver, STAR uses N-1 transmissions and
 * reaches every node at its torus distance, and ARC reaches every interior node. */
static int lone_broadcast(const sched_dyn_plan *pl, uint32_t source, uint32_t rnd, char *why, size_t len)
{
    const uint32_t n = pl->nodes;
    uint32_t *got = calloc(n, sizeof *got);
    typedef struct { uint32_t node; sched_dyn_packet pkt; } item;
    item *cur = malloc(sizeof *cur * 8u * n), *next = malloc(sizeof *next * 8u * n);
    uint32_t ncur = 0, transmissions = 0, ok = 1;
    sched_dyn_send sends[SCHED_DYN_MAX_SENDS];
    int ns = sched_dyn_originate(pl, source, 7, rnd, sends);
    for (int s = 0; s < ns; s++) {
        cur[ncur].node = (uint32_t)sched_neighbour(&pl->shape, source, sends[s].port);
        cur[ncur++].pkt = sends[s].pkt;
    }
    for (uint32_t hop = 1; ncur && ok; hop++) {
        uint32_t nnext = 0;
        for (uint32_t k = 0; k < ncur && ok; k++) {
            transmissions++;
            int deliver;
            int m = sched_dyn_on_receive(pl, cur[k].node, &cur[k].pkt, &deliver, sends);
            if (deliver) {
                if (got[cur[k].node]) { snprintf(why, len, "node %u receives twice", cur[k].node); ok = 0; }
                if (!sched_dyn_is_receiver(pl, cur[k].node)) { snprintf(why, len, "relay node %u delivers", cur[k].node); ok = 0; }
                got[cur[k].node] = hop;
                if (!pl->arc && hop != sched_distance(&pl->shape, source, cur[k].node)) {
                    snprintf(why, len, "node %u reached after %u hops, distance %u", cur[k].node, hop,
                             sched_distance(&pl->shape, source, cur[k].node));
                    ok = 0;
                }
            }
            for (int s = 0; s < m; s++) {
                int64_t nb = sched_neighbour(&pl->shape, cur[k].node, sends[s].port);
                if (nb < 0) { snprintf(why, len, "sends off the mesh"); ok = 0; break; }
                next[nnext].node = (uint32_t)nb;
                next[nnext++].pkt = sends[s].pkt;
            }
        }
        item *t = cur; cur = next; next = t;
        ncur = nnext;
    }
    for (uint32_t v = 0; v < n && ok; v++)
        if (sched_dyn_is_receiver(pl, v) && v != source && !got[v]) { snprintf(why, len, "node %u never receives", v); ok = 0; }
    if (ok && !pl->arc && transmissions != n - 1u) { snprintf(why, len, "%u transmissions, not N-1", transmissions); ok = 0; }
    free(got); free(cur); free(next);
    return (int)ok;
}

/* The rule from what a wire carries: the machine (firmware/apps/dynamic) sends only the
 * routing state of a packet (source, seq, stage, ending, phase, dir, hops left, face side,
 * reverse), so its packets arrive with prio = 0 and descendants = 0. One broadcast alone, every
 * arrival routed twice, from the whole header and from the header so stripped: the sends must
 * be the same, field by field (the class and the descendant count of each forwarded hop are
 * the rule's, not the incoming header's). And on a torus every transmission has the paper's
 * class: LOW exactly in the ending dimension (the last phase of its order). */
static int same_send(const sched_dyn_send *a, const sched_dyn_send *b)
{
    return a->port == b->port && a->pkt.source == b->pkt.source && a->pkt.seq == b->pkt.seq && a->pkt.stage == b->pkt.stage &&
           a->pkt.ending == b->pkt.ending && a->pkt.phase == b->pkt.phase && a->pkt.dir == b->pkt.dir &&
           a->pkt.hops_left == b->pkt.hops_left && a->pkt.prio == b->pkt.prio && a->pkt.face_side == b->pkt.face_side &&
           a->pkt.reverse == b->pkt.reverse && a->pkt.descendants == b->pkt.descendants;
}

static int wire_lone(const sched_dyn_plan *pl, uint32_t source, uint32_t rnd, uint32_t rnd2, char *why, size_t len)
{
    const uint32_t n = pl->nodes, d = pl->shape.dims;
    typedef struct { uint32_t node; sched_dyn_packet pkt; } item;
    item *cur = malloc(sizeof *cur * 8u * n), *next = malloc(sizeof *next * 8u * n);
    uint32_t ncur = 0, ok = 1;
    sched_dyn_send sends[SCHED_DYN_MAX_SENDS], wire[SCHED_DYN_MAX_SENDS];
    int ns = sched_dyn_originate_ex(pl, source, 5, rnd, rnd2, 0, sends);
    for (int k = 0; k < ns; k++) {
        cur[ncur].node = (uint32_t)sched_neighbour(&pl->shape, source, sends[k].port);
        cur[ncur++].pkt = sends[k].pkt;
    }
    for (uint32_t hop = 0; ncur && ok; hop++) {
        uint32_t nn = 0;
        for (uint32_t k = 0; k < ncur && ok; k++) {
            const sched_dyn_packet *in = &cur[k].pkt;
            if (!pl->arc && in->prio != (in->phase + 1u == d ? SCHED_DYN_LOW : SCHED_DYN_HIGH)) {
                snprintf(why, len, "source %u: a phase-%u transmission into node %u has class %u", source, in->phase, cur[k].node, in->prio);
                ok = 0;
                break;
            }
            sched_dyn_packet stripped = *in;
            stripped.prio = 0;
            stripped.descendants = 0;
            int deliver, deliver_w;
            const int m = sched_dyn_on_receive(pl, cur[k].node, in, &deliver, sends);
            const int mw = sched_dyn_on_receive(pl, cur[k].node, &stripped, &deliver_w, wire);
            if (m != mw || deliver != deliver_w) {
                snprintf(why, len, "source %u, node %u: %d sends from the header, %d from the wire's", source, cur[k].node, m, mw);
                ok = 0;
                break;
            }
            for (int j = 0; j < m && ok; j++) {
                if (!same_send(&sends[j], &wire[j])) {
                    snprintf(why, len, "source %u, node %u, send %d (port %u, phase %u): class %u / descendants %u from the header, "
                             "%u / %u from the wire's", source, cur[k].node, j, sends[j].port, sends[j].pkt.phase, sends[j].pkt.prio,
                             sends[j].pkt.descendants, wire[j].pkt.prio, wire[j].pkt.descendants);
                    ok = 0;
                }
                next[nn].node = (uint32_t)sched_neighbour(&pl->shape, cur[k].node, sends[j].port);
                next[nn++].pkt = sends[j].pkt;
            }
        }
        item *t = cur; cur = next; next = t;
        ncur = nn;
    }
    free(cur); free(next);
    return (int)ok;
}

static void test_dyn(void)
{
    static const int shapes[][5] = {
        {2, 8, 8, 1, 1}, {2, 5, 5, 1, 1}, {2, 4, 8, 1, 1}, {2, 3, 7, 1, 1}, {3, 4, 4, 4, 1}, {3, 3, 4, 5, 1},
        {2, 8, 8, 1, 0}, {2, 6, 6, 1, 0}, {2, 5, 9, 1, 0}, {3, 5, 5, 5, 0},
    };
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        sched_shape sh = sched_shape_make(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3], shapes[i][4]);
        char sn[40], name[96], why[256] = "";
        shape_name(&sh, sn, sizeof sn);
        sched_dyn_plan pl;
        const char *bad = sched_dyn_make_plan(&pl, &sh);
        snprintf(name, sizeof name, "dyn-%s-lone-broadcast-every-source-and-ending", sh.torus ? "star" : "arc");
        snprintf(name + strlen(name), sizeof name - strlen(name), "-%s", sn);
        if (bad) { result(0, name, bad); continue; }
        int ok = 1;
        for (uint32_t v = 0; v < pl.nodes && ok; v++) {
            if (!sched_dyn_is_receiver(&pl, v)) continue;
            for (uint32_t l = 0; l < sh.dims && ok; l++)
                ok = lone_broadcast(&pl, v, l == 0 ? 0u : (l == 1 ? pl.ending_threshold[0] + 1u : 0xFFFFFFFFu), why, sizeof why);
        }
        result(ok, name, why);
    }
    /* The rule from the wire's header (wire_lone): STAR and REDO tori, ARC meshes. */
    {
        static const int wshapes[][6] = {   /* dims, sides, torus, routing */
            {2, 8, 8, 1, 1, SCHED_DYN_ROUTE_STAR}, {2, 4, 8, 1, 1, SCHED_DYN_ROUTE_STAR}, {3, 3, 4, 5, 1, SCHED_DYN_ROUTE_STAR},
            {3, 3, 4, 5, 1, SCHED_DYN_ROUTE_REDO}, {2, 8, 8, 1, 0, SCHED_DYN_ROUTE_STAR}, {3, 5, 5, 5, 0, SCHED_DYN_ROUTE_STAR},
        };
        int ok = 1;
        char why[300] = "";
        for (unsigned i = 0; i < sizeof wshapes / sizeof wshapes[0] && ok; i++) {
            sched_shape sh = sched_shape_make(wshapes[i][0], wshapes[i][1], wshapes[i][2], wshapes[i][3], wshapes[i][4]);
            sched_dyn_plan pl;
            const char *bad = sched_dyn_make_plan_ex(&pl, &sh, wshapes[i][5], 0);
            if (bad) { ok = 0; snprintf(why, sizeof why, "%s", bad); break; }
            for (uint32_t v = 0; v < pl.nodes && ok; v++) {
                if (!sched_dyn_is_receiver(&pl, v)) continue;
                for (uint32_t l = 0; l < sh.dims && ok; l++)
                    for (uint32_t r2 = 0; r2 < 2u && ok; r2++) {
                        const uint32_t rnd = l == 0 ? 0u : pl.ending_threshold[l - 1u] + 1u;
                        char sn[40];
                        ok = wire_lone(&pl, v, rnd, r2 ? 0x80000000u : 0u, why, sizeof why);
                        if (!ok) {
                            shape_name(&sh, sn, sizeof sn);
                            snprintf(why + strlen(why), sizeof why - strlen(why), " (%s %s)", sn, sched_dyn_routing_name(wshapes[i][5]));
                        }
                    }
            }
        }
        result(ok, "dyn-rule-from-the-wire-header-same-sends-and-paper-classes", why);
    }
    /* Burst: every node one packet at once through the rule and real queues; the recorded
     * transmissions must pass the independent allgather checker. */
    static const int burst[][4] = {{2, 8, 8, 1}, {2, 5, 5, 1}, {2, 4, 8, 1}, {2, 3, 7, 1}, {3, 4, 4, 4}, {3, 3, 4, 5}};
    for (unsigned i = 0; i < sizeof burst / sizeof burst[0]; i++)
        for (int disc = 0; disc <= 1; disc++) {
            sched_shape sh = sched_shape_make(burst[i][0], burst[i][1], burst[i][2], burst[i][3], 1);
            char sn[40], name[96], why[300] = "", err[256] = "";
            shape_name(&sh, sn, sizeof sn);
            snprintf(name, sizeof name, "dyn-star-burst-%s-%s-passes-allgather-checker", disc ? "prio2" : "fifo", sn);
            sched_schedule s;
            if (sched_dyn_burst(&s, &sh, disc ? SCHED_DYN_PRIO2 : SCHED_DYN_FIFO, 5, err, sizeof err)) { result(0, name, err); continue; }
            sched_check_result r;
            int ok = check_shared(&s, &r);
            if (!ok) snprintf(why, sizeof why, "checker: %s", r.error);
            else if (r.messages != sched_nodes(&sh) * (sched_nodes(&sh) - 1u) || r.steps < sched_lb_mnb(&sh)) {
                ok = 0;
                snprintf(why, sizeof why, "%u transmissions (want N(N-1)), %u slots vs lower bound %u", r.messages, r.steps, sched_lb_mnb(&sh));
            }
            result(ok, name, why);
            sched_free(&s);
        }
    /* Balance system of a non-square torus: digest B3, (4,8) -> x = (0.5952, 0.4048). */
    {
        sched_shape sh = sched_shape_make(2, 4, 8, 1, 1);
        sched_dyn_plan pl;
        const char *bad = sched_dyn_make_plan(&pl, &sh);
        char why[128];
        snprintf(why, sizeof why, "%s x = (%.4f, %.4f)", bad ? bad : "", ((double)pl.ending_num[0] / pl.ending_den), ((double)pl.ending_num[1] / pl.ending_den));
        result(!bad && ((double)pl.ending_num[0] / pl.ending_den) > 0.5947 && ((double)pl.ending_num[0] / pl.ending_den) < 0.5957 && ((double)pl.ending_num[1] / pl.ending_den) > 0.4043 &&
               ((double)pl.ending_num[1] / pl.ending_den) < 0.4053, "dyn-star-balance-4x8-torus", why);
        sh = sched_shape_make(3, 4, 6, 8, 1);
        bad = sched_dyn_make_plan(&pl, &sh);
        snprintf(why, sizeof why, "%s x = (%.4f, %.4f, %.4f)", bad ? bad : "", ((double)pl.ending_num[0] / pl.ending_den), ((double)pl.ending_num[1] / pl.ending_den), ((double)pl.ending_num[2] / pl.ending_den));
        result(!bad && ((double)pl.ending_num[0] / pl.ending_den) > 0.3773 && ((double)pl.ending_num[0] / pl.ending_den) < 0.3783 && ((double)pl.ending_num[2] / pl.ending_den) > 0.2693 &&
               ((double)pl.ending_num[2] / pl.ending_den) < 0.2703, "dyn-star-balance-4x6x8-torus", why);
        sh = sched_shape_make(2, 8, 8, 1, 0);
        sh.side[0] = 3;
        bad = sched_dyn_make_plan(&pl, &sh);
        result(bad != 0, "dyn-arc-refuses-side-3", bad ? bad : "accepted");
    }
    /* Loaded runs: stable, checked, priority helps, light load ~ average distance. */
    {
        sched_shape sh = sched_shape_make(2, 8, 8, 1, 1);
        sched_dyn_stats f, p, light;
        char err[256] = "", why[256];
        int a = sched_dyn_simulate(&sh, SCHED_DYN_FIFO, 0.8, 200, 1500, 1, &f, err, sizeof err);
        int b = a ? -1 : sched_dyn_simulate(&sh, SCHED_DYN_PRIO2, 0.8, 200, 1500, 1, &p, err, sizeof err);
        snprintf(why, sizeof why, "%s FIFO %.2f (sat %d), prio %.2f (sat %d)", err, f.mean_delay, f.saturated, p.mean_delay, p.saturated);
        result(!a && !b && !f.saturated && !p.saturated && p.mean_delay < f.mean_delay, "dyn-star-8x8-rho0.8-prio-beats-fifo", why);
        snprintf(why, sizeof why, "link utilisation %.3f at rho 0.8", f.link_utilisation);
        result(!a && f.link_utilisation > 0.7 && f.link_utilisation < 0.9, "dyn-star-8x8-link-utilisation-is-rho", why);
        a = sched_dyn_simulate(&sh, SCHED_DYN_FIFO, 0.05, 100, 3000, 2, &light, err, sizeof err);
        /* average torus distance 4.063 (digest) plus half a slot of alignment */
        snprintf(why, sizeof why, "%s mean %.3f", err, light.mean_delay);
        result(!a && light.mean_delay > 4.063 && light.mean_delay < 4.063 + 1.0, "dyn-star-8x8-light-load-delay-is-distance", why);
        /* Digest B4 simulation, 8x8 torus rho 0.5: FIFO 5.94, 2-class 5.26, optimal 5.08 (+-10%). */
        sched_dyn_stats o;
        a = sched_dyn_simulate(&sh, SCHED_DYN_FIFO, 0.5, 300, 3000, 4, &f, err, sizeof err);
        b = a ? -1 : sched_dyn_simulate(&sh, SCHED_DYN_PRIO2, 0.5, 300, 3000, 4, &p, err, sizeof err);
        int c = (a || b) ? -1 : sched_dyn_simulate(&sh, SCHED_DYN_DESC, 0.5, 300, 3000, 4, &o, err, sizeof err);
        snprintf(why, sizeof why, "%s FIFO %.2f, 2-class %.2f, descendants %.2f", err, f.mean_delay, p.mean_delay, o.mean_delay);
        result(!a && !b && !c && f.mean_delay > 5.94 * 0.9 && f.mean_delay < 5.94 * 1.1 && p.mean_delay > 5.26 * 0.9 &&
                   p.mean_delay < 5.26 * 1.1 && o.mean_delay > 5.08 * 0.9 && o.mean_delay < 5.08 * 1.1 &&
                   o.mean_delay <= p.mean_delay && p.mean_delay < f.mean_delay,
               "dyn-star-8x8-rho0.5-matches-digest-simulation", why);
        sh = sched_shape_make(2, 8, 8, 1, 0);
        a = sched_dyn_simulate(&sh, SCHED_DYN_FIFO, 0.4, 200, 1500, 3, &f, err, sizeof err);
        b = a ? -1 : sched_dyn_simulate(&sh, SCHED_DYN_PRIO2, 0.4, 200, 1500, 3, &p, err, sizeof err);
        snprintf(why, sizeof why, "%s FIFO %.2f (sat %d), prio %.2f (sat %d)", err, f.mean_delay, f.saturated, p.mean_delay, p.saturated);
        result(!a && !b && !f.saturated && !p.saturated, "dyn-arc-8x8-rho0.4-stable-and-checked", why);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: coll_test mnb|pmnb|te|neg|dyn|pe|pg|dynx\n"); return 2; }
    if (!strcmp(argv[1], "mnb")) test_mnb();
    else if (!strcmp(argv[1], "pmnb")) test_pmnb();
    else if (!strcmp(argv[1], "te")) test_te();
    else if (!strcmp(argv[1], "neg")) test_neg();
    else if (!strcmp(argv[1], "dyn")) test_dyn();
    else if (!strcmp(argv[1], "pe")) test_pe();
    else if (!strcmp(argv[1], "pg")) test_pg();
    else if (!strcmp(argv[1], "dynx")) test_dynx();
    else { fprintf(stderr, "coll_test: unknown part '%s'\n", argv[1]); return 2; }
    return failures ? 1 : 0;
}
