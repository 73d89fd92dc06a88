/* collectives: runs the collectives a host (mesh-sim --job TABLES:BYTES[:SEED]) wrote into
 * this program's jobs area, one after the other, on every node (firmware/coll/coll_runner.h
 * says what each job does; coll_jobs.h is the contract with the host).
 *
 * Memory (128 KiB of RAM per node, config.mk): code and data ~25 KiB, the stack
 * (drivers.mk), the jobs area COLLECTIVES_JOBS_BYTES (header, 64-byte records, this node's
 * tables), and the 80 KiB arena: send buffer, result buffer, then the plan's workspace
 * (descriptors and transit slots) in what is left. A job that does not fit is refused by
 * coll_plan_init ("send buffer too small", "result buffer too small", "workspace too
 * small") on the nodes short of room (the others time out), and the next job runs.
 * `make bench-coll` lists the largest block of each collective that fits; measured on the
 * 8x8 torus: scatter, gather and allgather (mnb-opt) up to 1 KiB blocks, alltoall (te-a3)
 * up to 128 B (at 256 B its transit slots need a 56,592-byte workspace).
 *
 * Exit status 0 only when every job returned COLL_OK and checked out (1 otherwise; 2 when
 * there is no NI).
 */
#include <stdio.h>

#include "coll.h"
#include "coll_jobs.h"
#include "coll_runner.h"
#include "rvmesh_rt.h"

#define COLLECTIVES_JOBS_BYTES 16384u
#define COLLECTIVES_ARENA_BYTES 81920u

COLL_JOBS_DEFINE(COLLECTIVES_JOBS_BYTES);
static uint32_t arena[COLLECTIVES_ARENA_BYTES / 4u] __attribute__((aligned(16)));

int main(void)
{
    coll_ctx ctx;
    if (coll_init(&ctx, 0, 0) != COLL_OK) {
        printf("collectives: no network interface\n");
        return 2;
    }
    ctx.timeout_cycles = 100000u;    /* a lost worm ends the job (COLL_ETIMEOUT), not the run */
    coll_jobs_summary summary;
    int rc = coll_jobs_run(&ctx, rvmesh_jobs, sizeof rvmesh_jobs, arena, sizeof arena, &summary);
    if (ctx.ni.node == 0 && summary.jobs)
        printf("%lu of %lu jobs ok\n", (unsigned long)summary.ok, (unsigned long)summary.jobs);
    return rc;
}
