/* SPDX-License-Identifier: ISC
 * n-body with allgather, on every node of the machine (the application kit: kit/README.md).
 * NBODY_N bodies, NBODY_N / N on each node. Every step: rvm_allgather gives every node every
 * body's position and mass (a block of N/P bodies from each node), then each node moves its
 * own bodies (nbody.h). At the end every node compares its bodies with the host's reference
 * (ref.c, computed when the program is built) and exits 1 on the first difference.
 * Regions (the machine-wide cycle count, mesh-sim --report): "nbody" the steps, "comm" the
 * collectives in them (the kit counts it). make bench-apps reads them. */
#include <stdio.h>

#include "nbody.h"
#include "nbody_ref.h"
#include "rvmesh.h"

#if NBODY_N % RVM_NODES != 0
#error "NBODY_N must be a multiple of the machine's nodes"
#endif
#define MINE (NBODY_N / RVM_NODES)

static struct body all[NBODY_N];       /* every body, after the allgather */
static struct body mine[MINE];         /* this node's bodies: NBODY_N / N from node * that on */
static int32_t vel[MINE][3];

int main(void)
{
    rvm_init();
    const uint32_t node = rvm_node();
    for (uint32_t i = 0; i < MINE; i++)
        nbody_initial(node * MINE + i, &mine[i], vel[i]);

    rvmesh_region_begin("nbody");
    for (int s = 0; s < NBODY_STEPS; s++) {
        rvm_allgather(mine, all, sizeof mine);   /* node k's bodies land at all[k * MINE] */
        nbody_step(mine, vel, MINE, all, NBODY_N);
    }
    rvmesh_region_end("nbody", 0);

    for (uint32_t i = 0; i < MINE; i++) {
        const uint32_t b = node * MINE + i;
        if (mine[i].x != nbody_ref[b][0] || mine[i].y != nbody_ref[b][1] || mine[i].z != nbody_ref[b][2]) {
            printf("body %lu: (%ld,%ld,%ld), the host's reference says (%ld,%ld,%ld)\n", (unsigned long)b,
                   (long)mine[i].x, (long)mine[i].y, (long)mine[i].z, (long)nbody_ref[b][0], (long)nbody_ref[b][1],
                   (long)nbody_ref[b][2]);
            return 1;
        }
    }
    if (node == 0) {
        const struct rvmesh_region *r = rvmesh_region_get("nbody"), *c = rvmesh_region_get(RVM_COMM_REGION);
        printf("nbody: %d bodies, %d steps on %lu nodes: as the host's reference; node 0: %lu cycles, %lu in "
               "collectives\n", NBODY_N, NBODY_STEPS, (unsigned long)rvm_nodes(), (unsigned long)r->cycles,
               (unsigned long)c->cycles);
    }
    return 0;
}
