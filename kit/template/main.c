/* SPDX-License-Identifier: ISC
 * A first rvmesh program (docs/first-program.md): every node runs this same program.
 * Node 0 has a vector; rvm_bcast gives it to every node; each node computes its share of
 * the dot product x . x; rvm_allgather gives every node every share; every node adds them up
 * and checks the total. A node that finds a wrong total returns 1, and the run fails. */
#include <stdio.h>

#include "rvmesh.h"

#ifndef LEN
#define LEN 256                      /* the vector's length (CFLAGS := -DLEN=512 changes it) */
#endif

static int32_t x[LEN];               /* node 0 fills it; rvm_bcast copies it to every node */
static int32_t share[1];             /* this node's share of the dot product */
static int32_t shares[RVM_NODES];    /* every node's share, after rvm_allgather */

int main(void)
{
    rvm_init();                      /* as MPI_Init: opens the collectives the Makefile declares */
    const uint32_t me = rvm_node(), nodes = rvm_nodes();

    if (me == 0)
        for (int i = 0; i < LEN; i++)
            x[i] = i + 1;
    rvm_bcast(x, sizeof x, 0);       /* from node 0 to every node */

    int32_t sum = 0;
    for (uint32_t i = me; i < LEN; i += nodes)
        sum += x[i] * x[i];
    share[0] = sum;
    rvm_allgather(share, shares, sizeof share);   /* node k's share lands in shares[k] */

    int32_t total = 0;
    for (uint32_t k = 0; k < nodes; k++)
        total += shares[k];
    const int32_t want = LEN * (LEN + 1) * (2 * LEN + 1) / 6;
    if (total != want) {
        printf("node %lu: dot product %ld, want %ld\n", (unsigned long)me, (long)total, (long)want);
        return 1;
    }
    if (me == 0)
        printf("dot product %ld on %lu nodes: ok (%lu cycles in collectives on node 0)\n", (long)total,
               (unsigned long)nodes, (unsigned long)rvmesh_region_get(RVM_COMM_REGION)->cycles);
    return 0;
}
