/* SPDX-License-Identifier: ISC */
/* sched_bench: sweeps every algorithm over many shapes, checks each schedule and prints a
 * table per algorithm (shape, steps, lower bound, paper bound, messages, total distance,
 * generation time, table bytes per node); writes the same rows as JSON.
 * Usage: sched_bench OUT.json */
#define _POSIX_C_SOURCE 199309L
#include "gen/sched_gen.h"
#include "base/sched_base.h"
#include "check/sched_check.h"
#include "out/sched_out.h"
#include "bcast/sched_bcast.h"
#include "exchange/sched_exchange.h"
#include "dynamic/sched_dynsim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched.h"
#include "sched_coll.h"
#include "sched_table.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static FILE *json;
static int first_row = 1, failures = 0;

static uint32_t lower_bound(const sched_schedule *s)
{
    if (sched_coll_is_algo((int)s->algo)) return sched_coll_lower_bound(s);
    if (s->algo == SCHED_ALGO_BCAST_EDST) return sched_edst_depth_bound(&s->shape, s->root);
    if (s->model == SCHED_MODEL_WORMHOLE_ALLPORT || s->algo == SCHED_ALGO_BCAST_BINOMIAL)
        return sched_lb_allport_bcast(&s->shape);
    if (s->model == SCHED_MODEL_WORMHOLE_ONEPORT) return sched_lb_oneport_bcast(&s->shape);
    if (s->coll == SCHED_COLL_BCAST) return sched_eccentricity(&s->shape, s->root);
    return sched_lb_scatter(&s->shape, s->root);
}

static void row(const sched_shape *sh, sched_algo algo, uint32_t root, int tables)
{
    sched_schedule s;
    char err[256], shape[40], rt[40];
    sched_shape_text(sh, shape, sizeof shape);
    sched_coord_text(sh, root, rt, sizeof rt);
    double t0 = now_ms();
    if (sched_generate(&s, sh, algo, root, err, sizeof err)) {
        printf("  %-10s %-5s root %-8s  generation failed: %s\n", shape, sh->torus ? "torus" : "mesh", rt, err);
        failures++;
        return;
    }
    double gen_ms = now_ms() - t0;
    size_t wb = sched_check_workspace_bytes(&s);
    void *ws = malloc(wb);
    sched_check_result r;
    memset(&r, 0, sizeof r);
    t0 = now_ms();
    if (ws) sched_check(&s, ws, wb, &r);
    double check_ms = now_ms() - t0;
    free(ws);
    if (!r.ok) failures++;
    uint32_t tmax = 0;
    double tmean = 0;
    if (tables) {
        /* per-node table sizes: count sends and receives per node in one pass */
        uint32_t n = sched_nodes(sh);
        uint32_t *cnt = calloc(2u * n, sizeof *cnt);
        if (cnt) {
            for (uint32_t i = 0; i < s.count; i++) { cnt[2 * s.msgs[i].src]++; cnt[2 * s.msgs[i].dst + 1]++; }
            uint64_t sum = 0;
            for (uint32_t v = 0; v < n; v++) {
                uint32_t b = SCHED_TABLE_HEADER_BYTES + cnt[2 * v] * SCHED_TABLE_SEND_BYTES + cnt[2 * v + 1] * SCHED_TABLE_RECV_BYTES;
                sum += b;
                if (b > tmax) tmax = b;
            }
            tmean = (double)sum / n;
            free(cnt);
        }
    }
    uint32_t lb = lower_bound(&s), bound = sched_expected_steps(sh, algo, root), paper = sched_paper_steps(sh, algo, root);
    char bound_text[12], paper_text[12];   /* "-" where the algorithm has no such bound */
    snprintf(bound_text, sizeof bound_text, bound ? "%u" : "-", bound);
    snprintf(paper_text, sizeof paper_text, paper ? "%u" : "-", paper);
    printf("  %-10s %-5s root %-8s steps %4u  bound %4s  paper %4s  lower %4u  msgs %7u  dist %9llu  maxlink %3u  "
           "gen %8.2f ms  check %7.2f ms",
           shape, sh->torus ? "torus" : "mesh", rt, r.steps, bound_text, paper_text, lb, s.count,
           (unsigned long long)r.total_distance, r.max_link_load, gen_ms, check_ms);
    if (tables) printf("  table/node max %5u mean %7.1f B", tmax, tmean);
    printf("%s\n", r.ok ? "" : "  CHECK FAILED");
    if (!r.ok) printf("    %s\n", r.error);
    fprintf(json,
            "%s\n  {\"algo\": \"%s\", \"shape\": \"%s\", \"torus\": %s, \"root\": \"%s\", \"model\": \"%s\", "
            "\"check\": \"%s\", \"steps\": %u, \"bound\": %u, \"paper_bound\": %u, \"lower_bound\": %u, "
            "\"messages\": %u, \"total_distance\": %llu, \"max_path\": %u, \"max_link_load\": %u, "
            "\"gen_ms\": %.3f, \"check_ms\": %.3f",
            first_row ? "" : ",", sched_algo_name(algo), shape, sh->torus ? "true" : "false", rt,
            sched_model_name(s.model), r.ok ? "pass" : "fail", r.steps, bound, paper, lb, s.count,
            (unsigned long long)r.total_distance, r.max_path, r.max_link_load, gen_ms, check_ms);
    if (tables) fprintf(json, ", \"table_bytes_max\": %u, \"table_bytes_mean\": %.1f", tmax, tmean);
    fprintf(json, "}");
    first_row = 0;
    sched_free(&s);
}

static int with_tables(const sched_shape *sh)
{
    return sh->dims == 2 && sh->side[0] == sh->side[1] && (sh->side[0] == 8 || sh->side[0] == 16 || sh->side[0] == 32);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: sched_bench OUT.json\n"); return 2; }
    json = fopen(argv[1], "w");
    if (!json) { perror(argv[1]); return 1; }
    fprintf(json, "{\"schedules\": [");

    printf("== tsay-wang: all-port wormhole broadcast, n^d torus (bound = digest B4, paper = abstract)\n");
    static const int tw2[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 24, 25, 26, 32, 48, 49, 50, 64, 125, 126};
    for (unsigned i = 0; i < sizeof tw2 / sizeof tw2[0]; i++) {
        sched_shape sh = sched_shape_make(2, tw2[i], tw2[i], 1, 1);
        row(&sh, SCHED_ALGO_TSAY_WANG, 0, with_tables(&sh));
    }
    static const int tw3[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 16, 24, 25, 49};
    for (unsigned i = 0; i < sizeof tw3 / sizeof tw3[0]; i++) {
        sched_shape sh = sched_shape_make(3, tw3[i], tw3[i], tw3[i], 1);
        row(&sh, SCHED_ALGO_TSAY_WANG, 0, 0);
    }

    for (int a = 0; a < 2; a++) {
        sched_algo algo = a ? SCHED_ALGO_CANG_WU_DP : SCHED_ALGO_CANG_WU;
        printf("== %s: one-port wormhole broadcast, 2^k x 2^k (dist = total communication distance; corner and eye roots)\n",
               sched_algo_name(algo));
        for (int n = 2; n <= (a ? 64 : 256); n *= 2) {
            sched_shape sh = sched_shape_make(2, n, n, 1, 0);
            int k = 0;
            while ((1 << k) < n) k++;
            int ak = ((1 << k) - ((k & 1) ? -1 : 1)) / 3, p = (n - 1 - ak) / 2;
            row(&sh, algo, 0, with_tables(&sh));
            row(&sh, algo, (uint32_t)(p + p * n), 0);
            printf("     digest: corner %llu, eye %llu\n", (unsigned long long)sched_cw_corner_tcd((unsigned)k),
                   (unsigned long long)sched_cw_eye_tcd((unsigned)k));
        }
    }

    printf("== saf-bcast: all-port store-and-forward broadcast tree (bound = eccentricity)\n");
    for (int t = 0; t < 2; t++) {
        static const int sides[] = {2, 3, 4, 5, 7, 8, 16, 25, 32, 49, 64};
        for (unsigned i = 0; i < sizeof sides / sizeof sides[0]; i++) {
            sched_shape sh = sched_shape_make(2, sides[i], sides[i], 1, t);
            row(&sh, SCHED_ALGO_SAF_BCAST, 0, with_tables(&sh));
        }
        for (int n = 2; n <= 8; n += 3) {
            sched_shape sh = sched_shape_make(3, n, n, n, t);
            row(&sh, SCHED_ALGO_SAF_BCAST, 0, 0);
        }
    }

    for (int g = 0; g < 2; g++) {
        sched_algo algo = g ? SCHED_ALGO_GATHER : SCHED_ALGO_SCATTER;
        printf("== %s: all-port store-and-forward, balanced trees (bound = ceil((N-1)/deg), cut-aware)\n",
               sched_algo_name(algo));
        for (int t = 1; t >= 0; t--) {
            static const int sides[] = {2, 3, 4, 5, 6, 7, 8, 16, 25, 32, 49};
            for (unsigned i = 0; i < sizeof sides / sizeof sides[0]; i++) {
                sched_shape sh = sched_shape_make(2, sides[i], sides[i], 1, t);
                row(&sh, algo, (uint32_t)(sched_nodes(&sh) / 2), with_tables(&sh));
            }
            for (int n = 2; n <= 8; n += 2) {
                sched_shape sh = sched_shape_make(3, n, n, n, t);
                row(&sh, algo, 0, 0);
            }
        }
    }
    printf("== mnb-opt: allgather by one tree translated to every node, torus (bound = lower = "
           "max(ceil((N-1)/2d), diameter); [BeT89]: N/4 or (N-1)/4 on p x p)\n");
    for (int p = 3; p <= 16; p++) {
        sched_shape sh = sched_shape_make(2, p, p, 1, 1);
        row(&sh, SCHED_ALGO_MNB_OPT, 0, with_tables(&sh));
    }
    static const int opt_other[][3] = {{4, 8, 1}, {5, 7, 1}, {6, 10, 1}, {12, 7, 1}, {3, 16, 1}, {32, 32, 1}, {3, 3, 3}, {4, 4, 4},
                                       {5, 5, 5}, {6, 6, 6}, {8, 8, 8}, {2, 6, 6}, {4, 4, 8}};
    for (unsigned i = 0; i < sizeof opt_other / sizeof opt_other[0]; i++) {
        int d3 = opt_other[i][2] > 1;
        sched_shape sh = sched_shape_make(d3 ? 3 : 2, opt_other[i][0], opt_other[i][1], opt_other[i][2], 1);
        row(&sh, SCHED_ALGO_MNB_OPT, 0, with_tables(&sh));
    }

    printf("== bcast-edst: store-and-forward broadcast over 2d (mesh: d) arc-disjoint spanning trees, one chunk "
           "per tree (steps = deepest tree; bound = lower = 1 + eccentricity of a root neighbour without the root, "
           "mesh: eccentricity of the root)\n");
    for (int t = 1; t >= 0; t--) {
        static const int sides[] = {3, 4, 5, 6, 7, 8, 12, 16, 24, 32};
        for (unsigned i = 0; i < sizeof sides / sizeof sides[0]; i++) {
            sched_shape sh = sched_shape_make(2, sides[i], sides[i], 1, t);
            row(&sh, SCHED_ALGO_BCAST_EDST, t ? 0 : sched_nodes(&sh) / 2u, with_tables(&sh));
        }
        for (int n = 3; n <= 8; n++) {
            sched_shape sh = sched_shape_make(3, n, n, n, t);
            row(&sh, SCHED_ALGO_BCAST_EDST, 0, 0);
        }
    }

    printf("== bcast-binomial: binomial tree over relative ids, dimension-order worms sharing links "
           "(steps = rounds; bound ceil(log2 N); lower = ceil(log_{2d+1} N))\n");
    for (int t = 1; t >= 0; t--) {
        static const int sides[] = {4, 5, 8, 16, 32};
        for (unsigned i = 0; i < sizeof sides / sizeof sides[0]; i++) {
            sched_shape sh = sched_shape_make(2, sides[i], sides[i], 1, t);
            row(&sh, SCHED_ALGO_BCAST_BINOMIAL, 0, with_tables(&sh));
        }
        sched_shape sh = sched_shape_make(3, 4, 4, 4, t);
        row(&sh, SCHED_ALGO_BCAST_BINOMIAL, 0, 0);
    }

    printf("== allgather-ring: snake Hamiltonian cycle, one hop, N-1 slots (lower = max(ceil((N-1)/min degree), "
           "diameter))\n");
    for (int t = 1; t >= 0; t--) {
        static const int sides[] = {4, 8, 16};
        for (unsigned i = 0; i < sizeof sides / sizeof sides[0]; i++) {
            sched_shape sh = sched_shape_make(2, sides[i], sides[i], 1, t);
            row(&sh, SCHED_ALGO_ALLGATHER_RING, 0, with_tables(&sh));
        }
        sched_shape sh = sched_shape_make(3, 4, 4, 4, t);
        row(&sh, SCHED_ALGO_ALLGATHER_RING, 0, 0);
    }

    printf("== alltoall-pairwise: N-1 rounds, one dimension-order worm per node per round, sharing links "
           "(lower = ceil((N-1)/2d) rounds of one worm per port)\n");
    for (int t = 1; t >= 0; t--) {
        static const int sides[] = {4, 8, 16};
        for (unsigned i = 0; i < sizeof sides / sizeof sides[0]; i++) {
            sched_shape sh = sched_shape_make(2, sides[i], sides[i], 1, t);
            row(&sh, SCHED_ALGO_ALLTOALL_PAIRWISE, 0, with_tables(&sh));
        }
        sched_shape sh = sched_shape_make(3, 4, 4, 4, t);
        row(&sh, SCHED_ALGO_ALLTOALL_PAIRWISE, 0, 0);
    }

    fprintf(json, "\n], \"failures\": %d}\n", failures);
    fclose(json);
    printf("sched_bench: %s; %d schedule(s) failed the checker\n", argv[1], failures);
    return failures ? 1 : 0;
}
