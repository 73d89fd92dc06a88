/* SPDX-License-Identifier: ISC
 * tests/sim/mesh/test_mesh_report.sh: what mesh-sim --report and --junit say of a program.
 * Every node times a region "work" (until the machine-wide cycle 30,000) and a region
 * "print" (by its handle), prints a line with characters JSON and XML must escape, and exits: node 5 with
 * status 3, the others with 0. */
#include <stdio.h>

#include "rvmesh_rt.h"

int main(void)
{
    const uint32_t node = RVMESH_CSR_READ(mhartid);
    rvmesh_region_begin("work");
    while (rvmesh_cycles() < 30000u)
        ;
    rvmesh_region_end("work", 0);
    /* "print" by its handle (rvmesh_region_of/enter/leave, as the kit times its calls) */
    struct rvmesh_region *print = rvmesh_region_of("print");
    rvmesh_region_enter(print);
    printf("node %lu: \"quoted\" <tag> & \\back\\slash\tdone\n", (unsigned long)node);
    if (rvmesh_region_leave(print, 0) != 0 || rvmesh_region_leave(print, 0) != -1 || rvmesh_region_leave(0, 0) != -1 ||
        rvmesh_region_of("") != 0)
        return 9;   /* a second leave, a NULL handle and an empty name are refused */
    return node == 5 ? 3 : 0;
}
