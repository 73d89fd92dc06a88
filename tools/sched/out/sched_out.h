/* SPDX-License-Identifier: ISC */
/* Host-side writers of the schedule library (stdio, malloc): text dump, tables file, SVG. */
#ifndef RVMESH_SCHED_OUT_H
#define RVMESH_SCHED_OUT_H

#include <stdio.h>

#include "sched.h"
#include "sched_table.h"

/* "3,4" or "3,4,1" */
void sched_coord_text(const sched_shape *shape, uint32_t id, char *buf, size_t len);
/* "8x8" or "4x4x4" */
void sched_shape_text(const sched_shape *shape, char *buf, size_t len);
/* Text dump: two '#' header lines, then one line per message: step src dst start_dim dir
 * (plus the piece's node for scatter and gather). */
int sched_write_dump(const sched_schedule *s, FILE *f);
/* Tables of nodes 0..N-1, back to back. Reports the largest table and the sum. */
int sched_write_tables(const sched_schedule *s, FILE *f, uint32_t *max_bytes, uint64_t *total_bytes);
/* Every node's table of s, node 0 first: sink(ctx, node, table, bytes) for each (a non-zero
 * return stops it). Returns 0, or -1 (out of memory, or the sink's refusal). */
typedef int (*sched_table_sink)(void *ctx, uint32_t node, const uint8_t *table, uint32_t bytes);
int sched_each_table(const sched_schedule *s, sched_table_sink sink, void *ctx);

/* A program's package (sched_table.h: every node's area, each with its own table of every
 * item, in item order). An item is a schedule of the package's shape and the smallest block
 * it is for. */
typedef struct {
    const sched_schedule *s;
    uint32_t min_bytes;
    uint8_t group;   /* 0: s is of the package's shape; 1 + d: s is of a line along dimension d
                      * (a row Xx1, a column 1xY), and node v holds the table of its rank in its
                      * line (coordinate d); 4: s is of an XY plane of a 3-D machine (the 2-D
                      * XxY), node v holds its rank's, x + X*y; SCHED_LINE_BLOCK(bx, by): s is
                      * of a block of a 2-D machine (bxxby), node v holds its rank's, x % bx +
                      * bx * (y % by); the entry's flags say which */
} sched_pkg_item;
typedef struct {
    uint32_t area_bytes;      /* the largest area: what a node holds, and the image reserves */
    uint32_t total_bytes;     /* the package */
    double mean_area_bytes;
} sched_pkg_info;
int sched_write_package(const sched_shape *shape, const sched_pkg_item *items, uint32_t count, FILE *f,
                        sched_pkg_info *info);
/* SVG picture: one panel per step, one colour per step. */
int sched_write_svg(const sched_schedule *s, FILE *f);

#endif
