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
/* SVG picture: one panel per step, one colour per step. */
int sched_write_svg(const sched_schedule *s, FILE *f);

#endif
