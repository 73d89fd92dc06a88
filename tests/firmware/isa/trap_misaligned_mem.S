/* SPDX-License-Identifier: ISC */
/* Misaligned loads (mcause 4) and stores (mcause 6): mepc = the instruction, mtval = the
 * address; a trapping load leaves rd unwritten, a trapping store leaves memory unchanged.
 * Byte accesses and naturally aligned halves/words at every legal offset do not trap.
 * QEMU-SKIP: qemu performs misaligned loads/stores instead of trapping (the core traps)
 */
#include "isa_test.h"

TEST_BEGIN
    la      a1, mis_data
    /* aligned accesses at every legal offset: no trap */
    lb      a5, 1(a1)
    lb      a5, 3(a1)
    lbu     a5, 2(a1)
    lh      a5, 2(a1)
    lhu     a5, 6(a1)
    sb      a5, 3(a1)
    sh      a5, 2(a1)
    TEST_EQ(1, s7, 0)
    /* loads */
    li      a5, 0x5a5a5a5a
    TEST_TRAP(2, 4, mis_data + 1, lw a5, 1(a1))
    TEST_TRAP(3, 4, mis_data + 2, lw a5, 2(a1))
    TEST_TRAP(4, 4, mis_data + 3, lw a5, 3(a1))
    TEST_TRAP(5, 4, mis_data + 1, lh a5, 1(a1))
    TEST_TRAP(6, 4, mis_data + 3, lh a5, 3(a1))
    TEST_TRAP(7, 4, mis_data + 5, lhu a5, 5(a1))
    TEST_TRAP(8, 4, mis_data + 7, lhu a5, 7(a1))
    TEST_EQ(9, a5, 0x5a5a5a5a)              /* rd never written */
    /* misaligned through the base register instead of the offset */
    addi    a2, a1, 6
    TEST_TRAP(10, 4, mis_data + 6, lw a5, 0(a2))
    addi    a2, a1, 9
    TEST_TRAP(11, 4, mis_data + 7, lw a5, -2(a2))
    /* stores */
    li      a2, 0xffffffff
    TEST_TRAP(20, 6, mis_data + 1, sw a2, 1(a1))
    TEST_TRAP(21, 6, mis_data + 2, sw a2, 2(a1))
    TEST_TRAP(22, 6, mis_data + 3, sw a2, 3(a1))
    TEST_TRAP(23, 6, mis_data + 1, sh a2, 1(a1))
    TEST_TRAP(24, 6, mis_data + 7, sh a2, 7(a1))
    /* memory unchanged by the trapping stores (only the aligned sb/sh above wrote) */
    lw      a4, 4(a1)
    TEST_EQ(25, a4, 0x76543210)
    TEST_EQ(26, s7, 14)
    TEST_PASS
TEST_END

    .data
    .balign 4
mis_data: .word 0x01234567, 0x76543210, 0, 0
