/* SPDX-License-Identifier: ISC */
/* Board boot test program: prints what the NI says this node is (coordinates, shape,
 * index; set by the boot ROM from the flash image) and mhartid, then exits 0. Run by
 * tests/boards/test_board_boot.sh on the simulated board. */
#include <stdint.h>
#include <stdio.h>

#include "rvmesh_rt.h"

#define NI_REG(off) (*(volatile uint32_t *)(0x20000000u + (off)))

int main(void)
{
    uint32_t coord = NI_REG(0x004), shape = NI_REG(0x008), node = NI_REG(0x00c);
    printf("board_id: coord %lu,%lu shape %lux%lu %s node %lu of %lu hart %lu\n",
           (unsigned long)(coord & 255u), (unsigned long)((coord >> 8) & 255u),
           (unsigned long)(shape & 255u), (unsigned long)((shape >> 8) & 255u),
           (shape >> 28) & 1u ? "torus" : "mesh", (unsigned long)(node & 0xffffu),
           (unsigned long)(node >> 16), (unsigned long)RVMESH_CSR_READ(mhartid));
    return 0;
}
