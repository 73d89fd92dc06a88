/* SPDX-License-Identifier: ISC */
/* The smallest rvmesh program: prints a line and its own cycle count, exits 0. */
#include <stdio.h>

#include "rvmesh_rt.h"

int main(void)
{
    uint64_t start = rvmesh_cycles();
    printf("hello from rvmesh node (RAM %lu bytes)\n", (unsigned long)RVMESH_RAM_BYTES);
    printf("printf took %lu cycles\n", (unsigned long)(rvmesh_cycles() - start));
    return 0;
}
