/* SPDX-License-Identifier: ISC */
/* rvmesh collectives: running the jobs a host wrote into the jobs area (coll_jobs.h).
 *
 * coll_jobs_run() does, for each job record j: open this node's table (coll_open_table),
 * lay out the send buffer, the result buffer and the workspace in the caller's arena (each
 * as large as the collective needs, as far as the arena goes: a job that does not fit is
 * refused by the call with COLL_ESEND_SPACE / COLL_ERECV_SPACE / COLL_EWORKSPACE), fill the
 * send buffer with the coll_pattern blocks this node owns and the result buffer with
 * COLL_POISON, record mcycle, run the collective picked by the table (coll_run), record
 * mcycle again, fill in the record (status, buffers, err_*), check its own result block by
 * block (printing the first bad one with its sender and step from the table), then the
 * handshake: done = j + 1 and, with COLL_JOBS_HOST_CHECK, wait until ack == j + 1.
 *
 * Node 0 prints one line per job; other nodes print only errors.
 */
#ifndef RVMESH_COLL_RUNNER_H
#define RVMESH_COLL_RUNNER_H

#include <stdint.h>

#include "coll.h"

typedef struct {
    uint32_t jobs;          /* records in the area (0 when no host wrote it) */
    uint32_t ok;            /* jobs whose collective returned COLL_OK and whose result checked */
} coll_jobs_summary;

/* area: the program's rvmesh_jobs (COLL_JOBS_DEFINE); arena: word aligned memory for the
 * buffers and the workspace. ctx must be initialised (coll_init; its workspace is replaced
 * per job). Returns 0 when every job was OK (also when there were none), else 1. */
int coll_jobs_run(coll_ctx *ctx, uint32_t *area, uint32_t area_bytes, uint32_t *arena, uint32_t arena_bytes,
                  coll_jobs_summary *summary);

/* The part of the jobs area after what the host wrote (header, records, tables), from a
 * 16-byte boundary: *spare and its bytes (the whole area when no host wrote it; 0 bytes
 * when nothing is left). A program may take it as the arena: the jobs only read their
 * tables. */
uint32_t coll_jobs_spare(uint32_t *area, uint32_t area_bytes, uint32_t **spare);

#endif
