/* SPDX-License-Identifier: ISC */
/* collectives: runs the collectives a host (mesh-sim --job TABLES:BYTES[:SEED]) wrote into
 * this program's jobs area, one after the other, on every node (firmware/coll/coll_runner.h
 * says what each job does; coll_jobs.h is the contract with the host).
 *
 * Memory (128 KiB of RAM per node, config.mk): code and data ~25 KiB, the stack
 * (drivers.mk), and one region of 98 KiB, the jobs area: the host writes the header, the
 * records and this node's tables at its start (jobs of one tables file share one copy), and
 * the rest is the arena (coll_jobs_spare): send buffer, result buffer, then the plan's
 * workspace (descriptors and transit slots). With tables of up to
 * COLLECTIVES_TABLES_BYTES the arena has at least COLLECTIVES_ARENA_BYTES. A job that does
 * not fit is refused by coll_plan_init ("send buffer too small", "result buffer too
 * small", "workspace too small") on the nodes short of room (the others time out), and the
 * next job runs. `make bench-coll` lists the largest block of each collective that fits;
 * measured on the 8x8 torus: scatter, gather and allgather (mnb-opt) up to 1 KiB blocks,
 * alltoall (te-a3) up to 256 B (its 8.3 KiB of tables, 32 KiB of buffers and 56,592 bytes
 * of workspace; until the area and the arena were one, 128 B).
 *
 * Exit status 0 only when every job returned COLL_OK and checked out (1 otherwise; 2 when
 * there is no NI).
 */
#include <stdio.h>

#include "coll.h"
#include "coll_jobs.h"
#include "coll_runner.h"
#include "rvmesh_rt.h"

#define COLLECTIVES_TABLES_BYTES 16384u
/* 1 KiB less since 2026-11-27: the code grew (planes, blocks) */
#define COLLECTIVES_ARENA_BYTES 83968u

COLL_JOBS_DEFINE(COLLECTIVES_TABLES_BYTES + COLLECTIVES_ARENA_BYTES);

int main(void)
{
    coll_ctx ctx;
    if (coll_init(&ctx, 0, 0) != COLL_OK) {
        printf("collectives: no network interface\n");
        return 2;
    }
    ctx.timeout_cycles = 100000u;    /* a lost worm ends the job (COLL_ETIMEOUT), not the run */
    coll_jobs_summary summary;
    uint32_t *arena;
    const uint32_t arena_bytes = coll_jobs_spare(rvmesh_jobs, sizeof rvmesh_jobs, &arena);
    int rc = coll_jobs_run(&ctx, rvmesh_jobs, sizeof rvmesh_jobs, arena, arena_bytes, &summary);
    if (ctx.ni.node == 0 && summary.jobs)
        printf("%lu of %lu jobs ok\n", (unsigned long)summary.ok, (unsigned long)summary.jobs);
    return rc;
}
