/* SPDX-License-Identifier: ISC */
/* BEQ, BNE, BLT, BGE, BLTU, BGEU: taken and not taken at the signed/unsigned
 * boundaries, equal operands, the same register twice, x0, a counted backward loop. */
#include "isa_test.h"

TEST_BEGIN
    /* BEQ */
    TEST_BR_TAKEN(1, beq, 0, 0)
    TEST_BR_TAKEN(2, beq, 0xffffffff, 0xffffffff)
    TEST_BR_TAKEN(3, beq, 0x80000000, 0x80000000)
    TEST_BR_NOT_TAKEN(4, beq, 0, 1)
    TEST_BR_NOT_TAKEN(5, beq, 0x80000000, 0x00000000)
    TEST_BR_NOT_TAKEN(6, beq, 0xfffffffe, 0xffffffff)
    /* BNE */
    TEST_BR_TAKEN(10, bne, 0, 1)
    TEST_BR_TAKEN(11, bne, 0x80000000, 0x00000000)
    TEST_BR_TAKEN(12, bne, 0x00000001, 0x80000001)
    TEST_BR_NOT_TAKEN(13, bne, 0, 0)
    TEST_BR_NOT_TAKEN(14, bne, 0xffffffff, 0xffffffff)
    /* BLT (signed) */
    TEST_BR_TAKEN(20, blt, 0, 1)
    TEST_BR_TAKEN(21, blt, 0xffffffff, 1)
    TEST_BR_TAKEN(22, blt, 0xfffffffe, 0xffffffff)
    TEST_BR_TAKEN(23, blt, 0x80000000, 0x7fffffff)
    TEST_BR_TAKEN(24, blt, 0x80000000, 0)
    TEST_BR_NOT_TAKEN(25, blt, 1, 0)
    TEST_BR_NOT_TAKEN(26, blt, 1, 0xffffffff)
    TEST_BR_NOT_TAKEN(27, blt, 0x7fffffff, 0x80000000)
    TEST_BR_NOT_TAKEN(28, blt, 5, 5)
    TEST_BR_NOT_TAKEN(29, blt, 0x80000000, 0x80000000)
    /* BGE (signed) */
    TEST_BR_TAKEN(30, bge, 0, 0)
    TEST_BR_TAKEN(31, bge, 1, 0)
    TEST_BR_TAKEN(32, bge, 1, 0xffffffff)
    TEST_BR_TAKEN(33, bge, 0x7fffffff, 0x80000000)
    TEST_BR_TAKEN(34, bge, 0xffffffff, 0xffffffff)
    TEST_BR_NOT_TAKEN(35, bge, 0, 1)
    TEST_BR_NOT_TAKEN(36, bge, 0xffffffff, 0)
    TEST_BR_NOT_TAKEN(37, bge, 0x80000000, 0x7fffffff)
    TEST_BR_NOT_TAKEN(38, bge, 0xfffffffe, 0xffffffff)
    /* BLTU (unsigned) */
    TEST_BR_TAKEN(40, bltu, 0, 1)
    TEST_BR_TAKEN(41, bltu, 1, 0xffffffff)
    TEST_BR_TAKEN(42, bltu, 0x7fffffff, 0x80000000)
    TEST_BR_TAKEN(43, bltu, 0xfffffffe, 0xffffffff)
    TEST_BR_NOT_TAKEN(44, bltu, 0xffffffff, 1)
    TEST_BR_NOT_TAKEN(45, bltu, 0x80000000, 0x7fffffff)
    TEST_BR_NOT_TAKEN(46, bltu, 7, 7)
    TEST_BR_NOT_TAKEN(47, bltu, 1, 0)
    /* BGEU (unsigned) */
    TEST_BR_TAKEN(50, bgeu, 0, 0)
    TEST_BR_TAKEN(51, bgeu, 0xffffffff, 1)
    TEST_BR_TAKEN(52, bgeu, 0x80000000, 0x7fffffff)
    TEST_BR_TAKEN(53, bgeu, 0xffffffff, 0xffffffff)
    TEST_BR_NOT_TAKEN(54, bgeu, 0, 1)
    TEST_BR_NOT_TAKEN(55, bgeu, 0x7fffffff, 0x80000000)
    TEST_BR_NOT_TAKEN(56, bgeu, 0xfffffffe, 0xffffffff)
    /* the same register on both sides */
    li      gp, 60
    li      a1, 0x80000000
    beq     a1, a1, 1f
    j       isa_fail
1:  bne     a1, a1, isa_fail
    blt     a1, a1, isa_fail
    bltu    a1, a1, isa_fail
    bge     a1, a1, 2f
    j       isa_fail
2:  bgeu    a1, a1, 3f
    j       isa_fail
3:
    /* x0 operands */
    li      gp, 61
    li      a1, -1
    blt     a1, x0, 1f
    j       isa_fail
1:  bltu    x0, a1, 2f
    j       isa_fail
2:  bgeu    x0, a1, isa_fail
    bge     x0, a1, 3f
    j       isa_fail
3:
    /* the branch must not write any register: a1/a2 unchanged after a taken and a not
     * taken branch */
    li      a1, 17
    li      a2, 18
    beq     a1, a1, 1f
1:  bne     a1, a1, isa_fail
    TEST_EQ(62, a1, 17)
    TEST_EQ(63, a2, 18)
    /* counted backward loop: 10 iterations, sum 0..9 */
    li      a1, 0
    li      a2, 0
    li      t3, 10
1:  add     a2, a2, a1
    addi    a1, a1, 1
    blt     a1, t3, 1b
    TEST_EQ(70, a2, 45)
    TEST_EQ(71, a1, 10)
    /* branch depending on the result of the instruction right before it */
    li      gp, 72
    li      a1, 5
    addi    a1, a1, -5
    bnez    a1, isa_fail
    addi    a1, a1, 1
    beqz    a1, isa_fail
    /* instructions right after a taken branch must not execute (flush) */
    li      a4, 0
    beq     x0, x0, 1f
    addi    a4, a4, 1
    addi    a4, a4, 2
    addi    a4, a4, 4
1:  TEST_EQ(73, a4, 0)
    /* backward taken branch also flushes what follows it */
    li      a4, 0
    li      a1, 2
1:  addi    a1, a1, -1
    bnez    a1, 1b
    addi    a4, a4, 1
    TEST_EQ(74, a4, 1)
    TEST_PASS
TEST_END
