/* SPDX-License-Identifier: ISC */
/* schedgen: build, check, dump, draw and tabulate collective schedules (schedgen_run, after
 * schedgen_args.c has read the command line). Usage: schedgen --help, or tools/sched/README.md. */
#define _POSIX_C_SOURCE 200809L   /* stat(): a partial output is removed only if a regular file */
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "sched_coll.h"
#include "sched_table.h"
#include "base/sched_base.h"
#include "bcast/sched_bcast.h"
#include "check/sched_check.h"
#include "exchange/sched_exchange.h"
#include "gen/sched_gen.h"
#include "out/sched_out.h"
#include "schedgen/schedgen.h"

/* A bound as printed: its value, or "-" where there is none (0). */
static void figure_text(uint32_t value, char *buf, size_t len)
{
    if (value) snprintf(buf, len, "%lu", (unsigned long)value);
    else snprintf(buf, len, "-");
}

static int read_file(const char *path, uint8_t **data, uint32_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        if (cap >= (size_t)1 << 30) { free(buf); buf = 0; errno = EFBIG; break; }
        uint8_t *g = realloc(buf, cap * 2);
        if (!g) { free(buf); buf = 0; break; }
        buf = g;
        cap *= 2;
    }
    int err = ferror(f) ? errno : 0;   /* e.g. EISDIR: a folder opens, but does not read */
    fclose(f);
    if (buf && err) { free(buf); buf = 0; errno = err; }
    if (!buf) return -1;
    *data = buf;
    *len = (uint32_t)n;
    return 0;
}

/* --verify-tables: FILE must hold the tables of nodes 0 .. N-1 of `shape`, in this order, each
 * valid (magic, version, shape, node, layout, checksum), and nothing after them. Returns the
 * exit status: 0, or 1 with one line on stderr saying what is wrong. */
static int verify_tables(const char *path, const sched_shape *shape)
{
    static const char redo[] = "regenerate it with schedgen --tables";
    uint8_t *data;
    uint32_t len, off = 0, n = sched_nodes(shape);
    if (read_file(path, &data, &len)) {
        fprintf(stderr, "schedgen: cannot read %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (len == 0) {
        fprintf(stderr, "schedgen: %s is empty, not a tables file; %s\n", path, redo);
        free(data);
        return 1;
    }
    for (uint32_t v = 0; v < n; v++) {
        sched_table t;
        char at[40];
        sched_coord_text(shape, v, at, sizeof at);
        if (off == len) {
            fprintf(stderr, "schedgen: %s is truncated: it ends after the tables of %lu of the %lu nodes; %s\n", path,
                    (unsigned long)v, (unsigned long)n, redo);
            free(data);
            return 1;
        }
        int rc = sched_table_open(data + off, len - off, shape, v, &t);
        if (rc == SCHED_TABLE_OK) {
            off += t.total_bytes;
            continue;
        }
        if (rc == SCHED_TABLE_ERR_MAGIC && v == 0)
            fprintf(stderr, "schedgen: %s is not a tables file (no table magic \"RVST\" at its start); give a file "
                            "written by schedgen --tables\n", path);
        else if (rc == SCHED_TABLE_ERR_SHORT)
            fprintf(stderr, "schedgen: %s is truncated: it ends inside the table of node %lu (%s), at byte %lu; %s\n",
                    path, (unsigned long)v, at, (unsigned long)len, redo);
        else if (rc == SCHED_TABLE_ERR_NODE)
            fprintf(stderr, "schedgen: %s: the table at byte %lu belongs to node %lu, not to node %lu (%s): tables "
                            "missing or out of order; %s\n", path, (unsigned long)off, (unsigned long)t.node,
                    (unsigned long)v, at, redo);
        else if (rc == SCHED_TABLE_ERR_SHAPE && !sched_shape_problem(&t.shape)) {
            char built[40], want[40];
            sched_shape_text(&t.shape, built, sizeof built);
            sched_shape_text(shape, want, sizeof want);
            fprintf(stderr, "schedgen: %s: node %lu: table built for another machine shape, the %s %s (this is the "
                            "%s %s); regenerate it with schedgen --shape %s --%s ... --tables, or check it with "
                            "--shape %s --%s\n", path, (unsigned long)v, built, t.shape.torus ? "torus" : "mesh", want,
                    shape->torus ? "torus" : "mesh", want, shape->torus ? "torus" : "mesh", built,
                    t.shape.torus ? "torus" : "mesh");
        }
        else if (rc == SCHED_TABLE_ERR_SHAPE || rc == SCHED_TABLE_ERR_VERSION)
            fprintf(stderr, "schedgen: %s: node %lu: %s\n", path, (unsigned long)v, sched_table_strerror(rc));
        else
            fprintf(stderr, "schedgen: %s: node %lu (%s), table at byte %lu: %s%s; %s\n", path, (unsigned long)v, at,
                    (unsigned long)off, sched_table_strerror(rc),
                    rc == SCHED_TABLE_ERR_CHECKSUM ? "" : ": the file is damaged", redo);
        free(data);
        return 1;
    }
    free(data);
    if (off != len) {
        fprintf(stderr, "schedgen: %s: %lu bytes after the table of the last node (%lu): not a tables file of this "
                        "shape, or damaged; %s\n", path, (unsigned long)(len - off), (unsigned long)(n - 1u), redo);
        return 1;
    }
    return 0;
}

/* Whether an output file can be written, found before any work: an existing file is opened
 * for appending and left as it is, a new one is created and removed again. Returns 0, or
 * prints the problem and returns 2. */
static int check_output(const char *option, const char *path)
{
    FILE *f = fopen(path, "wbx");
    if (f) {
        fclose(f);
        remove(path);
        return 0;
    }
    if (errno == EEXIST && (f = fopen(path, "ab")) != 0) {
        fclose(f);
        return 0;
    }
    fprintf(stderr, "schedgen: %s: cannot write %s: %s; give a file in an existing folder you can write to "
                    "(nothing was written)\n", option, path, strerror(errno));
    return 2;
}

static int package(const sched_shape *shape, const char *const *specs, const pkg_spec *parsed, int nspecs,
                   const char *out, const char *asm_out, int quiet)
{
    sched_schedule sch[PKG_MAX_ITEMS];
    sched_pkg_item items[PKG_MAX_ITEMS];
    int nitems = 0, status = 2;
    char err[256], shape_text[40];
    sched_shape_text(shape, shape_text, sizeof shape_text);
    for (int k = 0; k < nspecs; k++) {
        const int coll = parsed[k].coll, nv = parsed[k].nv;
        const uint32_t root = parsed[k].root;
        const pkg_variant *v = parsed[k].v;
        const char *text = parsed[k].text;
        sched_shape line;   /* the machine, or a row or a column of it */
        schedgen_group_shape(shape, parsed[k].group, &line);
        for (int j = 0; j < nv; j++) {
            if (nitems == PKG_MAX_ITEMS) { schedgen_bad("%s", "--package: too many tables"); goto out; }
            sched_schedule *s = &sch[nitems];
            if (sched_generate_chunks(s, &line, (sched_algo)v[j].algo, root, v[j].chunks, err, sizeof err)) {
                fprintf(stderr, "schedgen: --coll '%s' on the %s %s%s: %s\n", specs[k], shape_text,
                        shape->torus ? "torus" : "mesh", parsed[k].group == 1 ? "'s rows" : parsed[k].group == 2 ?
                        "'s columns" : parsed[k].group == 3 ? "'s pillars" : parsed[k].group == 4 ? "'s planes" :
                        parsed[k].group ? "'s blocks" : "", err);
                goto out;
            }
            nitems++;
            if ((int)s->coll != coll) {
                fprintf(stderr, "schedgen: --coll '%s': %s is a%s %s schedule, not %s\n", specs[k],
                        sched_algo_name(s->algo), sched_coll_name(s->coll)[0] == 'a' ? "n" : "",
                        sched_coll_name(s->coll), text);
                goto out;
            }
            size_t wb = sched_check_workspace_bytes(s);
            void *ws = malloc(wb);
            sched_check_result r;
            if (!ws) { fprintf(stderr, "schedgen: out of memory\n"); status = 1; goto out; }
            sched_check(s, ws, wb, &r);
            free(ws);
            if (!r.ok) {
                fprintf(stderr, "schedgen: --coll '%s': %s: check: FAIL %s\n", specs[k], sched_algo_name(s->algo),
                        r.error);
                status = 1;
                goto out;
            }
            items[nitems - 1] = (sched_pkg_item){s, v[j].min_bytes, (uint8_t)parsed[k].group};
        }
    }
    if (check_output("--package", out) || (asm_out && check_output("--asm", asm_out))) goto out;
    FILE *f = fopen(out, "wb");
    sched_pkg_info info;
    status = 1;
    if (!f) { fprintf(stderr, "schedgen: cannot write %s: %s\n", out, strerror(errno)); goto out; }
    int w = sched_write_package(shape, items, (uint32_t)nitems, f, &info);
    int werr = w ? (errno ? errno : ENOMEM) : 0;
    if (fclose(f) && !werr) werr = errno ? errno : EIO;
    if (werr) {
        remove(out);
        fprintf(stderr, "schedgen: cannot write %s: %s (the partial file was removed)\n", out, strerror(werr));
        goto out;
    }
    if (asm_out) {
        FILE *a = fopen(asm_out, "w");
        int aerr = a ? 0 : errno;
        if (a) {
            fprintf(a, "/* generated by schedgen --package for the %s %s: do not edit.\n"
                       " * .rvmesh_package (not loaded): every node's tables, for the loader (mesh-sim);\n"
                       " * rvmesh_tables (NOLOAD): where the loader writes this node's area, %lu bytes. */\n"
                       "    .section .rvmesh_package,\"\",@progbits\n"
                       "    .incbin \"%s\"\n"
                       "    .section .rvmesh_tables,\"aw\",@nobits\n"
                       "    .balign 8\n"
                       "    .globl rvmesh_tables\n"
                       "    .type rvmesh_tables, @object\n"
                       "    .size rvmesh_tables, %lu\n"
                       "rvmesh_tables:\n"
                       "    .zero %lu\n"
                       "    .globl rvmesh_tables_end\n"
                       "rvmesh_tables_end:\n",
                    shape_text, shape->torus ? "torus" : "mesh", (unsigned long)info.area_bytes, out,
                    (unsigned long)info.area_bytes, (unsigned long)info.area_bytes);
            if (fclose(a)) aerr = errno ? errno : EIO;
        }
        if (aerr) {
            remove(asm_out);
            fprintf(stderr, "schedgen: cannot write %s: %s\n", asm_out, strerror(aerr));
            goto out;
        }
    }
    if (!quiet) {
        printf("package: %s for the %s %s, %d tables:", out, shape_text, shape->torus ? "torus" : "mesh", nitems);
        for (int i = 0; i < nitems; i++) {
            if (SCHED_LINE_IS_BLOCK(items[i].group))
                printf(" blk%lux%lu.", (unsigned long)SCHED_LINE_BLOCK_X(items[i].group),
                       (unsigned long)SCHED_LINE_BLOCK_Y(items[i].group));
            else
                printf(" %s", items[i].group == 1 ? "row." : items[i].group == 2 ? "col." : items[i].group == 3 ? "pil."
                       : items[i].group == 4 ? "pln." : "");
            printf("%s", sched_algo_name(sch[i].algo));
            if (sched_coll_parts(&sch[i]) > 1) printf("(%lu parts)", (unsigned long)sched_coll_parts(&sch[i]));
            if (items[i].min_bytes) printf(">=%luB", (unsigned long)items[i].min_bytes);
        }
        printf("; a node holds at most %lu bytes (mean %.0f), the package is %lu bytes\n",
               (unsigned long)info.area_bytes, info.mean_area_bytes, (unsigned long)info.total_bytes);
    }
    status = 0;
out:
    for (int i = 0; i < nitems; i++) sched_free(&sch[i]);
    return status;
}

int main(int argc, char **argv)
{
    schedgen_opts o;
    int status = schedgen_parse(argc, argv, &o);
    if (status < 0) status = schedgen_run(&o);
    schedgen_opts_free(&o);
    return status;
}

/* The work the options ask for (schedgen_parse returned -1); returns the exit status. */
int schedgen_run(const schedgen_opts *o)
{
    if (o->help) { schedgen_usage(stdout); return 0; }
    const sched_shape shape = o->shape;
    if (o->package) return package(&shape, o->specs, o->parsed, o->nspecs, o->package, o->asm_out, o->quiet);
    if (o->verify) {
        int vs = verify_tables(o->verify, &shape);
        if (vs == 0) printf("%s: %lu node tables valid for this shape\n", o->verify, (unsigned long)sched_nodes(&shape));
        return vs;
    }
    const char *dump = o->dump, *tables = o->tables, *svg = o->svg;
    const int algo = o->algo, torus = o->torus, check = o->check, stats = o->stats, quiet = o->quiet;
    const uint32_t chunks = o->chunks, root = o->root;
    const uint8_t *srcset = o->srcset;
    sched_schedule s;
    char err[256];
    /* the outputs, before any work: an unwritable one is refused now, not after the check */
    if ((dump && check_output("--dump", dump)) || (tables && check_output("--tables", tables)) ||
        (svg && check_output("--svg", svg)))
        return 2;
    /* the -ft algorithms avoid the dead links; the checker rejects any route over one */
    if (srcset ? sched_coll_generate_partial(&s, &shape, algo, srcset, err, sizeof err)
               : sched_generate_dead(&s, &shape, (sched_algo)algo, root, chunks, o->ndead ? o->dead : 0, o->ndead, err,
                                     sizeof err)) {
        fprintf(stderr, "schedgen: %s\n", err);
        return 2;
    }
    s.dead = o->ndead ? o->dead : 0;   /* (the partial generators start from nothing) */
    s.ndead = o->ndead;
    char shape_text[40], root_text[40];
    sched_shape_text(&shape, shape_text, sizeof shape_text);
    sched_coord_text(&shape, root, root_text, sizeof root_text);
    uint32_t lb = s.model == SCHED_MODEL_WORMHOLE_ALLPORT ? sched_lb_allport_bcast(&shape)
                : s.model == SCHED_MODEL_WORMHOLE_ONEPORT ? sched_lb_oneport_bcast(&shape)
                : s.coll == SCHED_COLL_BCAST ? sched_eccentricity(&shape, root)
                : sched_lb_scatter(&shape, root);
    uint32_t expected = sched_expected_steps(&shape, s.algo, root);
    if (sched_coll_is_algo((int)s.algo)) lb = sched_coll_lower_bound(&s);
    /* rounds in which a node sends up to 2d worms: the informed nodes grow (2d+1)-fold at most */
    if (s.algo == SCHED_ALGO_BCAST_BINOMIAL) lb = sched_lb_allport_bcast(&shape);
    if (s.algo == SCHED_ALGO_BCAST_EDST) {   /* the depth bound, plus a slot per further chunk */
        lb = sched_edst_depth_bound(&shape, root) + chunks - 1u;
        expected = lb;
    }
    if (!quiet) {
        /* a bound the algorithm has none of (0) prints as "-" */
        char expected_text[16], paper_text[16], lb_text[16];
        figure_text(expected, expected_text, sizeof expected_text);
        figure_text(sched_paper_steps(&shape, s.algo, root), paper_text, sizeof paper_text);
        figure_text(lb, lb_text, sizeof lb_text);
        printf("%s on %s %s, root %s: %lu steps (bound %s, paper %s, lower bound %s), %lu messages",
               sched_algo_name(s.algo), shape_text, torus ? "torus" : "mesh", root_text, (unsigned long)s.nsteps,
               expected_text, paper_text, lb_text, (unsigned long)s.count);
        if (s.coll == SCHED_COLL_BCAST && sched_coll_parts(&s) > 1)
            printf(", %lu parts per block", (unsigned long)sched_coll_parts(&s));
        if (s.model == SCHED_MODEL_WORMHOLE_CONTENDED) printf(" (rounds; worms may share links)");
        printf("\n");
    }
    if (srcset && !quiet) {
        uint32_t m, pb, plb;
        sched_coll_partial_bounds(&s, srcset, &m, &pb, &plb);
        printf("%lu %s: digest bound %lu slots, lower bound %lu for this set (prefix steps x t_p not included)\n",
               (unsigned long)m, s.algo == SCHED_ALGO_PG ? "destinations" : "sources", (unsigned long)pb, (unsigned long)plb);
    }
    int status = 0;
    if (check) {
        size_t wb = sched_check_workspace_bytes(&s);
        void *ws = malloc(wb);
        sched_check_result r;
        if (!ws) { fprintf(stderr, "schedgen: out of memory\n"); return 1; }
        if (srcset) sched_check_coll(&s, srcset, ws, wb, &r);
        else sched_check(&s, ws, wb, &r);
        free(ws);
        if (r.ok)
            printf("check: PASS steps %lu messages %lu total_distance %llu max_path %lu max_link_load %lu links_used %lu "
                   "max_sends_per_step %lu\n",
                   (unsigned long)r.steps, (unsigned long)r.messages, (unsigned long long)r.total_distance,
                   (unsigned long)r.max_path, (unsigned long)r.max_link_load, (unsigned long)r.links_used,
                   (unsigned long)r.max_sends_per_step);
        else {
            printf("check: FAIL %s\n", r.error);
            status = 1;
        }
    }
    if (stats) {
        printf("step messages hops max_hops\n");
        for (uint32_t i = 0; i < s.count;) {
            uint32_t j = i, hops = 0, longest = 0;
            for (; j < s.count && s.msgs[j].step == s.msgs[i].step; j++) {
                uint32_t len = sched_msg_length(&s.msgs[j], shape.dims);
                hops += len;
                if (len > longest) longest = len;
            }
            printf("%4u %8lu %6lu %8lu\n", (unsigned)s.msgs[i].step, (unsigned long)(j - i), (unsigned long)hops,
                   (unsigned long)longest);
            i = j;
        }
    }
    struct { const char *path; int kind; } outs[3] = {{dump, 0}, {tables, 1}, {svg, 2}};
    for (int k = 0; k < 3; k++) {
        if (!outs[k].path) continue;
        FILE *f = fopen(outs[k].path, outs[k].kind == 1 ? "wb" : "w");
        if (!f) { fprintf(stderr, "schedgen: cannot write %s: %s\n", outs[k].path, strerror(errno)); status = 1; continue; }
        int w;
        uint32_t maxb = 0;
        uint64_t totb = 0;
        errno = 0;
        if (outs[k].kind == 0) w = sched_write_dump(&s, f);
        else if (outs[k].kind == 1) w = sched_write_tables(&s, f, &maxb, &totb);
        else w = sched_write_svg(&s, f);
        int werr = w ? errno : 0;
        if (fclose(f) && !werr) werr = errno ? errno : EIO;
        if (w && !werr) werr = EIO;
        if (werr) {
            struct stat st;
            int partial = stat(outs[k].path, &st) == 0 && S_ISREG(st.st_mode) && remove(outs[k].path) == 0;
            fprintf(stderr, "schedgen: cannot write %s: %s%s\n", outs[k].path, strerror(werr),
                    partial ? " (the partial file was removed)" : "");
            status = 1;
        }
        else if (outs[k].kind == 1 && !quiet)
            printf("tables: %s, %llu bytes, largest node table %lu bytes\n", outs[k].path, (unsigned long long)totb,
                   (unsigned long)maxb);
    }
    sched_free(&s);
    return status;
}
