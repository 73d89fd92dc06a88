/* SPDX-License-Identifier: ISC */
/* schedgen's command line: every option and every --coll SPEC read and checked before any
 * work (schedgen_parse); the usage text. Touches no file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched.h"
#include "sched_coll.h"
#include "sched_table.h"
#include "base/sched_args.h"
#include "bcast/sched_bcast.h"
#include "gen/sched_gen.h"
#include "out/sched_out.h"
#include "schedgen/schedgen.h"

void schedgen_usage(FILE *f)
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
            "              spanning trees, any shape; --chunks K pipelines K chunks per tree; on a line\n"
            "              (--shape 8x1: a row as --package builds it) a ring's two ways round, half\n"
            "              the message each, or an array's one tree)\n"
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
            "--dead-link X,Y[,Z]:P  a failed cable: the one leaving node X,Y[,Z] by port P (2 dim, + 1 for\n"
            "           the - side), both ways; repeatable (16). The schedule is checked against them (--check\n"
            "           is implied): bcast-ft, scatter-ft, gather-ft, allgather-ft, alltoall-ft avoid them\n"
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
            "           ROOT a node id, for bcast, scatter and gather (default 0); row.COLL, col.COLL (a\n"
            "           2-D or 3-D machine), pil.COLL (3-D): the collective on every row (column, pillar\n"
            "           along z), built for the line as a shape of its own (a ring on a torus, a linear\n"
            "           array on a mesh), ROOT a rank of the line (its x, y or z); pln.COLL (3-D): the\n"
            "           collective on every XY plane (the X*Y nodes of each z), built for the plane as\n"
            "           an XxY machine of its own, ROOT a rank of the plane (x + X*y); blkBXxBY.COLL\n"
            "           (2-D): on every BXxBY block of the machine cut into equal blocks (one shape a\n"
            "           package), built for the block as a mesh of its own, ROOT x %% BX + BX*(y %% BY)\n"
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

int schedgen_bad(const char *fmt, const char *what)
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

/* ---- --package: a program's collectives ---- */

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
         * 2d (mesh: d) arc-disjoint trees, one piece per tree (the NI relays each piece as it
         * arrives, so cutting it in chunks no longer pays: 2026-11-27) */
        v[n++] = (pkg_variant){sh->torus && shape_equal_sides(sh) ? SCHED_ALGO_TSAY_WANG : SCHED_ALGO_BCAST_BINOMIAL,
                               1, 0};
        v[n++] = (pkg_variant){SCHED_ALGO_BCAST_EDST, 1, 0};
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

/* The line a row (group 1), column (group 2) or pillar (group 3, a 3-D machine's line along
 * z) spec runs on: the machine's side along it, every other side 1 (Xx1, 1xY; Xx1x1, 1xYx1,
 * 1x1xZ: sched_subshape_problem), a ring on a torus, a linear array on a mesh. An XY plane
 * (group 4, a 3-D machine's nodes of one z): the 2-D machine XxY (torus or mesh as the
 * machine), whose ports and hops are the machine's in x and y and whose node ids are the
 * ranks x + X*y. */
void schedgen_group_shape(const sched_shape *machine, int group, sched_shape *line)
{
    *line = *machine;
    if (!group) return;
    if (SCHED_LINE_IS_BLOCK(group)) {
        /* a block (group SCHED_LINE_BLOCK(bx, by), sched_table.h) of a 2-D machine: the 2-D
         * mesh bxxby; a torus only when the block is the whole torus (one torus flag for
         * both dimensions: a block spanning one side alone is a mesh there too) */
        line->side[0] = (uint16_t)SCHED_LINE_BLOCK_X(group);
        line->side[1] = (uint16_t)SCHED_LINE_BLOCK_Y(group);
        line->torus = machine->torus && line->side[0] == machine->side[0] && line->side[1] == machine->side[1];
        return;
    }
    if (group == 4) {
        line->dims = 2;
        line->side[2] = 1;
        return;
    }
    const unsigned dim = (unsigned)group - 1u;
    for (unsigned d = 0; d < machine->dims; d++)
        if (d != dim) line->side[d] = 1;
}

/* "row", "column", "pillar" */
static const char *group_text(int group)
{
    return group == 1 ? "row" : group == 2 ? "column" : group == 3 ? "pillar" : group == 4 ? "plane" : "block";
}

/* Where a ring of n nodes broadcasts by bcast-edst (its two ways round, half the block each,
 * n - 1 hops) rather than saf-bcast (the whole block down both of the root's links, floor(n/2)
 * hops): its chunks per tree and the smallest block. The halves save m/8 cycles (a link moves
 * 4 bytes a cycle), each further hop costs about 30 to 45 cycles (measured on the rows of the
 * 4x4, 5x5 and 8x8 tori, kit/README.md): from 512 bytes a further hop, one piece a tree. On
 * longer rings a half in one worm relayed through every node moves at about half a word a
 * cycle (the rows of 32 of the 32x2 torus, 16 KiB: 6,947 cycles against saf-bcast's 6,570),
 * in 8 chunks a tree at a word (4,924), which wins from 4 KiB there (3,480 against 3,665);
 * rings of 9 to 31 were not measured. */
void schedgen_ring_edst(uint32_t n, uint32_t *chunks, uint32_t *min_bytes)
{
    *chunks = n > SCHEDGEN_RING_EDST_MAX ? 8u : 1u;
    *min_bytes = n > SCHEDGEN_RING_EDST_MAX ? 4096u : n < 2u ? 0u : 512u * (n - 1u - n / 2u);
}

/* "default" on a row or a column: the broadcast of the store-and-forward tree (both ways
 * round a ring, both ways along a linear array), on a ring from schedgen_ring_edst's size on
 * bcast-edst's two ways round (a linear array's bcast-edst is the same tree: chunks no gain),
 * and the allgather of the fewest slots (a ring: mnb-opt, ceil((N-1)/2); a linear array: the
 * two pipelines of allgather-ring, N-1) */
static int line_variants(const sched_shape *line, int coll, pkg_variant *v)
{
    uint32_t n = 1;
    for (unsigned d = 0; d < line->dims; d++) n *= line->side[d];
    switch (coll) {
    case SCHED_COLL_BCAST:
        v[0] = (pkg_variant){SCHED_ALGO_SAF_BCAST, 1, 0};
        if (!line->torus) return 1;
        v[1] = (pkg_variant){SCHED_ALGO_BCAST_EDST, 1, 0};
        schedgen_ring_edst(n, &v[1].chunks, &v[1].min_bytes);
        return 2;
    case SCHED_COLL_SCATTER: v[0] = (pkg_variant){SCHED_ALGO_SCATTER, 1, 0}; return 1;
    case SCHED_COLL_GATHER: v[0] = (pkg_variant){SCHED_ALGO_GATHER, 1, 0}; return 1;
    case 16:
        v[0] = (pkg_variant){line->torus ? (int)SCHED_ALGO_MNB_OPT : (int)SCHED_ALGO_ALLGATHER_RING, 1, 0};
        return 1;
    case 17: v[0] = (pkg_variant){(int)SCHED_ALGO_TE_A2, 1, 0}; return 1;
    }
    return 0;
}

/* the algorithms that run on a line (a row or a column): the others need 2 or 3 dimensions */
static int line_algo(int algo)
{
    return algo == SCHED_ALGO_SAF_BCAST || algo == SCHED_ALGO_BCAST_EDST || algo == SCHED_ALGO_BCAST_BINOMIAL ||
           algo == SCHED_ALGO_SCATTER ||
           algo == SCHED_ALGO_GATHER || algo == (int)SCHED_ALGO_MNB_OPT || algo == (int)SCHED_ALGO_ALLGATHER_RING ||
           algo == (int)SCHED_ALGO_TE_A2 || algo == (int)SCHED_ALGO_ALLTOALL_PAIRWISE;
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

static const char pkg_syntax[] = "COLL[:ALGO][@ROOT] (e.g. bcast, allgather:mnb-opt, bcast:bcast-edst/8@5), on every row, "
                                 "column or pillar (3-D) row.COLL..., col.COLL... or pil.COLL... (row.bcast@2, "
                                 "col.allgather, pil.alltoall), every XY plane (3-D) pln.COLL... (pln.bcast@4), or every BXxBY block of a 2-D "
                                 "machine blkBXxBY.COLL... (blk2x2.bcast@3)";

/* Reads every --coll SPEC (before any work). Returns 0, or prints the problem and returns 2. */
static int parse_specs(const sched_shape *shape, const char *const *specs, int nspecs, pkg_spec *out)
{
    char shape_text[40];
    sched_shape_text(shape, shape_text, sizeof shape_text);
    if (nspecs == 0) return schedgen_bad("%s", "--package needs at least one --coll SPEC");
    if (nspecs > PKG_MAX_SPECS) return schedgen_bad("%s", "--package: at most 32 --coll specs");
    for (int k = 0; k < nspecs; k++) {
        pkg_spec *ps = &out[k];
        char *text = ps->text, *algo_text = 0, *root_text = 0;
        if (strlen(specs[k]) >= sizeof ps->text) return schedgen_bad("--coll '%s': too long", specs[k]);
        strcpy(text, specs[k]);
        /* row.COLL, col.COLL, pil.COLL: every row (column, pillar) runs it on its own line,
         * ranks as node ids; pln.COLL: every XY plane on its own */
        int group = 0;
        if (!strncmp(text, "row.", 4) || !strncmp(text, "col.", 4) || !strncmp(text, "pil.", 4) ||
            !strncmp(text, "pln.", 4)) {
            group = text[0] == 'r' ? 1 : text[0] == 'c' ? 2 : text[1] == 'i' ? 3 : 4;
            memmove(text, text + 4, strlen(text + 4) + 1u);
        } else if (!strncmp(text, "blk", 3)) {
            /* blkBXxBY.COLL: every BXxBY block of a 2-D machine cut into equal blocks */
            char *end = 0, *end2 = 0;
            const unsigned long bx = strtoul(text + 3, &end, 10);
            const unsigned long by = end && *end == 'x' ? strtoul(end + 1, &end2, 10) : 0;
            if (!end2 || *end2 != '.' || end == text + 3 || end2 == end + 1) {
                fprintf(stderr, "schedgen: --coll '%s': a block's collective is blkBXxBY.COLL (blk2x2.bcast@3)\n",
                        specs[k]);
                return 2;
            }
            if (shape->dims != 2 || bx < 2 || by < 2 || bx > SCHED_BLOCK_MAX_SIDE || by > SCHED_BLOCK_MAX_SIDE ||
                bx * by > 16u || shape->side[0] % bx || shape->side[1] % by) {
                fprintf(stderr, "schedgen: --coll '%s': blocks are of a 2-D machine, sides 2 .. %u that divide the "
                                "machine's, at most 16 nodes (this is the %s %s)\n", specs[k], SCHED_BLOCK_MAX_SIDE,
                        shape_text, shape->torus ? "torus" : "mesh");
                return 2;
            }
            group = SCHED_LINE_BLOCK(bx, by);
            for (int j = 0; j < k; j++)
                if (SCHED_LINE_IS_BLOCK(out[j].group) && out[j].group != group) {
                    fprintf(stderr, "schedgen: --coll '%s': blocks of one shape a program (%s declares %lux%lu, "
                                    "'%s' %lux%lu)\n", specs[k], specs[j], (unsigned long)SCHED_LINE_BLOCK_X(out[j].group),
                            (unsigned long)SCHED_LINE_BLOCK_Y(out[j].group), specs[k], bx, by);
                    return 2;
                }
            memmove(text, end2 + 1, strlen(end2 + 1) + 1u);
        }
        if (group && group <= 4) {
            if (shape->dims < 2 || (group >= 3 && shape->dims != 3)) {
                fprintf(stderr, "schedgen: --coll '%s': %s (this is the %s %s)\n", specs[k], group == 4 ?
                        "plane collectives (pln., the XY plane of each z) need a 3-D machine" : group == 3 ?
                        "pillar collectives (pil., the lines along z) need a 3-D machine" :
                        "row and column collectives need a 2-D or 3-D machine", shape_text,
                        shape->torus ? "torus" : "mesh");
                return 2;
            }
        }
        sched_shape line;
        schedgen_group_shape(shape, group, &line);
        const char *line_text = group_text(group);
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
            if (group && (parse_list(root_text, ',', r, 1) != 1 || r[0] < 0 || (uint32_t)r[0] >= sched_nodes(&line))) {
                fprintf(stderr, "schedgen: --coll '%s': the root must be a rank 0..%lu of a %s (its %s)\n", specs[k],
                        (unsigned long)(sched_nodes(&line) - 1u), line_text, group == 1 ? "x" : group == 2 ? "y" :
                        group == 3 ? "z" : group == 4 ? "x + X*y" : "x % BX + BX*(y % BY)");
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
            if (out[j].coll == coll && out[j].root == root && out[j].group == group) {
                fprintf(stderr, "schedgen: --coll '%s': %s%s is declared twice; name each collective (and root) "
                                "once\n", specs[k], text, rooted ? " with this root" : "");
                return 2;
            }
        ps->coll = coll;
        ps->group = group;
        ps->root = root;
        ps->rooted = rooted;
        ps->nv = 0;
        if (!algo_text || !strcmp(algo_text, "default")) {
            ps->nv = group && group < 4 ? line_variants(&line, coll, ps->v) : default_variants(&line, coll, ps->v);
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
            if (group && group < 4 && !line_algo(algo)) {
                fprintf(stderr, "schedgen: --coll '%s': %s does not run on a %s; there: saf-bcast, bcast-edst, bcast-binomial, "
                                "scatter, gather, mnb-opt (a ring), allgather-ring, te-a2, alltoall-pairwise, or "
                                "default\n", specs[k], algo_text, line_text);
                return 2;
            }
            ps->v[ps->nv++] = (pkg_variant){algo, chunks, 0};
        }
    }
    return 0;
}

int schedgen_parse(int argc, char **argv, schedgen_opts *o)
{
    memset(o, 0, sizeof *o);
    const char *shape_arg = 0, *algo_arg = 0, *root_arg = 0;
    const char *sources_arg = 0;   /* issue 5: partial collectives */
    const char *chunks_arg = 0;    /* bcast-edst */
    const char *dead_args[SCHEDGEN_MAX_DEAD];
    int ndead_args = 0;
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
        else if (!strcmp(a, "--dead-link")) {
            if (i + 1 >= argc) return schedgen_bad("option %s needs a value", a);
            if (ndead_args == SCHEDGEN_MAX_DEAD) return schedgen_bad("%s", "at most 16 --dead-link options");
            dead_args[ndead_args++] = argv[++i];
        }
        else if (!strcmp(a, "--coll")) {
            if (i + 1 >= argc) return schedgen_bad("option %s needs a value", a);
            if (o->nspecs > PKG_MAX_SPECS) return schedgen_bad("%s", "--package: at most 32 --coll specs");
            specs[o->nspecs++] = argv[++i];
        }
        else return schedgen_bad("unknown option '%s'", a);
        if (val) {
            if (i + 1 >= argc) return schedgen_bad("option %s needs a value", a);
            *val = argv[++i];
        }
    }
    if (ndead_args && (o->package || o->verify))
        return schedgen_bad("%s", "--dead-link goes with --algo (a schedule to check against the dead links)");
    if (!shape_arg) return schedgen_bad("%s", "missing --shape (e.g. --shape 8x8 or --shape 4x4x4)");
    if (torus < 0) return schedgen_bad("%s", "say --mesh or --torus");
    long sides[3];
    int nd = parse_list(shape_arg, 'x', sides, 3);
    if (nd < 2) return schedgen_bad("bad --shape '%s': give 2 or 3 side lengths like 8x8 or 4x4x4", shape_arg);
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
    /* a line (8x1, 1x8, 1x1x5: a row, column or pillar as a shape of its own, as --package
     * builds a row.COLL's schedule) only for the lines' broadcasts, below */
    const char *line_problem = problem && !sched_subshape_problem(&shape) ? problem : 0;
    if (problem && !line_problem) return schedgen_bad("bad --shape: %s", problem);

    o->shape = shape;
    if (line_problem && (o->package || o->verify || sources_arg || ndead_args || !algo_arg ||
                         (sched_algo_from_name(algo_arg) != SCHED_ALGO_SAF_BCAST &&
                          sched_algo_from_name(algo_arg) != SCHED_ALGO_BCAST_EDST)))
        return schedgen_bad("bad --shape: %s (a line such as 8x1 goes with --algo saf-bcast or bcast-edst alone: "
                            "a row's or a column's broadcast)", line_problem);
    if (o->package) {
        if (algo_arg || root_arg || o->dump || o->tables || o->svg || o->verify || sources_arg || chunks_arg ||
            o->check || o->stats)
            return schedgen_bad("%s", "--package takes --coll SPECs (and --asm, --quiet) only: the algorithm, root and chunks "
                             "of each collective go in its SPEC");
        int ps = parse_specs(&shape, o->specs, o->nspecs, o->parsed);
        return ps ? ps : -1;
    }
    if (o->nspecs || o->asm_out) return schedgen_bad("%s", "--coll and --asm go with --package FILE");

    if (o->verify) return -1;

    if (!algo_arg) return schedgen_bad("missing --algo (one of: %s)", algo_list());
    int algo = sched_algo_from_name(algo_arg);
    if (algo < 0) {
        char text[700];
        snprintf(text, sizeof text, "%s' (the algorithms: %s)", algo_arg, algo_list());
        return schedgen_bad("unknown --algo '%s", text);
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
            return schedgen_bad("bad --chunks '%s", text);
        }
        if (algo != SCHED_ALGO_BCAST_EDST)
            return schedgen_bad("--chunks applies to bcast-edst only, not to %s", algo_arg);
        chunks = (uint32_t)v;
    }
    int32_t rc3[SCHED_MAX_DIMS] = {0, 0, 0};
    if (root_arg) {
        long r[3];
        int nr = parse_list(root_arg, ',', r, 3);
        if (nr < 0)
            return schedgen_bad(nd == 3 ? "bad --root '%s': give one coordinate per dimension as decimal numbers joined by "
                                 "commas, like 3,4,1"
                               : "bad --root '%s': give one coordinate per dimension as decimal numbers joined by "
                                 "commas, like 3,4", root_arg);
        if (nr != nd)
            return schedgen_bad(nd == 3 ? "bad --root '%s': give one coordinate per dimension (this shape has 3), like 3,4,1"
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
                return schedgen_bad("bad --root '%s", text);
            }
            rc3[d] = (int32_t)r[d];
        }
    }
    o->algo = algo;
    o->chunks = chunks;
    o->root = sched_node_id(&shape, rc3);
    for (int k = 0; k < ndead_args; k++) {
        /* X,Y[,Z]:P: the cable that leaves node (X,Y[,Z]) by port P (2 dim + 0 for +, + 1 for -);
         * the parser mesh-sim shares (tools/sched/base/sched_args.h) */
        char err[300];
        sched_link_arg link;
        if (sched_parse_link_arg(&shape, "--dead-link", "it leaves by", dead_args[k], 0, &link, err, sizeof err))
            return schedgen_bad("%s", err);
        o->dead[o->ndead++] = link.node * 2u * (uint32_t)nd + link.port;
        o->dead[o->ndead++] = link.far * 2u * (uint32_t)nd + (link.port ^ 1u);
    }
    if (o->ndead) o->check = 1;   /* a schedule for a damaged machine is always proved */
    if (sources_arg) {
        char err[256];
        o->srcset = malloc(sched_nodes(&shape));
        if (!o->srcset) { fprintf(stderr, "schedgen: out of memory\n"); return 1; }
        if (sched_coll_parse_sources(sources_arg, &shape, o->srcset, err, sizeof err)) {
            schedgen_opts_free(o);
            return schedgen_bad("%s", err);
        }
    }
    return -1;
}

void schedgen_opts_free(schedgen_opts *o)
{
    free(o->srcset);
    o->srcset = 0;
}
