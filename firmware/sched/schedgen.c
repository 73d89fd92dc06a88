/* schedgen: build, check, dump, draw and tabulate collective schedules.
 * Usage: see usage() below or firmware/sched/README.md. */
#define _POSIX_C_SOURCE 200809L   /* stat(): a partial output is removed only if a regular file */
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "sched_out.h"
#include "sched_table.h"
#include "sched_coll.h"   /* issue-5 lower bounds */
#include "sched_opt.h"    /* bcast-edst chunks and depth bound */
#include "schedgen.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: schedgen --shape XxY[xZ] (--mesh | --torus) --algo NAME [--root X,Y[,Z]] [--chunks K]\n"
            "                [--check] [--stats] [--dump FILE] [--tables FILE] [--svg FILE] [--quiet]\n"
            "       schedgen --shape XxY[xZ] (--mesh | --torus) --verify-tables FILE\n"
            "       schedgen --shape XxY[xZ] (--mesh | --torus) --package FILE [--asm FILE.S] --coll SPEC...\n"
            "algorithms: tsay-wang (all-port wormhole broadcast, n x n or n x n x n torus)\n"
            "            cang-wu, cang-wu-dp (one-port wormhole broadcast, 2^k x 2^k)\n"
            "            saf-bcast (all-port store-and-forward broadcast tree, any shape)\n"
            "            bcast-edst (store-and-forward broadcast of 2d parts (mesh: d) over arc-disjoint\n"
            "              spanning trees, any shape; --chunks K pipelines K chunks per tree)\n"
            "            bcast-binomial (binomial tree, dimension-order worms sharing links, any shape)\n"
            "            scatter, gather (all-port store-and-forward, any shape)\n"
            "            mnb, mnb-split, mnb-diag (multinode broadcast = allgather, p x p or p x p x p)\n"
            "            mnb-opt (allgather by one translated tree, torus: ceil((N-1)/2d) slots)\n"
            "            allgather-ring (Hamiltonian snake cycle: torus, or a mesh with an even side)\n"
            "            dyn-star (the dynamic STAR rule as an all-node burst, torus)\n"
            "            te-a3 (total exchange, n x n), te-a2 (any shape), te-oneport (single-port, torus)\n"
            "            alltoall-pairwise (N-1 rounds of dimension-order worms sharing links, any shape)\n"
            "            pmnb, pmnb-split (partial MNB rule), pe (partial exchange, 2-D mesh): need --sources\n"
            "            pg (partial gather to M destinations, 2-D mesh: the exchange reversed): --sources names\n"
            "              the destinations\n"
            "--sources  for pmnb/pmnb-split/pe/pg: node ids '0,5,9' or 'random:M[:SEED]'\n"
            "--chunks   for bcast-edst: chunks per tree, 1..%u (default 1); the block is cut into\n"
            "           trees x K parts, and the broadcast takes depth + K - 1 slots\n"
            "--check    run the checker; exit 1 if the schedule is wrong\n"
            "--stats    per step: messages, hops, longest route\n"
            "--dump     text dump, one line per message: step src dst start_dim dir\n"
            "--tables   per-node binary tables (format: firmware/sched/sched_table.h)\n"
            "--svg      picture of the schedule, one panel and colour per step\n"
            "--verify-tables  check that FILE holds one valid table per node of this shape, in order\n"
            "--package  a program's tables, grouped per node (firmware/sched/sched_table.h: every node's\n"
            "           area); every schedule is checked first. --coll SPEC (repeat it) names a collective\n"
            "           the program uses: COLL[:ALGO][@ROOT], COLL one of bcast, scatter, gather, allgather,\n"
            "           alltoall; ALGO an algorithm above (bcast-edst/K: K chunks per tree) or default (the\n"
            "           fastest measured for each block size: README.md, \"Which schedule runs when\");\n"
            "           ROOT a node id, for bcast, scatter and gather (default 0)\n"
            "--asm      with --package: an assembly file for the program's image that carries the package\n"
            "           (section .rvmesh_package, not loaded) and reserves a node's area (rvmesh_tables)\n"
            "exit status: 0 done; 1 --check found the schedule wrong, --verify-tables found the file\n"
            "             unreadable or damaged (checksum, truncated, empty, not a tables file, another\n"
            "             shape), or writing an output failed part-way (the partial file is removed);\n"
            "             2 bad arguments, including a --dump/--tables/--svg file that cannot be\n"
            "             created: checked before any work, so nothing is written, and an algorithm\n"
            "             run on a shape it does not support\n", SCHED_EDST_MAX_CHUNKS);
}

/* Every algorithm name, comma separated: the list the --algo messages give. */
static const char *algo_list(void)
{
    static char list[512];
    size_t used = 0;
    list[0] = 0;
    for (int a = 1; a < SCHED_COLL_ALGO_LAST + 1; a++) {
        const char *name = sched_algo_name((sched_algo)a);
        if (name[0] == '?') continue;
        int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", name);
        if (w < 0 || (size_t)w >= sizeof list - used) break;
        used += (size_t)w;
    }
    return list;
}

static int bad(const char *fmt, const char *what)
{
    fprintf(stderr, "schedgen: ");
    fprintf(stderr, fmt, what);
    fprintf(stderr, "\n(run 'schedgen --help' for the options)\n");
    return 2;
}

static int parse_list(const char *text, char sep, long *vals, int maxvals)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        /* digits, optionally after a '-' (so that -1 reads as a number out of range); no
         * blanks or '+' that strtol would skip */
        if (!((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9'))) return -1;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || n == maxvals) return -1;
        vals[n++] = v;
        if (*end == 0) break;
        if (*end != sep || end[1] == 0) return -1;
        p = end + 1;
    }
    return n;
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

/* ---- --package: a program's collectives ---- */
#define PKG_MAX_ITEMS 96

static int shape_equal_sides(const sched_shape *sh)
{
    return sh->side[0] == sh->side[1] && (sh->dims < 3 || sh->side[0] == sh->side[2]);
}

static int shape_even_side(const sched_shape *sh)
{
    for (unsigned d = 0; d < sh->dims; d++)
        if (sh->side[d] % 2u == 0) return 1;
    return 0;
}

/* "default": the variants of a collective on this shape, least preferred first (the kit runs
 * the last one whose smallest block, parts and workspace suit the call). README.md, "Which
 * schedule runs when", says why. Returns the count, 0 if the collective is unknown. */
static int default_variants(const sched_shape *sh, int coll, pkg_variant *v)
{
    int n = 0;
    switch (coll) {
    case SCHED_COLL_BCAST:
        /* any multiple of 4 bytes: Tsay-Wang on n x n tori, else the binomial tree; then the
         * 2d (mesh: d) arc-disjoint trees, and from 1 KiB the same pipelined in 8 chunks */
        v[n++] = (pkg_variant){sh->torus && shape_equal_sides(sh) ? SCHED_ALGO_TSAY_WANG : SCHED_ALGO_BCAST_BINOMIAL,
                               1, 0};
        v[n++] = (pkg_variant){SCHED_ALGO_BCAST_EDST, 1, 0};
        v[n++] = (pkg_variant){SCHED_ALGO_BCAST_EDST, 8, 1024};
        return n;
    case SCHED_COLL_SCATTER: v[n++] = (pkg_variant){SCHED_ALGO_SCATTER, 1, 0}; return n;
    case SCHED_COLL_GATHER: v[n++] = (pkg_variant){SCHED_ALGO_GATHER, 1, 0}; return n;
    case 16: /* allgather: the fewest slots */
        if (sh->torus) v[n++] = (pkg_variant){(int)SCHED_ALGO_MNB_OPT, 1, 0};
        else if (sh->dims == 2) v[n++] = (pkg_variant){(int)SCHED_ALGO_MNB_DIAG, 1, 0};
        else if (shape_even_side(sh)) v[n++] = (pkg_variant){(int)SCHED_ALGO_ALLGATHER_RING, 1, 0};
        else v[n++] = (pkg_variant){(int)SCHED_ALGO_MNB_DIAG, 1, 0};
        return n;
    case 17: /* alltoall: the pairwise exchange where the total exchange's transit slots do not fit */
        v[n++] = (pkg_variant){(int)SCHED_ALGO_ALLTOALL_PAIRWISE, 1, 0};
        v[n++] = (pkg_variant){sh->dims == 2 && shape_equal_sides(sh) ? (int)SCHED_ALGO_TE_A3 : (int)SCHED_ALGO_TE_A2,
                               1, 0};
        return n;
    }
    return 0;
}

static int coll_from_name(const char *name)
{
    static const struct { const char *name; int coll; } names[] = {
        {"bcast", SCHED_COLL_BCAST}, {"scatter", SCHED_COLL_SCATTER}, {"gather", SCHED_COLL_GATHER},
        {"allgather", 16}, {"alltoall", 17}};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i].name)) return names[i].coll;
    return -1;
}

static const char pkg_syntax[] = "COLL[:ALGO][@ROOT] (e.g. bcast, allgather:mnb-opt, bcast:bcast-edst/8@5)";

/* Reads every --coll SPEC (before any work). Returns 0, or prints the problem and returns 2. */
static int parse_specs(const sched_shape *shape, const char *const *specs, int nspecs, pkg_spec *out)
{
    char shape_text[40];
    sched_shape_text(shape, shape_text, sizeof shape_text);
    if (nspecs == 0) return bad("%s", "--package needs at least one --coll SPEC");
    if (nspecs > PKG_MAX_SPECS) return bad("%s", "--package: at most 32 --coll specs");
    for (int k = 0; k < nspecs; k++) {
        pkg_spec *ps = &out[k];
        char *text = ps->text, *algo_text = 0, *root_text = 0;
        if (strlen(specs[k]) >= sizeof ps->text) return bad("--coll '%s': too long", specs[k]);
        strcpy(text, specs[k]);
        char *at = strchr(text, '@');
        if (at) { *at = 0; root_text = at + 1; }
        char *colon = strchr(text, ':');
        if (colon) { *colon = 0; algo_text = colon + 1; }
        const int coll = coll_from_name(text);
        if (coll < 0) {
            fprintf(stderr, "schedgen: --coll '%s': unknown collective '%s' (bcast, scatter, gather, allgather, "
                            "alltoall); the form is %s\n", specs[k], text, pkg_syntax);
            return 2;
        }
        const int rooted = coll == SCHED_COLL_BCAST || coll == SCHED_COLL_SCATTER || coll == SCHED_COLL_GATHER;
        uint32_t root = 0;
        if (root_text) {
            long r[1];
            if (!rooted) {
                fprintf(stderr, "schedgen: --coll '%s': %s has no root; drop '@%s'\n", specs[k], text, root_text);
                return 2;
            }
            if (parse_list(root_text, ',', r, 1) != 1 || r[0] < 0 || (uint32_t)r[0] >= sched_nodes(shape)) {
                fprintf(stderr, "schedgen: --coll '%s': the root must be a node id 0..%lu of the %s %s (node id = x + "
                                "X*y%s)\n", specs[k], (unsigned long)(sched_nodes(shape) - 1u), shape_text,
                        shape->torus ? "torus" : "mesh", shape->dims == 3 ? " + X*Y*z" : "");
                return 2;
            }
            root = (uint32_t)r[0];
        }
        for (int j = 0; j < k; j++)
            if (out[j].coll == coll && out[j].root == root) {
                fprintf(stderr, "schedgen: --coll '%s': %s%s is declared twice; name each collective (and root) "
                                "once\n", specs[k], text, rooted ? " with this root" : "");
                return 2;
            }
        ps->coll = coll;
        ps->root = root;
        ps->rooted = rooted;
        ps->nv = 0;
        if (!algo_text || !strcmp(algo_text, "default")) {
            ps->nv = default_variants(shape, coll, ps->v);
        } else {
            char *slash = strchr(algo_text, '/');
            uint32_t chunks = 1;
            if (slash) {
                long c[1];
                *slash = 0;
                if (parse_list(slash + 1, ',', c, 1) != 1 || c[0] < 1 || c[0] > (long)SCHED_EDST_MAX_CHUNKS) {
                    fprintf(stderr, "schedgen: --coll '%s': chunks per tree after '/' must be 1 .. %u\n", specs[k],
                            SCHED_EDST_MAX_CHUNKS);
                    return 2;
                }
                chunks = (uint32_t)c[0];
            }
            const int algo = sched_algo_from_name(algo_text);
            if (algo < 0) {
                fprintf(stderr, "schedgen: --coll '%s': unknown algorithm '%s' (the algorithms: default, %s)\n",
                        specs[k], algo_text, algo_list());
                return 2;
            }
            if (slash && algo != SCHED_ALGO_BCAST_EDST) {
                fprintf(stderr, "schedgen: --coll '%s': '/K' (chunks) applies to bcast-edst only\n", specs[k]);
                return 2;
            }
            ps->v[ps->nv++] = (pkg_variant){algo, chunks, 0};
        }
    }
    return 0;
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
        for (int j = 0; j < nv; j++) {
            if (nitems == PKG_MAX_ITEMS) { bad("%s", "--package: too many tables"); goto out; }
            sched_schedule *s = &sch[nitems];
            if (sched_generate_chunks(s, shape, (sched_algo)v[j].algo, root, v[j].chunks, err, sizeof err)) {
                fprintf(stderr, "schedgen: --coll '%s' on the %s %s: %s\n", specs[k], shape_text,
                        shape->torus ? "torus" : "mesh", err);
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
            items[nitems - 1] = (sched_pkg_item){s, v[j].min_bytes};
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
            printf(" %s", sched_algo_name(sch[i].algo));
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

int schedgen_parse(int argc, char **argv, schedgen_opts *o)
{
    memset(o, 0, sizeof *o);
    const char *shape_arg = 0, *algo_arg = 0, *root_arg = 0;
    const char *sources_arg = 0;   /* issue 5: partial collectives */
    const char *chunks_arg = 0;    /* bcast-edst */
    const char **specs = o->specs;
    int torus = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **val = 0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { o->help = 1; return -1; }
        else if (!strcmp(a, "--torus")) torus = 1;
        else if (!strcmp(a, "--mesh")) torus = 0;
        else if (!strcmp(a, "--check")) o->check = 1;
        else if (!strcmp(a, "--quiet")) o->quiet = 1;
        else if (!strcmp(a, "--stats")) o->stats = 1;
        else if (!strcmp(a, "--shape")) val = &shape_arg;
        else if (!strcmp(a, "--algo")) val = &algo_arg;
        else if (!strcmp(a, "--root")) val = &root_arg;
        else if (!strcmp(a, "--dump")) val = &o->dump;
        else if (!strcmp(a, "--tables")) val = &o->tables;
        else if (!strcmp(a, "--svg")) val = &o->svg;
        else if (!strcmp(a, "--verify-tables")) val = &o->verify;
        else if (!strcmp(a, "--sources")) val = &sources_arg;
        else if (!strcmp(a, "--chunks")) val = &chunks_arg;
        else if (!strcmp(a, "--package")) val = &o->package;
        else if (!strcmp(a, "--asm")) val = &o->asm_out;
        else if (!strcmp(a, "--coll")) {
            if (i + 1 >= argc) return bad("option %s needs a value", a);
            if (o->nspecs > PKG_MAX_SPECS) return bad("%s", "--package: at most 32 --coll specs");
            specs[o->nspecs++] = argv[++i];
        }
        else return bad("unknown option '%s'", a);
        if (val) {
            if (i + 1 >= argc) return bad("option %s needs a value", a);
            *val = argv[++i];
        }
    }
    if (!shape_arg) return bad("%s", "missing --shape (e.g. --shape 8x8 or --shape 4x4x4)");
    if (torus < 0) return bad("%s", "say --mesh or --torus");
    long sides[3];
    int nd = parse_list(shape_arg, 'x', sides, 3);
    if (nd < 2) return bad("bad --shape '%s': give 2 or 3 side lengths like 8x8 or 4x4x4", shape_arg);
    sched_shape shape = {0};
    o->torus = torus;
    shape.dims = (uint8_t)nd;
    shape.torus = (uint8_t)torus;
    for (int d = 0; d < 3; d++) {
        long v = d < nd ? sides[d] : 1;
        /* clamped into the field: sched_shape_problem names what is wrong, one wording for all */
        shape.side[d] = (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v);
    }
    const char *problem = sched_shape_problem(&shape);
    if (problem) return bad("bad --shape: %s", problem);

    o->shape = shape;
    if (o->package) {
        if (algo_arg || root_arg || o->dump || o->tables || o->svg || o->verify || sources_arg || chunks_arg ||
            o->check || o->stats)
            return bad("%s", "--package takes --coll SPECs (and --asm, --quiet) only: the algorithm, root and chunks "
                             "of each collective go in its SPEC");
        int ps = parse_specs(&shape, o->specs, o->nspecs, o->parsed);
        return ps ? ps : -1;
    }
    if (o->nspecs || o->asm_out) return bad("%s", "--coll and --asm go with --package FILE");

    if (o->verify) return -1;

    if (!algo_arg) return bad("missing --algo (one of: %s)", algo_list());
    int algo = sched_algo_from_name(algo_arg);
    if (algo < 0) {
        char text[700];
        snprintf(text, sizeof text, "%s' (the algorithms: %s)", algo_arg, algo_list());
        return bad("unknown --algo '%s", text);
    }
    uint32_t chunks = 1;
    if (chunks_arg) {
        unsigned long v = 0;
        size_t k = 0;
        for (; chunks_arg[k] >= '0' && chunks_arg[k] <= '9' && v <= SCHED_EDST_MAX_CHUNKS; k++)
            v = v * 10u + (unsigned long)(chunks_arg[k] - '0');
        if (k == 0 || chunks_arg[k] || v < 1 || v > SCHED_EDST_MAX_CHUNKS) {
            char text[300];
            snprintf(text, sizeof text, "%.40s': chunks per tree must be a decimal number 1 .. %u", chunks_arg,
                     SCHED_EDST_MAX_CHUNKS);
            return bad("bad --chunks '%s", text);
        }
        if (algo != SCHED_ALGO_BCAST_EDST)
            return bad("--chunks applies to bcast-edst only, not to %s", algo_arg);
        chunks = (uint32_t)v;
    }
    int32_t rc3[SCHED_MAX_DIMS] = {0, 0, 0};
    if (root_arg) {
        long r[3];
        int nr = parse_list(root_arg, ',', r, 3);
        if (nr < 0)
            return bad(nd == 3 ? "bad --root '%s': give one coordinate per dimension as decimal numbers joined by "
                                 "commas, like 3,4,1"
                               : "bad --root '%s': give one coordinate per dimension as decimal numbers joined by "
                                 "commas, like 3,4", root_arg);
        if (nr != nd)
            return bad(nd == 3 ? "bad --root '%s': give one coordinate per dimension (this shape has 3), like 3,4,1"
                               : "bad --root '%s': give one coordinate per dimension (this shape has 2), like 3,4",
                       root_arg);
        for (int d = 0; d < nd; d++) {
            if (r[d] < 0 || r[d] >= shape.side[d]) {
                char text[300];
                if (nd == 3)
                    snprintf(text, sizeof text, "%s': a coordinate is outside the shape (x 0..%u, y 0..%u, z 0..%u)",
                             root_arg, shape.side[0] - 1u, shape.side[1] - 1u, shape.side[2] - 1u);
                else
                    snprintf(text, sizeof text, "%s': a coordinate is outside the shape (x 0..%u, y 0..%u)", root_arg,
                             shape.side[0] - 1u, shape.side[1] - 1u);
                return bad("bad --root '%s", text);
            }
            rc3[d] = (int32_t)r[d];
        }
    }
    o->algo = algo;
    o->chunks = chunks;
    o->root = sched_node_id(&shape, rc3);
    if (sources_arg) {
        char err[256];
        o->srcset = malloc(sched_nodes(&shape));
        if (!o->srcset) { fprintf(stderr, "schedgen: out of memory\n"); return 1; }
        if (sched_coll_parse_sources(sources_arg, &shape, o->srcset, err, sizeof err)) {
            schedgen_opts_free(o);
            return bad("%s", err);
        }
    }
    return -1;
}

void schedgen_opts_free(schedgen_opts *o)
{
    free(o->srcset);
    o->srcset = 0;
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
    if (o->help) { usage(stdout); return 0; }
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
    if (srcset ? sched_coll_generate_partial(&s, &shape, algo, srcset, err, sizeof err)
               : sched_generate_chunks(&s, &shape, (sched_algo)algo, root, chunks, err, sizeof err)) {
        fprintf(stderr, "schedgen: %s\n", err);
        return 2;
    }
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
        printf("%s on %s %s, root %s: %lu steps (bound %lu, paper %lu, lower bound %lu), %lu messages",
               sched_algo_name(s.algo), shape_text, torus ? "torus" : "mesh", root_text, (unsigned long)s.nsteps,
               (unsigned long)expected, (unsigned long)sched_paper_steps(&shape, s.algo, root), (unsigned long)lb,
               (unsigned long)s.count);
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
