/* SPDX-License-Identifier: ISC
 * schedgen's command line, read apart from the work it asks for: main() (schedgen.c) is
 * schedgen_parse (schedgen_args.c), then schedgen_run (schedgen.c). The fuzz harness (tests/fuzz/fuzz_schedgen_args.c)
 * calls schedgen_parse alone, which checks every option and writes nothing. Host only. */
#ifndef RVMESH_SCHEDGEN_H
#define RVMESH_SCHEDGEN_H

#include <stdint.h>
#include <stdio.h>

#include "sched.h"

#define PKG_MAX_SPECS 32
#define SCHEDGEN_MAX_DEAD 16   /* --dead-link options */
#define PKG_MAX_ITEMS 96   /* tables in one package */

/* one table of a --coll SPEC: an algorithm, its chunks, the smallest block it serves */
typedef struct {
    int algo;
    uint32_t chunks, min_bytes;
} pkg_variant;

/* a --coll SPEC read: the collective, its root and the variants (tables) it asks for */
typedef struct {
    char text[128];   /* the collective's name as given */
    int coll, rooted, nv;
    int group;        /* 0: the machine; 1: its rows (row.COLL), 2: its columns (col.COLL), 3: its pillars (pil.COLL),
                         4: its XY planes (pln.COLL), SCHED_LINE_BLOCK(bx, by) (sched_table.h):
                         its bx x by blocks (blkBXxBY.COLL) */
    uint32_t root;    /* a node id; on rows and columns a rank of the line */
    pkg_variant v[4];
} pkg_spec;

typedef struct {
    int help, torus, check, quiet, stats;
    sched_shape shape;
    const char *dump, *tables, *svg, *verify, *package, *asm_out;
    const char *specs[PKG_MAX_SPECS + 1];
    int nspecs;
    pkg_spec parsed[PKG_MAX_SPECS];
    int algo;
    uint32_t chunks, root;
    uint8_t *srcset;   /* --sources: one byte per node (allocated; schedgen_opts_free) */
    uint32_t dead[2 * SCHEDGEN_MAX_DEAD];   /* --dead-link: directed links (both ways of each) */
    uint32_t ndead;
} schedgen_opts;

/* Reads and checks the command line into o. Returns -1 when there is work to do
 * (schedgen_run), else the exit status (2: bad arguments, message on stderr). Touches no
 * file. Call schedgen_opts_free(o) afterwards in either case. */
int schedgen_parse(int argc, char **argv, schedgen_opts *o);
int schedgen_run(const schedgen_opts *o);
void schedgen_opts_free(schedgen_opts *o);
/* The usage text; and "schedgen: <fmt with what>" on stderr, returning 2 (schedgen_args.c). */
void schedgen_usage(FILE *f);
/* The shape a --coll spec's tables are built for: the machine's (group 0), or one of its rows
 * (1: Xx1, Xx1x1), columns (2: 1xY, 1xYx1), pillars (3: 1x1xZ) or XY planes (4: the 2-D XxY) */
void schedgen_group_shape(const sched_shape *machine, int group, sched_shape *line);
/* "default" on a ring of n nodes: bcast-edst's chunks per tree and the smallest block it
 * broadcasts (saf-bcast below): one chunk on rings of up to SCHEDGEN_RING_EDST_MAX, 8 on longer */
#define SCHEDGEN_RING_EDST_MAX 8u
void schedgen_ring_edst(uint32_t n, uint32_t *chunks, uint32_t *min_bytes);
int schedgen_bad(const char *fmt, const char *what);

#endif
