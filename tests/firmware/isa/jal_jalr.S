/* SPDX-License-Identifier: ISC */
/* JAL and JALR: link values (pc + 4), rd = x0, rd = rs1, JALR clearing bit 0 of the
 * target, negative JALR offsets, far JAL offsets (bit 11 and the upper immediate bits),
 * and misaligned (2-byte) targets trapping with mcause 0, mepc = the jump, mtval = the
 * target, and rd left unwritten. */
#include "isa_test.h"

TEST_BEGIN
    .option norelax
    /* JAL link value */
    li      gp, 1
jal_1:
    jal     a4, jal_1_target
    j       isa_fail
jal_1_target:
    lui     t2, %hi(jal_1 + 4)
    addi    t2, t2, %lo(jal_1 + 4)
    bne     a4, t2, isa_fail
    /* JAL rd = x0 (plain jump) leaves x0 zero */
    li      gp, 2
    jal     x0, 1f
    j       isa_fail
1:  TEST_EQ(3, x0, 0)
    /* JAL skips the instructions after it */
    li      a4, 0
    jal     t3, 1f
    addi    a4, a4, 1
    addi    a4, a4, 2
1:  TEST_EQ(4, a4, 0)
    /* JALR link value and target */
    li      gp, 5
    la      a1, jalr_5_target
jalr_5:
    jalr    a4, 0(a1)
    j       isa_fail
jalr_5_target:
    lui     t2, %hi(jalr_5 + 4)
    addi    t2, t2, %lo(jalr_5 + 4)
    bne     a4, t2, isa_fail
    /* JALR with a positive and a negative offset */
    li      gp, 6
    la      a1, jalr_6_target - 100
    jalr    x0, 100(a1)
    j       isa_fail
jalr_6_target:
    li      gp, 7
    la      a1, jalr_7_target + 2047
    jalr    x0, -2047(a1)
    j       isa_fail
jalr_7_target:
    /* JALR clears bit 0 of rs1 + offset: odd register, odd offset */
    li      gp, 8
    la      a1, jalr_8_target + 1
    jalr    x0, 0(a1)
    j       isa_fail
jalr_8_target:
    li      gp, 9
    la      a1, jalr_9_target
    jalr    x0, 1(a1)
    j       isa_fail
jalr_9_target:
    li      gp, 10
    la      a1, jalr_10_target - 1
    jalr    x0, 2(a1)           /* -1 + 2 = +1, bit 0 cleared */
    j       isa_fail
jalr_10_target:
    /* JALR rd = rs1: the target uses the old value, rd gets the link */
    li      gp, 11
    la      a1, jalr_11_target
jalr_11:
    jalr    a1, 0(a1)
    j       isa_fail
jalr_11_target:
    lui     t2, %hi(jalr_11 + 4)
    addi    t2, t2, %lo(jalr_11 + 4)
    bne     a1, t2, isa_fail
    /* call/return through ra */
    li      a4, 0
    call    jal_subroutine
    call    jal_subroutine
    TEST_EQ(12, a4, 2)
    /* target register written right before the JALR */
    li      gp, 13
    la      a1, jalr_13_target - 8
    addi    a1, a1, 8
    jalr    x0, 0(a1)
    j       isa_fail
jalr_13_target:
    /* instructions after a JALR must not run */
    li      a4, 0
    la      a1, 1f
    jalr    x0, 0(a1)
    addi    a4, a4, 1
    addi    a4, a4, 1
1:  TEST_EQ(14, a4, 0)

    /* far JAL: +2048 (bit 11 of the immediate) */
    li      gp, 20
jal_far_1:
    jal     a4, jal_far_1_target
    j       isa_fail
    .fill   (2048 - 8) / 4, 4, 0
jal_far_1_target:
    lui     t2, %hi(jal_far_1 + 4)
    addi    t2, t2, %lo(jal_far_1 + 4)
    bne     a4, t2, isa_fail
    /* far JAL: +0x5554 (alternate bits 2..14) */
    li      gp, 21
    jal     x0, jal_far_2_target
    j       isa_fail
    .fill   (0x5554 - 8) / 4, 4, 0
jal_far_2_target:
    /* far JAL backward: -0x2aac, then -2048 */
    li      gp, 22
    j       jal_far_3
jal_far_3_target:
    j       jal_far_3_done
    .fill   (0x2aac - 4) / 4, 4, 0
jal_far_3:
    jal     ra, jal_far_3_target
    j       isa_fail
jal_far_3_done:
    li      gp, 23
    j       jal_far_4
jal_far_4_target:
    j       jal_far_4_done
    .fill   (2048 - 4) / 4, 4, 0
jal_far_4:
    jal     ra, jal_far_4_target
    j       isa_fail
jal_far_4_done:

    /* misaligned targets: JAL +2, JAL +6 backward-free, JALR to +2, JALR odd+2 */
    /* (a5 as rd: the trap handler uses a4) */
    li      a5, 0x5a5a5a5a
    TEST_TRAP_ANY_TVAL(30, 0, jal_mis_1: jal a5, jal_mis_1 + 2)  /* mtval: trap_target_mtval.S */
    TEST_EQ(31, a5, 0x5a5a5a5a)          /* rd not written by the trapping jump */
    TEST_TRAP_ANY_TVAL(32, 0, jal_mis_2: jal x0, jal_mis_2 + 6)
    la      a1, jalr_mis_3 + 2
    li      a5, 0x12121212
    TEST_TRAP(33, 0, jalr_mis_3 + 2, jalr_mis_3: jalr a5, 0(a1))
    TEST_EQ(34, a5, 0x12121212)
    la      a1, jalr_mis_5
    TEST_TRAP(35, 0, jalr_mis_5 + 2, jalr_mis_5: jalr a5, 3(a1))  /* +3, bit 0 cleared: +2 */
    /* JALR rd = rs1 that traps keeps rs1 */
    la      a1, jalr_mis_6 + 2
    mv      t3, a1
    TEST_TRAP(36, 0, jalr_mis_6 + 2, jalr_mis_6: jalr a1, 0(a1))
    TEST_EQ_REG(37, a1, t3)
    TEST_EQ(38, s7, 5)
    TEST_PASS

jal_subroutine:
    addi    a4, a4, 1
    ret
TEST_END
