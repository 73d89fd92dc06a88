/* SPDX-License-Identifier: ISC */
/* Benchmark of the issue-5 collectives (make bench-sched-exchange):
 *  - slots of every algorithm against its lower bound and the digest's stated bound, each
 *    schedule proved by the checker;
 *  - dynamic broadcast: mean and 95th-percentile reception delay against load rho on the 8x8
 *    torus (STAR) and the 8x8 mesh (ARC, interior load), FIFO, 2-class priority and
 *    more-descendants-first queues.
 * Usage: sched_coll_bench JSON_FILE SVG_FILE. Prints tables on stdout. */
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

#include "sched.h"
#include "sched_coll.h"

static void sname(const sched_shape *s, char *buf, size_t len)
{
    if (s->dims == 3) snprintf(buf, len, "%ux%ux%u %s", s->side[0], s->side[1], s->side[2], s->torus ? "torus" : "mesh");
    else snprintf(buf, len, "%ux%u %s", s->side[0], s->side[1], s->torus ? "torus" : "mesh");
}

static int first_row = 1;

static int checked(const sched_schedule *s, const uint8_t *sources, sched_check_result *r)
{
    size_t bytes = sched_check_coll_workspace_bytes(s);
    void *ws = malloc(bytes);
    if (!ws) return 0;
    int ok = sched_check_coll(s, sources, ws, bytes, r);
    free(ws);
    return ok;
}

/* One row: time in packet slots (slots / parts), lower bound, digest bound (packet slots). */
static void row(FILE *js, const char *algo, const sched_shape *sh, uint32_t m, double time, double lb, double bound,
                uint32_t prefix_steps, int ok, const char *note)
{
    char sn[40];
    sname(sh, sn, sizeof sn);
    printf("%-11s %-16s %5u %9.2f %9.2f %9.2f %6.2f %6u  %s%s\n", algo, sn, m, time, lb, bound, lb > 0 ? time / lb : 0.0,
           prefix_steps, ok ? "checked" : "CHECK FAILED", note);
    fprintf(js, "%s    {\"algorithm\": \"%s\", \"shape\": \"%s\", \"sources\": %u, \"slots\": %.4f, \"lower_bound\": %.4f, "
                "\"digest_bound\": %.4f, \"ratio_to_lower_bound\": %.4f, \"prefix_control_steps\": %u, \"checked\": %s}",
            first_row ? "" : ",\n", algo, sn, m, time, lb, bound, lb > 0 ? time / lb : 0.0, prefix_steps, ok ? "true" : "false");
    first_row = 0;
}

static void bench_generated(FILE *js, int algo, const sched_shape *sh)
{
    sched_schedule s;
    char err[256];
    if (sched_generate(&s, sh, (sched_algo)algo, 0, err, sizeof err)) { fprintf(stderr, "%s\n", err); return; }
    sched_check_result r;
    int ok = checked(&s, 0, &r);
    const uint32_t parts = sched_coll_parts(&s), n = sched_nodes(sh);
    double lb;
    if (algo == 32 || algo == 33 || algo == 40 || algo == 41) {
        uint32_t mindeg = sh->torus ? 2u * sh->dims : sh->dims;
        lb = algo == 33 ? (double)(n - 1u) / mindeg : (double)sched_lb_mnb(sh);
    } else if (algo == 36) lb = sched_lb_te_status(sh);
    else lb = sched_lb_te_cut(sh);
    double bound = (double)sched_coll_expected_slots(sh, algo, 0) / parts;
    row(js, sched_coll_algo_name(algo), sh, n, (double)r.steps / parts, lb, bound, 0, ok,
        algo == 33 ? "  (mini-slots / d)" : algo == 41 ? "  (STAR rule, all nodes at once, 2-class queues)" : "");
    sched_free(&s);
}

static void bench_partial(FILE *js, int split, const sched_shape *sh, uint32_t m, uint32_t seed)
{
    const uint32_t n = sched_nodes(sh);
    uint8_t *src = calloc(n, 1);
    uint32_t st = seed;
    for (uint32_t k = 0; k < m;) {
        st = st * 1103515245u + 12345u;
        uint32_t v = (st >> 8) % n;
        if (!src[v]) { src[v] = 1; k++; }
    }
    sched_schedule s;
    char err[256];
    uint32_t prefix = 0, rank_errors = 0;
    if (sched_sim_pmnb(&s, sh, src, split, &prefix, &rank_errors, err, sizeof err)) { fprintf(stderr, "%s\n", err); free(src); return; }
    sched_check_result r;
    int ok = checked(&s, src, &r) && rank_errors == 0;
    const uint32_t parts = split ? sh->dims : 1u, deg = sh->torus ? 2u * sh->dims : sh->dims;
    double lb = (double)(m - 1u) / deg;
    double bound = (double)sched_coll_expected_slots(sh, split ? 38 : 37, m) / parts;
    row(js, split ? "pmnb-split" : "pmnb", sh, m, (double)s.nsteps / parts, lb, bound, prefix, ok,
        "  (+ prefix steps x t_p)");
    sched_free(&s);
    free(src);
}

typedef struct {
    const char *label;
    const char *colour;
    int npts;
    double rho[10], mean[10], p95[10];
    int sat[10];
} series;

static void svg_plot(const char *path, series *ser, int nser)
{
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "sched_coll_bench: cannot write %s\n", path); return; }
    const double W = 760, H = 460, L = 70, R = 190, T = 40, B = 60;
    double ymax = 10;
    for (int s = 0; s < nser; s++)
        for (int k = 0; k < ser[s].npts; k++) if (!ser[s].sat[k] && ser[s].p95[k] > ymax) ymax = ser[s].p95[k];
    ymax = ((int)(ymax / 10.0) + 1) * 10.0;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H);
    fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"15\">Dynamic broadcast on 8x8: reception delay vs load (solid: mean, dashed: 95th percentile)</text>\n", L);
    const double pw = W - L - R, ph = H - T - B;
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T + ph, L + pw, T + ph);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T, L, T + ph);
    for (int k = 0; k <= 10; k++) {
        double x = L + pw * k / 10.0;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", x, T, x, T + ph);
        fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.1f</text>\n", x, T + ph + 16, k / 10.0);
    }
    for (int k = 0; k <= 5; k++) {
        double y = T + ph - ph * k / 5.0;
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, y, L + pw, y);
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", L - 6, y + 4, ymax * k / 5.0);
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">load rho</text>\n", L + pw / 2, H - 18);
    fprintf(f, "<text x=\"18\" y=\"%.0f\" transform=\"rotate(-90 18 %.0f)\" text-anchor=\"middle\">reception delay (slots)</text>\n",
            T + ph / 2, T + ph / 2);
    for (int s = 0; s < nser; s++) {
        for (int which = 0; which < 2; which++) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", ser[s].colour,
                    which ? " stroke-dasharray=\"6,4\"" : "");
            for (int k = 0; k < ser[s].npts; k++) {
                if (ser[s].sat[k]) continue;
                double v = which ? ser[s].p95[k] : ser[s].mean[k];
                fprintf(f, "%.1f,%.1f ", L + pw * ser[s].rho[k], T + ph - ph * v / ymax);
            }
            fprintf(f, "\"/>\n");
        }
        for (int k = 0; k < ser[s].npts; k++)
            if (!ser[s].sat[k])
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", L + pw * ser[s].rho[k],
                        T + ph - ph * ser[s].mean[k] / ymax, ser[s].colour);
        double ly = T + 20 + 22 * s;
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"3\"/>\n", L + pw + 12,
                ly, L + pw + 36, ly, ser[s].colour);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", L + pw + 42, ly + 4, ser[s].label);
    }
    fprintf(f, "</svg>\n");
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: sched_coll_bench JSON_FILE SVG_FILE\n"); return 2; }
    FILE *js = fopen(argv[1], "w");
    if (!js) { fprintf(stderr, "sched_coll_bench: cannot write %s\n", argv[1]); return 1; }
    fprintf(js, "{\n  \"unit\": \"packet slots (split schedules: mini-slots / d)\",\n  \"schedules\": [\n");
    printf("Issue-5 collectives: slots (packet units) against lower bounds; every schedule proved by the checker\n");
    printf("%-11s %-16s %5s %9s %9s %9s %6s %6s\n", "algorithm", "shape", "M", "slots", "lower_bd", "digest_bd", "ratio", "prefix");
    for (int torus = 1; torus >= 0; torus--)
        for (int p = 3; p <= 10; p++) {
            sched_shape sh = sched_shape_make(2, p, p, 1, torus);
            bench_generated(js, 32, &sh);
            bench_generated(js, 40, &sh);
            bench_generated(js, 33, &sh);
            if (torus) bench_generated(js, 41, &sh);
        }
    for (int torus = 1; torus >= 0; torus--)
        for (int p = 3; p <= 5; p++) {
            sched_shape sh = sched_shape_make(3, p, p, p, torus);
            bench_generated(js, 32, &sh);
            bench_generated(js, 40, &sh);
            bench_generated(js, 33, &sh);
        }
    static const int part[][4] = {{2, 8, 1, 0}, {2, 8, 0, 0}, {2, 5, 1, 0}, {3, 4, 1, 0}};
    for (unsigned i = 0; i < sizeof part / sizeof part[0]; i++) {
        sched_shape sh = sched_shape_make(part[i][0], part[i][1], part[i][1], part[i][1], part[i][2]);
        uint32_t n = sched_nodes(&sh), ms[4] = {1, n / 4, n / 2, n};
        for (int k = 0; k < 4; k++)
            for (int split = 0; split <= 1; split++) bench_partial(js, split, &sh, ms[k], 77u + (uint32_t)k);
    }
    for (int torus = 1; torus >= 0; torus--)
        for (int n = 3; n <= 12; n++) {
            sched_shape sh = sched_shape_make(2, n, n, 1, torus);
            bench_generated(js, 34, &sh);
        }
    static const int a2[][5] = {{2, 4, 8, 1, 1}, {2, 3, 5, 1, 1}, {2, 6, 8, 1, 1}, {2, 4, 8, 1, 0}, {2, 5, 7, 1, 0},
                                {2, 8, 8, 1, 1}, {3, 4, 4, 4, 1}, {3, 3, 4, 5, 1}, {3, 4, 4, 4, 0}};
    for (unsigned i = 0; i < sizeof a2 / sizeof a2[0]; i++) {
        sched_shape sh = sched_shape_make(a2[i][0], a2[i][1], a2[i][2], a2[i][3], a2[i][4]);
        bench_generated(js, 35, &sh);
    }
    static const int sp[][4] = {{2, 4, 4, 1}, {2, 5, 5, 1}, {2, 8, 8, 1}, {2, 4, 6, 1}, {3, 4, 4, 4}, {3, 3, 3, 3}};
    for (unsigned i = 0; i < sizeof sp / sizeof sp[0]; i++) {
        sched_shape sh = sched_shape_make(sp[i][0], sp[i][1], sp[i][2], sp[i][3], 1);
        bench_generated(js, 36, &sh);
    }
    static const int pe[][2] = {{4, 16}, {8, 1}, {8, 4}, {8, 16}, {8, 32}, {8, 64}};
    for (unsigned i = 0; i < sizeof pe / sizeof pe[0]; i++) {
        sched_shape sh = sched_shape_make(2, pe[i][0], pe[i][0], 1, 0);
        const uint32_t n = sched_nodes(&sh), m = (uint32_t)pe[i][1];
        uint8_t *src = calloc(n, 1);
        uint32_t st = 991u + i;
        for (uint32_t k = 0; k < m;) {
            st = st * 1103515245u + 12345u;
            uint32_t v = (st >> 8) % n;
            if (!src[v]) { src[v] = 1; k++; }
        }
        sched_schedule s;
        char err[256], note[96];
        if (sched_sim_pe(&s, &sh, src, err, sizeof err) == 0) {
            sched_check_result r;
            int ok = checked(&s, src, &r);
            snprintf(note, sizeof note, "  (lower bound for this set; worst-case set %u)", sched_pe_lb_worst(&sh, m));
            row(js, "pe", &sh, m, r.steps, sched_pe_lb_placement(&sh, src), sched_pe_bound(&sh, m), 0, ok, note);
            sched_free(&s);
        } else fprintf(stderr, "%s\n", err);
        free(src);
    }
    fprintf(js, "\n  ],\n  \"dynamic_broadcast\": [\n");

    printf("\nDynamic broadcast on 8x8, reception delay in slots (warm-up 500, 6000 measured slots, seed 1)\n");
    printf("%-18s %-6s %5s %8s %8s %8s %8s %6s\n", "scheme", "queue", "rho", "mean", "p95", "bcast", "util", "maxq");
    series ser[6] = {{"torus STAR FIFO", "#1f77b4", 0, {0}, {0}, {0}, {0}}, {"torus STAR prio", "#d62728", 0, {0}, {0}, {0}, {0}},
                     {"mesh ARC FIFO", "#2ca02c", 0, {0}, {0}, {0}, {0}}, {"mesh ARC prio", "#9467bd", 0, {0}, {0}, {0}, {0}},
                     {"torus STAR desc", "#ff7f0e", 0, {0}, {0}, {0}, {0}}, {"mesh ARC desc", "#8c564b", 0, {0}, {0}, {0}, {0}}};
    static const double rho_torus[] = {0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95};
    static const double rho_mesh[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.55, 0.6, 0.7};
    int first = 1;
    for (int s = 0; s < 6; s++) {
        const int mesh = s == 2 || s == 3 || s == 5;
        const int disc = s >= 4 ? SCHED_DYN_DESC : ((s % 2) ? SCHED_DYN_PRIO2 : SCHED_DYN_FIFO);
        static const char *const qname[] = {"fifo", "prio2", "desc"}, *const qjson[] = {"fifo", "priority-2class", "descendants-first"};
        sched_shape sh = sched_shape_make(2, 8, 8, 1, !mesh);
        const double *rhos = mesh ? rho_mesh : rho_torus;
        int nr = mesh ? 8 : 7;
        for (int k = 0; k < nr; k++) {
            sched_dyn_stats st;
            char err[256] = "";
            if (sched_dyn_simulate(&sh, disc, rhos[k], 500, 6000, 1, &st, err, sizeof err)) {
                fprintf(stderr, "sched_coll_bench: %s\n", err);
                fclose(js);
                return 1;
            }
            series *se = &ser[s];
            se->rho[se->npts] = rhos[k];
            se->mean[se->npts] = st.mean_delay;
            se->p95[se->npts] = st.p95_delay;
            se->sat[se->npts] = st.saturated;
            se->npts++;
            if (st.saturated)
                printf("%-18s %-6s %5.2f %8s\n", mesh ? "8x8 mesh ARC" : "8x8 torus STAR", qname[disc], rhos[k], "saturated");
            else
                printf("%-18s %-6s %5.2f %8.2f %8.2f %8.2f %8.3f %6u\n", mesh ? "8x8 mesh ARC" : "8x8 torus STAR",
                       qname[disc], rhos[k], st.mean_delay, st.p95_delay, st.mean_broadcast_delay,
                       st.link_utilisation, st.max_queue);
            fprintf(js, "%s    {\"scheme\": \"%s\", \"shape\": \"8x8 %s\", \"queue\": \"%s\", \"rho\": %.3f, \"saturated\": %s, "
                        "\"mean_reception_delay\": %.4f, \"p95_reception_delay\": %.4f, \"mean_broadcast_delay\": %.4f, "
                        "\"link_utilisation\": %.4f, \"max_queue\": %u, \"measured_packets\": %u}",
                    first ? "" : ",\n", mesh ? "ARC" : "STAR", mesh ? "mesh" : "torus", qjson[disc],
                    rhos[k], st.saturated ? "true" : "false", st.mean_delay, st.p95_delay, st.mean_broadcast_delay,
                    st.link_utilisation, st.max_queue, st.packets);
            first = 0;
        }
    }
    fprintf(js, "\n  ]\n}\n");
    fclose(js);
    svg_plot(argv[2], ser, 6);
    printf("\nwrote %s and %s\n", argv[1], argv[2]);
    return 0;
}
