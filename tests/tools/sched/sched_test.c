/* SPDX-License-Identifier: ISC */
/* Test driver for the schedule library (firmware/sched): sweeps every algorithm over the
 * shapes of issue 4, compares step counts and total communication distances with the
 * digests, and feeds the checker deliberately broken schedules. Prints PASS/FAIL lines.
 * Usage: sched_test [group]   (groups: tw cw saf scatter neg table; default all) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "sched_coll.h"
#include "sched_table.h"
#include "base/sched_base.h"
#include "bcast/sched_bcast.h"
#include "check/sched_check.h"
#include "gen/sched_gen.h"

static int failures;

static void report(const char *name, int ok, const char *why)
{
    if (ok) printf("PASS %s\n", name);
    else { printf("FAIL %s: %s\n", name, why); failures++; }
    fflush(stdout);   /* a crash later must not take this line with it */
}

static int check(const sched_schedule *s, sched_check_result *r)
{
    size_t wb = sched_check_workspace_bytes(s);
    void *ws = malloc(wb);
    if (!ws) { memset(r, 0, sizeof *r); strcpy(r->error, "out of memory"); return 0; }
    sched_check(s, ws, wb, r);
    free(ws);
    return r->ok;
}

/* Roots: origin, centre, last node, and one more off-centre node. */
static int roots_of(const sched_shape *sh, uint32_t *roots)
{
    uint32_t n = sched_nodes(sh), cand[4] = {0, n / 2, n - 1, (n / 3) | 1u};
    int k = 0;
    for (int i = 0; i < 4; i++) {
        int dup = 0;
        for (int j = 0; j < k; j++) dup |= roots[j] == cand[i] % n;
        if (!dup) roots[k++] = cand[i] % n;
    }
    return k;
}

typedef struct {
    int cases, passed, at_bound, above;
    uint32_t worst_over;
    char first_error[600];
} tally;

/* Generate + check one case; `exact` asks steps == expected, else steps >= expected (a
 * lower bound) and the distance above it is tallied. */
static void run_case(tally *t, const sched_shape *sh, sched_algo algo, uint32_t root, int exact)
{
    sched_schedule s;
    char err[256];
    t->cases++;
    if (sched_generate(&s, sh, algo, root, err, sizeof err)) {
        if (!t->first_error[0]) snprintf(t->first_error, sizeof t->first_error, "%dD %ux%ux%u t%u root %u: %s",
                                         sh->dims, sh->side[0], sh->side[1], sh->side[2], sh->torus, root, err);
        return;
    }
    sched_check_result r;
    uint32_t want = sched_expected_steps(sh, algo, root);
    int ok = check(&s, &r);
    if (ok && exact && r.steps != want) ok = 0;
    if (ok && !exact && r.steps < want) ok = 0;
    if (ok) {
        t->passed++;
        if (r.steps == want) t->at_bound++;
        else { t->above++; if (r.steps - want > t->worst_over) t->worst_over = r.steps - want; }
    } else if (!t->first_error[0]) {
        snprintf(t->first_error, sizeof t->first_error, "%s %dD %ux%ux%u %s root %u: %s (steps %u, bound %u)",
                 sched_algo_name(algo), sh->dims, sh->side[0], sh->side[1], sh->side[2], sh->torus ? "torus" : "mesh",
                 root, r.ok ? "step count differs from the bound" : r.error, r.steps, want);
    }
    sched_free(&s);
}

static void tally_report(const char *name, const tally *t)
{
    char why[800];
    snprintf(why, sizeof why, "%d/%d cases pass; first problem: %s", t->passed, t->cases,
             t->first_error[0] ? t->first_error : "-");
    report(name, t->cases > 0 && t->passed == t->cases, why);
}

/* ---------------------------------------------------------------------------------------- */

static void test_tw(void)
{
    tally t2 = {0}, t3 = {0};
    static const int sides2[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 25, 49};
    for (unsigned i = 0; i < sizeof sides2 / sizeof sides2[0]; i++) {
        sched_shape sh = sched_shape_make(2, sides2[i], sides2[i], 1, 1);
        uint32_t roots[4];
        int k = roots_of(&sh, roots);
        for (int j = 0; j < k; j++) run_case(&t2, &sh, SCHED_ALGO_TSAY_WANG, roots[j], 1);
        printf("INFO tsay-wang 2-D n=%d: steps %u, lower bound %u, paper %u\n", sides2[i],
               sched_expected_steps(&sh, SCHED_ALGO_TSAY_WANG, 0), sched_lb_allport_bcast(&sh),
               sched_paper_steps(&sh, SCHED_ALGO_TSAY_WANG, 0));
    }
    for (int n = 2; n <= 7; n++) {
        sched_shape sh = sched_shape_make(3, n, n, n, 1);
        uint32_t roots[4];
        int k = roots_of(&sh, roots);
        for (int j = 0; j < k; j++) run_case(&t3, &sh, SCHED_ALGO_TSAY_WANG, roots[j], 1);
        printf("INFO tsay-wang 3-D n=%d: steps %u, lower bound %u, paper %u\n", n,
               sched_expected_steps(&sh, SCHED_ALGO_TSAY_WANG, 0), sched_lb_allport_bcast(&sh),
               sched_paper_steps(&sh, SCHED_ALGO_TSAY_WANG, 0));
    }
    tally_report("tsay-wang 2-D tori n=2..16,25,49, 4 roots: checker passes, steps = digest bound", &t2);
    tally_report("tsay-wang 3-D tori n=2..7, 4 roots: checker passes, steps = digest bound", &t3);

    /* Digest B5 golden numbers: total hops (sum over steps). */
    static const struct { int d, n; uint64_t hops; uint32_t steps; } gold[] = {
        {2, 3, 15, 2}, {2, 5, 42, 2}, {2, 7, 90, 4}, {2, 11, 273, 4}, {2, 25, 1620, 4}, {2, 4, 26, 3},
        {2, 6, 64, 3}, {2, 26, 1740, 5}, {3, 3, 54, 4}, {3, 7, 953, 4}, {3, 9, 2220, 7}, {3, 4, 110, 6},
        {3, 8, 1269, 6}};
    int ok = 1;
    char why[200] = "";
    for (unsigned i = 0; i < sizeof gold / sizeof gold[0]; i++) {
        sched_shape sh = sched_shape_make(gold[i].d, gold[i].n, gold[i].n, gold[i].n, 1);
        sched_schedule s;
        char err[200];
        sched_check_result r;
        if (sched_generate(&s, &sh, SCHED_ALGO_TSAY_WANG, 0, err, sizeof err) || !check(&s, &r) ||
            r.total_distance != gold[i].hops || r.steps != gold[i].steps) {
            if (ok) snprintf(why, sizeof why, "d=%d n=%d: hops %llu steps %u, digest %llu / %u", gold[i].d, gold[i].n,
                             (unsigned long long)r.total_distance, r.steps, (unsigned long long)gold[i].hops, gold[i].steps);
            ok = 0;
        }
        sched_free(&s);
    }
    report("tsay-wang total hops and steps equal the digest's table B5", ok, why);

    /* Digest B5: messages per step (these depend on the suppression and the even-n fill). */
    static const struct { int d, n; int per[8]; } msteps[] = {
        {2, 3, {2, 6}}, {2, 5, {4, 20}}, {2, 7, {4, 2, 28, 14}}, {2, 11, {4, 6, 44, 66}}, {2, 25, {4, 20, 100, 500}},
        {2, 125, {4, 20, 100, 500, 2500, 12500}}, {2, 4, {2, 6, 7}}, {2, 6, {4, 20, 11}},
        {2, 26, {4, 20, 100, 500, 51}}, {3, 3, {2, 6, 6, 12}}, {3, 7, {6, 42, 42, 252}},
        {3, 9, {6, 2, 54, 18, 72, 432, 144}}, {3, 4, {2, 6, 6, 12, 21, 16}}, {3, 8, {6, 42, 42, 252, 105, 64}}};
    ok = 1;
    for (unsigned i = 0; i < sizeof msteps / sizeof msteps[0] && ok; i++) {
        sched_shape sh = sched_shape_make(msteps[i].d, msteps[i].n, msteps[i].n, msteps[i].n, 1);
        sched_schedule s;
        char err[200];
        if (sched_generate(&s, &sh, SCHED_ALGO_TSAY_WANG, 0, err, sizeof err)) { ok = 0; snprintf(why, sizeof why, "%s", err); break; }
        int per[8] = {0};
        for (uint32_t k = 0; k < s.count; k++) if (s.msgs[k].step <= 8) per[s.msgs[k].step - 1]++;
        if (memcmp(per, msteps[i].per, sizeof per) != 0) {
            snprintf(why, sizeof why, "d=%d n=%d: %d,%d,%d,%d,%d,%d,%d", msteps[i].d, msteps[i].n, per[0], per[1], per[2],
                     per[3], per[4], per[5], per[6]);
            ok = 0;
        }
        sched_free(&s);
    }
    report("tsay-wang messages per step equal the digest's table B5 (incl. 125x125)", ok, why);
    /* Lower bound against the digest's LB column. */
    sched_shape a = sched_shape_make(2, 26, 26, 1, 1), b = sched_shape_make(3, 49, 49, 49, 1), c = sched_shape_make(2, 2, 2, 1, 1);
    report("lower bound ceil(d log_{2d+1} n): 5 (26x26), 6 (49^3), 1 (2x2)",
           sched_lb_allport_bcast(&a) == 5 && sched_lb_allport_bcast(&b) == 6 && sched_lb_allport_bcast(&c) == 1,
           "lower bound differs");
}

/* Digest A4 matrices (rows y, columns x). */
static const int cw4[16] = {18, 16, 16, 18, 16, 15, 15, 16, 16, 15, 15, 16, 18, 16, 16, 18};
static const int cw8_alg1[64] = {
    79, 75, 73, 75, 75, 73, 75, 79, 75, 72, 70, 71, 71, 70, 72, 75, 73, 70, 69, 70, 70, 69, 70, 73,
    75, 71, 70, 72, 72, 70, 71, 75, 75, 71, 70, 72, 72, 70, 71, 75, 73, 70, 69, 70, 70, 69, 70, 73,
    75, 72, 70, 71, 71, 70, 72, 75, 79, 75, 73, 75, 75, 73, 75, 79};
static const int cw8_dp[64] = {
    79, 75, 73, 74, 74, 73, 75, 79, 75, 72, 70, 70, 70, 70, 72, 75, 73, 70, 69, 69, 69, 69, 70, 73,
    74, 70, 69, 71, 71, 69, 70, 74, 74, 70, 69, 71, 71, 69, 70, 74, 73, 70, 69, 69, 69, 69, 70, 73,
    75, 72, 70, 70, 70, 70, 72, 75, 79, 75, 73, 74, 74, 73, 75, 79};
static const int cw16_alg1_ul[64] = {
    318, 312, 308, 308, 306, 302, 304, 308, 312, 307, 303, 302, 300, 297, 299, 302,
    308, 303, 300, 299, 297, 294, 295, 298, 308, 302, 299, 301, 299, 295, 296, 300,
    306, 300, 297, 299, 298, 294, 295, 299, 302, 297, 294, 295, 294, 291, 292, 295,
    304, 299, 295, 296, 295, 292, 294, 297, 308, 302, 298, 300, 299, 295, 297, 301};
static const int cw16_dp_ul[64] = {
    318, 312, 308, 307, 305, 302, 303, 307, 312, 307, 303, 301, 299, 297, 298, 301,
    308, 303, 300, 298, 296, 294, 294, 297, 307, 301, 298, 299, 297, 293, 293, 297,
    305, 299, 296, 297, 296, 292, 292, 296, 302, 297, 294, 293, 292, 291, 291, 294,
    303, 298, 294, 293, 292, 291, 293, 296, 307, 301, 297, 297, 296, 294, 296, 300};

static int cw_matrix(sched_algo algo, int n, int rows, const int *want, char *why, size_t whylen)
{
    sched_shape sh = sched_shape_make(2, n, n, 1, 0);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < rows; x++) {
            sched_schedule s;
            char err[200];
            sched_check_result r;
            uint32_t root = (uint32_t)(x + y * n);
            if (sched_generate(&s, &sh, algo, root, err, sizeof err) || !check(&s, &r) ||
                r.total_distance != (uint64_t)want[x + y * rows] || r.steps != sched_lb_oneport_bcast(&sh)) {
                snprintf(why, whylen, "%s %dx%d root (%d,%d): TCD %llu steps %u, digest %d (%s)", sched_algo_name(algo), n,
                         n, x, y, (unsigned long long)r.total_distance, r.steps, want[x + y * rows], r.ok ? "" : r.error);
                sched_free(&s);
                return 0;
            }
            sched_free(&s);
        }
    return 1;
}

static void test_cw(void)
{
    char why[700] = "";
    report("cang-wu 4x4 TCD matrix (every root) = digest A4", cw_matrix(SCHED_ALGO_CANG_WU, 4, 4, cw4, why, sizeof why), why);
    report("cang-wu-dp 4x4 TCD matrix = digest A4 (= exhaustive optimum)",
           cw_matrix(SCHED_ALGO_CANG_WU_DP, 4, 4, cw4, why, sizeof why), why);
    report("cang-wu 8x8 TCD matrix, Algorithm 1 best orientation = digest A4",
           cw_matrix(SCHED_ALGO_CANG_WU, 8, 8, cw8_alg1, why, sizeof why), why);
    report("cang-wu-dp 8x8 TCD matrix, quadrant-recursive optimum = digest A4",
           cw_matrix(SCHED_ALGO_CANG_WU_DP, 8, 8, cw8_dp, why, sizeof why), why);
    report("cang-wu 16x16 upper-left TCD matrix = digest A4",
           cw_matrix(SCHED_ALGO_CANG_WU, 16, 8, cw16_alg1_ul, why, sizeof why), why);
    report("cang-wu-dp 16x16 upper-left TCD matrix = digest A4",
           cw_matrix(SCHED_ALGO_CANG_WU_DP, 16, 8, cw16_dp_ul, why, sizeof why), why);
    /* Eye and corner formulas, and the tables of A4 (k = 1..5). */
    static const uint64_t eye[] = {0, 3, 15, 69, 291, 1197}, corner[] = {0, 3, 18, 79, 318, 1259};
    int ok = 1;
    for (unsigned k = 1; k <= 5 && ok; k++) {
        int n = 1 << k;
        sched_shape mesh = sched_shape_make(2, n, n, 1, 0), torus = sched_shape_make(2, n, n, 1, 1);
        int p = (n - 1 - (int)(((1 << k) - ((k & 1) ? -1 : 1)) / 3)) / 2;
        uint32_t eye_root = (uint32_t)(p + p * n);
        for (int a = 0; a < 2 && ok; a++) {
            sched_algo algo = a ? SCHED_ALGO_CANG_WU_DP : SCHED_ALGO_CANG_WU;
            struct { const sched_shape *sh; uint32_t root; uint64_t want; } cs[3] = {
                {&mesh, 0, corner[k]}, {&mesh, eye_root, eye[k]}, {&torus, (uint32_t)(n * n / 2 + 1), eye[k]}};
            for (int c = 0; c < 3 && ok; c++) {
                sched_schedule s;
                char err[200];
                sched_check_result r;
                if (sched_generate(&s, cs[c].sh, algo, cs[c].root, err, sizeof err) || !check(&s, &r) ||
                    r.total_distance != cs[c].want || r.steps != 2 * k) {
                    snprintf(why, sizeof why, "%s k=%u case %d: TCD %llu, want %llu", sched_algo_name(algo), k, c,
                             (unsigned long long)r.total_distance, (unsigned long long)cs[c].want);
                    ok = 0;
                }
                sched_free(&s);
            }
        }
        if (sched_cw_eye_tcd(k) != eye[k] || sched_cw_corner_tcd(k) != corner[k]) {
            snprintf(why, sizeof why, "formula k=%u: eye %llu corner %llu", k, (unsigned long long)sched_cw_eye_tcd(k),
                     (unsigned long long)sched_cw_corner_tcd(k));
            ok = 0;
        }
    }
    report("cang-wu eye/corner TCD = eq. (10)/(9) for k=1..5 (mesh, and torus via eye placement)", ok, why);
    /* Where Theorem 2 fails: DP beats Algorithm 1 (digest A4 counterexamples). */
    sched_shape m8 = sched_shape_make(2, 8, 8, 1, 0);
    static const struct { int x, y; uint64_t alg1, dp; } ce[] = {{2, 3, 70, 69}, {3, 0, 75, 74}};
    ok = 1;
    for (int i = 0; i < 2; i++)
        for (int a = 0; a < 2; a++) {
            sched_schedule s;
            char err[200];
            sched_check_result r;
            sched_generate(&s, &m8, a ? SCHED_ALGO_CANG_WU_DP : SCHED_ALGO_CANG_WU, (uint32_t)(ce[i].x + 8 * ce[i].y), err,
                           sizeof err);
            check(&s, &r);
            if (!r.ok || r.total_distance != (a ? ce[i].dp : ce[i].alg1)) ok = 0;
            sched_free(&s);
        }
    report("cang-wu-dp beats Algorithm 1 where Theorem 2 fails: (2,3) 70->69, (3,0) 75->74", ok, "TCD differs");
    /* Sweep: every root of 2x2..8x8, mesh and torus, both variants; 16x16 several roots. */
    tally t = {0};
    for (int n = 2; n <= 16; n *= 2)
        for (int tor = 0; tor < 2; tor++) {
            sched_shape sh = sched_shape_make(2, n, n, 1, tor);
            for (int a = 0; a < 2; a++) {
                sched_algo algo = a ? SCHED_ALGO_CANG_WU_DP : SCHED_ALGO_CANG_WU;
                if (n <= 8) for (uint32_t r = 0; r < (uint32_t)(n * n); r++) run_case(&t, &sh, algo, r, 1);
                else { uint32_t roots[4]; int k = roots_of(&sh, roots); for (int j = 0; j < k; j++) run_case(&t, &sh, algo, roots[j], 1); }
            }
        }
    tally_report("cang-wu, cang-wu-dp on 2^k meshes and tori 2..16, every root up to 8x8: checker passes, steps = 2k", &t);
    /* Refuses shapes it does not apply to. */
    sched_schedule s;
    char err[200] = "";
    sched_shape bad = sched_shape_make(2, 6, 6, 1, 0);
    report("cang-wu refuses a 6x6 mesh with a message", sched_generate(&s, &bad, SCHED_ALGO_CANG_WU, 0, err, sizeof err) != 0 &&
           strstr(err, "2^k") != 0, err);
}

static void sweep_saf(sched_algo algo, tally *t2, tally *t3, tally *ttor, int exact_all)
{
    for (int tor = 0; tor < 2; tor++) {
        for (int a = 2; a <= 16; a++)
            for (int b = 2; b <= 16; b++) {
                sched_shape sh = sched_shape_make(2, a, b, 1, tor);
                uint32_t roots[4];
                int k = roots_of(&sh, roots);
                int exact = exact_all || (tor && a >= 4 && b >= 4);
                for (int j = 0; j < k; j++) run_case(exact && !exact_all && ttor ? ttor : t2, &sh, algo, roots[j], exact);
            }
        for (int n = 25; n <= 49; n += 24) {
            sched_shape sh = sched_shape_make(2, n, n, 1, tor);
            int exact = exact_all || tor;
            run_case(exact && !exact_all && ttor ? ttor : t2, &sh, algo, 0, exact);
            run_case(exact && !exact_all && ttor ? ttor : t2, &sh, algo, (uint32_t)(n * n / 2), exact);
        }
        for (int a = 2; a <= 7; a++)
            for (int b = 2; b <= 7; b++)
                for (int c = 2; c <= 7; c++) {
                    sched_shape sh = sched_shape_make(3, a, b, c, tor);
                    uint32_t roots[4];
                    int k = roots_of(&sh, roots);
                    for (int j = 0; j < k; j++) run_case(t3, &sh, algo, roots[j], exact_all);
                }
    }
}

static void test_saf(void)
{
    tally t2 = {0}, t3 = {0};
    sweep_saf(SCHED_ALGO_SAF_BCAST, &t2, &t3, 0, 1);
    tally_report("saf-bcast 2-D meshes and tori 2..16 x 2..16, 25x25, 49x49: checker passes, slots = eccentricity", &t2);
    tally_report("saf-bcast 3-D meshes and tori, sides 2..7: checker passes, slots = eccentricity", &t3);
}

static void test_scatter(void)
{
    for (int g = 0; g < 2; g++) {
        sched_algo algo = g ? SCHED_ALGO_GATHER : SCHED_ALGO_SCATTER;
        tally t2 = {0}, t3 = {0}, tt = {0};
        sweep_saf(algo, &t2, &t3, &tt, 0);
        char name[200];
        snprintf(name, sizeof name, "%s 2-D tori sides 4..16, 25x25, 49x49: four-region tree, slots = ceil((N-1)/4)",
                 sched_algo_name(algo));
        tally_report(name, &tt);
        snprintf(name, sizeof name, "%s other 2-D shapes (meshes, tori with a side < 4): checker passes, slots >= tree bound",
                 sched_algo_name(algo));
        tally_report(name, &t2);
        printf("INFO %s other 2-D: %d/%d at the bound, %d above (worst +%u)\n", sched_algo_name(algo), t2.at_bound,
               t2.cases, t2.above, t2.worst_over);
        snprintf(name, sizeof name, "%s 3-D meshes and tori sides 2..7: checker passes, slots >= tree bound",
                 sched_algo_name(algo));
        tally_report(name, &t3);
        printf("INFO %s 3-D: %d/%d at the bound, %d above (worst +%u)\n", sched_algo_name(algo), t3.at_bound, t3.cases,
               t3.above, t3.worst_over);
        if (!g) {
            /* Quality floor of the balancing heuristic (deterministic): record it so that a
             * regression shows. */
            char why[200];
            snprintf(why, sizeof why, "2-D: %d above the bound (worst +%u); 3-D: %d above (worst +%u)", t2.above,
                     t2.worst_over, t3.above, t3.worst_over);
            report("scatter heuristic: tori with a side < 4 and 3-D all at the bound; 2-D meshes at most +5",
                   t2.worst_over <= 5 && t3.worst_over <= 3, why);
        }
    }
    /* Every root of every mesh up to 8x8 (and the digest's exhaustive 2x5, 2x6 cases). */
    tally ta = {0};
    for (int a = 2; a <= 8; a++)
        for (int b = 2; b <= 8; b++) {
            sched_shape sh = sched_shape_make(2, a, b, 1, 0);
            for (uint32_t r = 0; r < (uint32_t)(a * b); r++) run_case(&ta, &sh, SCHED_ALGO_SCATTER, r, 0);
        }
    {
        char why[200];
        snprintf(why, sizeof why, "%d/%d at the bound, %d above (worst +%u)", ta.at_bound, ta.cases, ta.above, ta.worst_over);
        printf("INFO scatter, every root of meshes 2x2..8x8: %s\n", why);
        report("scatter every root of meshes 2x2..8x8: checker passes, slots = tree bound for all 1225",
               ta.passed == ta.cases && ta.above == 0, why);
        /* Thin meshes, every root: the heuristic's known weak spot (a few roots +1). */
        tally tt = {0};
        static const int thin[][2] = {{16, 3}, {3, 16}, {12, 3}, {16, 2}, {2, 16}};
        for (unsigned i = 0; i < sizeof thin / sizeof thin[0]; i++) {
            sched_shape sh = sched_shape_make(2, thin[i][0], thin[i][1], 1, 0);
            for (uint32_t r = 0; r < sched_nodes(&sh); r++) run_case(&tt, &sh, SCHED_ALGO_SCATTER, r, 0);
        }
        snprintf(why, sizeof why, "%d/%d at the bound, %d above (worst +%u)", tt.at_bound, tt.cases, tt.above, tt.worst_over);
        printf("INFO scatter, every root of 16x3, 3x16, 12x3, 16x2, 2x16 meshes: %s\n", why);
        report("scatter every root of thin meshes (16x3, 3x16, 12x3, 16x2, 2x16): checker passes, at most 12 roots +1",
               tt.passed == tt.cases && tt.above <= 12 && tt.worst_over <= 1, why);
        sched_shape m25 = sched_shape_make(2, 2, 5, 1, 0), m26 = sched_shape_make(2, 2, 6, 1, 0);
        int ok = sched_scatter_tree_bound(&m25, 2) == 4 && sched_scatter_tree_bound(&m26, 2) == 5 &&
                 sched_lb_scatter(&m25, 2) == 3 && sched_lb_scatter(&m26, 2) == 4;
        report("cut-aware tree bound: 2x5 and 2x6 meshes, root (0,1): 4 and 5 (digest 8: exhaustive), above ceil((N-1)/3)",
               ok, "bound differs");
    }
    /* Digest 2.2.3 numbers. */
    static const struct { int m, n; uint32_t s; } d[] = {{4, 4, 4}, {4, 5, 5}, {5, 5, 6}, {6, 6, 9}, {7, 7, 12}, {8, 8, 16},
                                                        {6, 4, 6}, {4, 6, 6}, {5, 8, 10}, {6, 7, 11}, {7, 6, 11}, {10, 10, 25},
                                                        {16, 16, 64}, {32, 32, 256}};
    int ok = 1;
    char why[200] = "";
    for (unsigned i = 0; i < sizeof d / sizeof d[0]; i++) {
        sched_shape sh = sched_shape_make(2, d[i].m, d[i].n, 1, 1);
        uint32_t *parent = malloc(sched_nodes(&sh) * sizeof *parent);
        int used = 0;
        uint32_t got = sched_scatter_tree(&sh, 3, parent, &used);
        if (got != d[i].s || !used) {
            snprintf(why, sizeof why, "%dx%d: %u (construction used: %d), digest %u", d[i].m, d[i].n, got, used, d[i].s);
            ok = 0;
        }
        free(parent);
    }
    report("four-region construction (not the fallback) gives the digest's S for 4x4..32x32", ok, why);
}

/* ---------------------------------------------------------------------------------------- */
/* Negative tests: the checker must reject broken schedules. */

static sched_schedule manual(const sched_shape *sh, sched_model model, sched_collective coll, uint32_t root)
{
    sched_schedule s;
    memset(&s, 0, sizeof s);
    s.shape = *sh;
    s.model = model;
    s.coll = coll;
    s.root = root;
    s.algo = SCHED_ALGO_TSAY_WANG;
    return s;
}

static void add(sched_schedule *s, int step, int sx, int sy, int tx, int ty, int start, int hx, int hy, uint32_t piece)
{
    int32_t a[3] = {sx, sy, 0}, b[3] = {tx, ty, 0};
    sched_msg m;
    memset(&m, 0, sizeof m);
    m.step = (uint16_t)step;
    m.src = sched_node_id(&s->shape, a);
    m.dst = sched_node_id(&s->shape, b);
    m.start_dim = (uint8_t)start;
    m.hops[0] = (int16_t)hx;
    m.hops[1] = (int16_t)hy;
    m.piece = piece;
    sched_push(s, &m);
}

static void expect_reject(const char *name, sched_schedule *s, const char *needle)
{
    sched_finish(s);
    if (!needle || !*needle) { report(name, 0, "the test names no expected reason: any rejection would pass"); sched_free(s); return; }
    sched_check_result r;
    int ok = check(s, &r);
    char why[400];
    snprintf(why, sizeof why, "checker said %s", ok ? "ok" : r.error);
    report(name, !ok && strstr(r.error, needle) != 0, why);
    sched_free(s);
}

static void test_neg(void)
{
    sched_shape t3 = sched_shape_make(2, 3, 3, 1, 1), t5 = sched_shape_make(2, 5, 5, 1, 1), m4 = sched_shape_make(2, 4, 4, 1, 0);
    /* A correct hand-made broadcast on the 3x3 torus, to show the manual builder is right. */
    sched_schedule s = manual(&t3, SCHED_MODEL_WORMHOLE_ALLPORT, SCHED_COLL_BCAST, 0);
    add(&s, 1, 0, 0, 1, 0, 0, 1, 0, 0); add(&s, 1, 0, 0, 2, 0, 0, -1, 0, 0);
    add(&s, 1, 0, 0, 0, 1, 1, 0, 1, 0); add(&s, 1, 0, 0, 0, 2, 1, 0, -1, 0);
    add(&s, 2, 1, 0, 1, 1, 1, 0, 1, 0); add(&s, 2, 1, 0, 1, 2, 1, 0, -1, 0);
    add(&s, 2, 2, 0, 2, 1, 1, 0, 1, 0); add(&s, 2, 2, 0, 2, 2, 1, 0, -1, 0);
    sched_finish(&s);
    sched_check_result r;
    report("negative baseline: a correct hand-made 3x3 torus broadcast passes", check(&s, &r), r.error);
    sched_free(&s);

    /* Shared link: both step-2 routes cross (2,0)+x. */
    s = manual(&t5, SCHED_MODEL_WORMHOLE_ALLPORT, SCHED_COLL_BCAST, 0);
    add(&s, 1, 0, 0, 2, 0, 0, 2, 0, 0); add(&s, 1, 0, 0, 0, 1, 1, 0, 1, 0);
    add(&s, 2, 2, 0, 4, 0, 0, 2, 0, 0); add(&s, 2, 0, 1, 3, 0, 1, 3, -1, 0);
    expect_reject("checker rejects a directed link shared in one step", &s, "used twice");
    /* Missed node: a correct TW schedule without its last message. */
    char err[200];
    sched_generate(&s, &t5, SCHED_ALGO_TSAY_WANG, 7, err, sizeof err);
    s.count--;
    expect_reject("checker rejects a broadcast that misses a node", &s, "never receives");
    /* Duplicate: one message repeated in the last step. */
    sched_generate(&s, &t5, SCHED_ALGO_TSAY_WANG, 7, err, sizeof err);
    { sched_msg m = s.msgs[s.count - 1]; sched_push(&s, &m); }
    expect_reject("checker rejects a node reached twice", &s, "reached twice");
    /* Uninformed sender: a step-2 message moved to step 1. */
    sched_generate(&s, &t5, SCHED_ALGO_TSAY_WANG, 7, err, sizeof err);
    s.msgs[s.count - 1].step = 1;
    expect_reject("checker rejects a sender not yet informed", &s, "not yet informed");
    /* Port used twice: two sends on +x from the root in one step (different routes). */
    s = manual(&t5, SCHED_MODEL_WORMHOLE_ALLPORT, SCHED_COLL_BCAST, 0);
    add(&s, 1, 0, 0, 1, 0, 0, 1, 0, 0); add(&s, 1, 0, 0, 2, 1, 0, 2, 1, 0);
    expect_reject("checker rejects a send port used twice in one step", &s, "used twice");
    /* One-port: the root sends twice in one step (Cang-Wu model). */
    s = manual(&m4, SCHED_MODEL_WORMHOLE_ONEPORT, SCHED_COLL_BCAST, 0);
    add(&s, 1, 0, 0, 1, 0, 0, 1, 0, 0); add(&s, 1, 0, 0, 0, 1, 1, 0, 1, 0);
    expect_reject("checker rejects two sends of one node in a one-port step", &s, "one-port");
    /* Mesh: a route through a wrap link that a mesh does not have. */
    s = manual(&m4, SCHED_MODEL_WORMHOLE_ALLPORT, SCHED_COLL_BCAST, 0);
    add(&s, 1, 0, 0, 3, 0, 0, -1, 0, 0);
    expect_reject("checker rejects a route leaving the mesh", &s, "leaves the mesh");
    /* Route that does not end at the receiver. */
    s = manual(&t5, SCHED_MODEL_WORMHOLE_ALLPORT, SCHED_COLL_BCAST, 0);
    add(&s, 1, 0, 0, 2, 0, 0, 1, 0, 0);
    expect_reject("checker rejects a route that does not end at the receiver", &s, "does not end");
    /* Store-and-forward: a two-hop message. */
    s = manual(&t5, SCHED_MODEL_SAF_ALLPORT, SCHED_COLL_BCAST, 0);
    add(&s, 1, 0, 0, 2, 0, 0, 2, 0, 0);
    expect_reject("checker rejects a store-and-forward message of two hops", &s, "longer than one hop");
    /* Store-and-forward: one packet per link per slot (two scatter pieces on one link). */
    s = manual(&t3, SCHED_MODEL_SAF_ALLPORT, SCHED_COLL_SCATTER, 0);
    add(&s, 1, 0, 0, 1, 0, 0, 1, 0, 1); add(&s, 1, 0, 0, 1, 0, 0, 1, 0, 2);
    expect_reject("checker rejects two packets on one directed link in one slot", &s, "used twice");
    /* Store-and-forward: forwarding a piece before it has arrived (scatter slot moved up). */
    sched_generate(&s, &t5, SCHED_ALGO_SCATTER, 12, err, sizeof err);
    for (uint32_t i = 0; i < s.count; i++)
        if (s.msgs[i].src != 12) { s.msgs[i].step = 1; break; }
    expect_reject("checker rejects a packet sent before it is held", &s, "does not hold");
    /* Gather: the root never gets one item. */
    sched_generate(&s, &t5, SCHED_ALGO_GATHER, 12, err, sizeof err);
    for (uint32_t i = s.count; i-- > 0;)
        if (s.msgs[i].dst == 12) { s.msgs[i] = s.msgs[--s.count]; break; }
    expect_reject("checker rejects a gather that loses an item", &s, "never receives");
}

/* ---------------------------------------------------------------------------------------- */

static void test_table(void)
{
    sched_shape sh = sched_shape_make(2, 5, 5, 1, 1), other = sched_shape_make(2, 5, 6, 1, 1), mesh = sched_shape_make(2, 5, 5, 1, 0);
    sched_schedule s;
    char err[200];
    sched_generate(&s, &sh, SCHED_ALGO_TSAY_WANG, 6, err, sizeof err);
    /* Round trip every node: sends and receives equal the schedule's messages. */
    int ok = 1;
    char why[200] = "";
    uint8_t buf[4096];
    uint32_t sends = 0, recvs = 0;
    for (uint32_t v = 0; v < 25 && ok; v++) {
        int32_t w = sched_table_write(&s, v, buf, sizeof buf);
        sched_table t;
        int rc = w > 0 ? sched_table_open(buf, (uint32_t)w, &sh, v, &t) : w;
        if (rc != SCHED_TABLE_OK || (uint32_t)w != sched_table_bytes(&s, v)) {
            snprintf(why, sizeof why, "node %u: %s", v, sched_table_strerror(rc));
            ok = 0;
            break;
        }
        for (uint32_t i = 0; i < t.nsend; i++) {
            sched_table_send e;
            sched_table_get_send(&t, i, &e);
            int found = 0;
            for (uint32_t k = 0; k < s.count; k++) {
                const sched_msg *m = &s.msgs[k];
                if (m->src == v && m->dst == e.dst && m->step == e.step && sched_msg_send_port(m) == e.port &&
                    m->hops[0] == e.hops[0] && m->hops[1] == e.hops[1])
                    found = 1;
            }
            if (!found) { snprintf(why, sizeof why, "node %u send %u not in the schedule", v, i); ok = 0; }
            if (i && e.step < (sched_table_get_send(&t, i - 1, &e), e.step)) ok = 0;
            sends++;
        }
        for (uint32_t i = 0; i < t.nrecv; i++) {
            sched_table_recv e;
            sched_table_get_recv(&t, i, &e);
            int found = 0;
            for (uint32_t k = 0; k < s.count; k++) {
                const sched_msg *m = &s.msgs[k];
                if (m->dst == v && m->src == e.src && m->step == e.step && sched_msg_recv_port(m, 2) == e.port) found = 1;
            }
            if (!found) { snprintf(why, sizeof why, "node %u recv %u not in the schedule", v, i); ok = 0; }
            recvs++;
        }
    }
    report("tables round-trip: every node's sends/receives decode to the schedule's messages",
           ok && sends == s.count && recvs == s.count, why);
    int32_t w = sched_table_write(&s, 3, buf, sizeof buf);
    sched_table t;
    report("table for another shape (5x6) is refused", sched_table_open(buf, (uint32_t)w, &other, 3, &t) == SCHED_TABLE_ERR_SHAPE,
           "not refused");
    report("table for a mesh is refused on a torus", sched_table_open(buf, (uint32_t)w, &mesh, 3, &t) == SCHED_TABLE_ERR_SHAPE,
           "not refused");
    report("table of another node is refused", sched_table_open(buf, (uint32_t)w, &sh, 4, &t) == SCHED_TABLE_ERR_NODE,
           "not refused");
    report("truncated table is refused", sched_table_open(buf, (uint32_t)w - 1, &sh, 3, &t) == SCHED_TABLE_ERR_SHORT,
           "not refused");
    buf[SCHED_TABLE_HEADER_BYTES + 5] ^= 1;
    report("damaged table is refused (checksum)", sched_table_open(buf, (uint32_t)w, &sh, 3, &t) == SCHED_TABLE_ERR_CHECKSUM,
           "not refused");
    buf[SCHED_TABLE_HEADER_BYTES + 5] ^= 1;
    buf[4] = (uint8_t)(SCHED_TABLE_VERSION + 1u);   /* a version this library does not know */
    report("table of another format version is refused", sched_table_open(buf, (uint32_t)w, &sh, 3, &t) == SCHED_TABLE_ERR_VERSION,
           "not refused");
    buf[0] = 0;
    report("non-table bytes are refused (magic)", sched_table_open(buf, (uint32_t)w, &sh, 3, &t) == SCHED_TABLE_ERR_MAGIC,
           "not refused");
    report("writer refuses a buffer that is too small", sched_table_write(&s, 3, buf, 10) == SCHED_TABLE_ERR_SPACE,
           "wrote anyway");
    sched_free(&s);

    /* The transit flag (byte 3 of both records): te-a3 on the 4x4 torus relays pieces. */
    sched_shape t4 = sched_shape_make(2, 4, 4, 1, 1);
    ok = 1;
    strcpy(why, "");
    uint32_t relays_sent = 0, relays_recv = 0, relays_sched = 0;
    if (sched_coll_generate(&s, &t4, (int)SCHED_ALGO_TE_A3, 0, err, sizeof err) != 0) {
        snprintf(why, sizeof why, "te-a3: %.150s", err);
        ok = 0;
    }
    for (uint32_t k = 0; ok && k < s.count; k++) relays_sched += (s.msgs[k].reserved & SCHED_MSG_TRANSIT) != 0;
    for (uint32_t v = 0; v < 16 && ok; v++) {
        int32_t w2 = sched_table_write(&s, v, buf, sizeof buf);
        int rc = w2 > 0 ? sched_table_open(buf, (uint32_t)w2, &t4, v, &t) : w2;
        if (rc != SCHED_TABLE_OK) { snprintf(why, sizeof why, "node %u: %s", v, sched_table_strerror(rc)); ok = 0; break; }
        for (uint32_t i = 0; i < t.nsend && ok; i++) {
            sched_table_send e;
            sched_table_get_send(&t, i, &e);
            int found = 0;
            for (uint32_t k = 0; k < s.count; k++) {
                const sched_msg *m = &s.msgs[k];
                if (m->src == v && m->dst == e.dst && m->step == e.step && m->piece == e.piece)
                    found = (m->reserved & SCHED_MSG_TRANSIT) == e.flags;
            }
            if (!found) { snprintf(why, sizeof why, "node %u send %u: flags %u wrong", v, i, e.flags); ok = 0; }
            relays_sent += e.flags != 0;
        }
        for (uint32_t i = 0; i < t.nrecv && ok; i++) {
            sched_table_recv e;
            sched_table_get_recv(&t, i, &e);
            int found = 0;
            for (uint32_t k = 0; k < s.count; k++) {
                const sched_msg *m = &s.msgs[k];
                if (m->dst == v && m->src == e.src && m->step == e.step && m->piece == e.piece)
                    found = (m->reserved & SCHED_MSG_TRANSIT) == e.flags;
            }
            if (!found) { snprintf(why, sizeof why, "node %u recv %u: flags %u wrong", v, i, e.flags); ok = 0; }
            relays_recv += e.flags != 0;
        }
    }
    if (ok && (relays_sched == 0 || relays_sent != relays_sched || relays_recv != relays_sched)) {
        snprintf(why, sizeof why, "relays: schedule %u, send records %u, receive records %u", relays_sched,
                 relays_sent, relays_recv);
        ok = 0;
    }
    report("tables carry the transit flag (te-a3 4x4 torus: every relay marked in its send and receive record)", ok,
           why);
    sched_free(&s);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "";
    if (!*only || !strcmp(only, "tw")) test_tw();
    if (!*only || !strcmp(only, "cw")) test_cw();
    if (!*only || !strcmp(only, "saf")) test_saf();
    if (!*only || !strcmp(only, "scatter")) test_scatter();
    if (!*only || !strcmp(only, "neg")) test_neg();
    if (!*only || !strcmp(only, "table")) test_table();
    return failures ? 1 : 0;
}
