/* SPDX-License-Identifier: ISC */
/* The node's memory map: the last word of its RAM (RAM_BASE + RAM_BYTES - 4) is usable,
 * the first byte past it raises an access fault (mcause 5/7, mtval = the address).
 * QEMU-SKIP: qemu virt has 128 MiB of RAM, not the node's RAM_BYTES
 */
#include "isa_test.h"

/* linker/node.ld: __stack_top = ORIGIN(ram) + LENGTH(ram), the end of RAM */
#define RAM_END __stack_top

TEST_BEGIN
    la      a1, RAM_END
    li      a2, 0x3c3c3c3c
    sw      a2, -4(a1)
    lw      a4, -4(a1)
    TEST_EQ(1, a4, 0x3c3c3c3c)
    lbu     a4, -1(a1)
    TEST_EQ(2, a4, 0x3c)
    TEST_TRAP(3, 5, RAM_END, lw a5, 0(a1))
    TEST_TRAP(4, 5, RAM_END, lbu a5, 0(a1))
    TEST_TRAP(5, 7, RAM_END + 4, sw a2, 4(a1))
    TEST_TRAP(6, 7, RAM_END, sb a2, 0(a1))
    TEST_EQ(7, s7, 4)
    TEST_PASS
TEST_END
