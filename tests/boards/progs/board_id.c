/* SPDX-License-Identifier: ISC */
/* Board boot test program: prints what the NI says this node is (coordinates, shape,
 * index; set by the boot ROM from the flash image) and mhartid, and the sum of the first
 * 1024 words of its own code: loads from the SPRAM bank it executes from, each of which
 * steals the fetch's bank (tile.v); the test compares the sum with the ELF's. Exits 0.
 * Run by tests/boards/test_board_boot.sh on the simulated board. */
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
    const volatile uint32_t *code = (const volatile uint32_t *)RVMESH_RAM_BASE;
    uint32_t sum = 0;
    for (unsigned i = 0; i < 1024; i++)
        sum += code[i] ^ i;
    printf("board_id: code sum 0x%08lx\n", (unsigned long)sum);
    return 0;
}
