/* SPDX-License-Identifier: ISC
 * schedgen's command line, read apart from the work it asks for (schedgen.c): main() is
 * schedgen_parse, then schedgen_run. The fuzz harness (tests/fuzz/fuzz_schedgen_args.c)
 * calls schedgen_parse alone, which checks every option and writes nothing. Host only. */
#ifndef RVMESH_SCHEDGEN_H
#define RVMESH_SCHEDGEN_H

#include <stdint.h>

#include "sched.h"

#define PKG_MAX_SPECS 32

/* one table of a --coll SPEC: an algorithm, its chunks, the smallest block it serves */
typedef struct {
    int algo;
    uint32_t chunks, min_bytes;
} pkg_variant;

/* a --coll SPEC read: the collective, its root and the variants (tables) it asks for */
typedef struct {
    char text[128];   /* the collective's name as given */
    int coll, rooted, nv;
    uint32_t root;
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
} schedgen_opts;

/* Reads and checks the command line into o. Returns -1 when there is work to do
 * (schedgen_run), else the exit status (2: bad arguments, message on stderr). Touches no
 * file. Call schedgen_opts_free(o) afterwards in either case. */
int schedgen_parse(int argc, char **argv, schedgen_opts *o);
int schedgen_run(const schedgen_opts *o);
void schedgen_opts_free(schedgen_opts *o);

#endif
