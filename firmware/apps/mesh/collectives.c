/* collectives: runs the collectives a host (mesh-sim --job TABLES:BYTES[:SEED]) wrote into
 * this program's jobs area, one after the other, on every node (firmware/coll/coll_runner.h
 * says what each job does; coll_jobs.h is the contract with the host).
 *
 * Memory (64 KiB of RAM per node): code and data ~25 KiB, stack 3 KiB (drivers.mk), the jobs area
 * COLLECTIVES_JOBS_BYTES (header, 64-byte records, this node's tables: one 5x5-torus
 * alltoall table is 1968 bytes, a 4x4 one 1072, so 8 KiB holds a 5x5 alltoall job with a
 * dozen small ones, or six 4x4 alltoall jobs), and the 27 KiB arena for send buffer,
 * result buffer and workspace (COLLECTIVES_ARENA_BYTES). On the 4x4 torus an alltoall of m bytes needs
 * 16m + 16m + (transit pieces) m + 1 KiB of descriptors: m up to 512 fits, 1 KiB is
 * refused with "result buffer too small"; allgather and the rest fit up to 1 KiB.
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
