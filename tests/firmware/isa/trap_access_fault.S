/* SPDX-License-Identifier: ISC */
/* Access faults: a load from an address where nothing is mapped raises mcause 5, a store
 * mcause 7; mepc = the instruction, mtval = the address; the load leaves rd unwritten.
 * 0x90000000 is unmapped on the node (RAM is 64 KiB at 0x80000000) and on qemu virt. */
#include "isa_test.h"

TEST_BEGIN
    li      a1, 0x90000000
    li      a5, 0x17171717
    TEST_TRAP(1, 5, 0x90000000, lw a5, 0(a1))
    TEST_TRAP(2, 5, 0x90000004, lb a5, 4(a1))
    TEST_TRAP(3, 5, 0x8ffffffe, lhu a5, -2(a1))
    TEST_EQ(4, a5, 0x17171717)
    TEST_TRAP(5, 7, 0x90000000, sw a5, 0(a1))
    TEST_TRAP(6, 7, 0x90000008, sb a5, 8(a1))
    TEST_TRAP(7, 7, 0x90000002, sh a5, 2(a1))
    li      a1, 0xf0000000
    TEST_TRAP(8, 5, 0xf0000010, lw a5, 16(a1))
    TEST_TRAP(9, 7, 0xf0000010, sw a5, 16(a1))
    /* RAM still works afterwards */
    la      a1, af_data
    lw      a4, 0(a1)
    TEST_EQ(10, a4, 0xacce55ed)
    TEST_EQ(11, s7, 8)
    TEST_PASS
TEST_END

    .data
    .balign 4
af_data: .word 0xacce55ed
