/* SPDX-License-Identifier: ISC */
/* mesh-sim check: node 5 prints a line without a newline and exits with status 7 at once;
 * every other node prints a line and exits 0 later (so node 5 is the first failure). */
#include <stdio.h>

#include "linkport.h"
#include "rvmesh_rt.h"

int main(void)
{
    unsigned node = ni_node();
    if (node == 5) {
        printf("node 5 fails");
        return 7;
    }
    uint64_t start = rvmesh_cycles();
    while (rvmesh_cycles() - start < 2000)
        ;
    printf("node %u done\n", node);
    return 0;
}
