/* SPDX-License-Identifier: ISC */
/* Squashing: the instructions fetched after a taken branch, JAL, JALR, MRET, or a
 * trapping instruction must have no effect: no register write, no store, no CSR write,
 * and no trap of their own (illegal encodings, ECALL, faulting loads placed there). Also
 * hazards across a divider stall, and a trap right after a trap return. */
#include "isa_test.h"

TEST_BEGIN
    la      t3, sq_data
    li      a5, 0
    /* taken branches over a register write, a store, a CSR write and an illegal word */
    csrw    mscratch, x0
    li      a1, 1
    beq     a1, a1, 1f
    addi    a5, a5, 1
    sw      a1, 0(t3)
    csrw    mscratch, a1
    .word   0
1:  bne     a1, x0, 1f
    .word   0
    ecall
1:  blt     x0, a1, 1f
    ebreak
1:  bge     a1, x0, 1f
    lw      a5, 0(x0)               /* would fault */
1:  bltu    x0, a1, 1f
    .word   0xffffffff
1:  bgeu    a1, x0, 1f
    addi    a5, a5, 2
1:  TEST_EQ(1, a5, 0)
    lw      a4, 0(t3)
    TEST_EQ(2, a4, 0)
    csrr    a4, mscratch
    TEST_EQ(3, a4, 0)
    /* JAL and JALR over the same */
    jal     ra, 1f
    addi    a5, a5, 1
    .word   0
1:  la      a2, 2f
    jalr    ra, 0(a2)
    sw      a1, 0(t3)
    ecall
2:  TEST_EQ(4, a5, 0)
    lw      a4, 0(t3)
    TEST_EQ(5, a4, 0)
    /* MRET over an illegal word and a register write */
    li      t0, 0x1800
    csrs    mstatus, t0
    la      a2, 1f
    csrw    mepc, a2
    mret
    addi    a5, a5, 1
    .word   0
1:  TEST_EQ(6, a5, 0)
    /* ECALL: the instructions after it run once, after the handler (counted in s7) */
    TEST_TRAP_ANY_TVAL(7, 11, ecall)
    addi    a5, a5, 1
    TEST_EQ(8, a5, 1)
    /* a trap right after a trap return: two traps in a row, both seen */
    TEST_TRAP_ANY_TVAL(9, 11, ecall)
    TEST_TRAP(10, 2, 0, .word 0)
    TEST_EQ(11, s7, 3)
    /* an illegal instruction right after a taken branch into it is not squashed */
    li      gp, 12
    li      s9, 2
    li      s10, 0
    li      s6, 1
    la      s11, sq_target
    la      s8, 1f
    la      t0, isa_expected_trap
    csrw    mtvec, t0
    j       sq_target
    nop
sq_target:
    .word   0
    j       isa_fail_no_trap
1:  la      t0, isa_unexpected_trap
    csrw    mtvec, t0
    TEST_EQ(13, s7, 4)

    /* hazards across a divider stall: producers at distance 2 and 3 before a divide */
    li      a1, 1000000
    li      a2, 7
    li      a3, 11
    addi    a6, x0, 5               /* distance 3 from the add */
    addi    a7, x0, 6               /* distance 2 */
    div     a4, a1, a2              /* stalls; distance 1 */
    add     a4, a4, a6
    add     a4, a4, a7
    TEST_EQ(20, a4, 142857 + 11)
    /* a divide whose operands come from the two instructions before it */
    li      a1, 100
    addi    a1, a1, 1               /* 101 */
    addi    a2, x0, 10
    rem     a4, a1, a2
    TEST_EQ(21, a4, 1)
    /* two divides back to back, the second using the first */
    li      a1, 1000
    li      a2, 3
    divu    a3, a1, a2              /* 333 */
    divu    a4, a3, a2              /* 111 */
    TEST_EQ(22, a4, 111)
    /* a load right after a divide, both used next */
    divu    a3, a1, a2
    lw      a6, 4(t3)               /* 0x1234 */
    add     a4, a3, a6
    TEST_EQ(23, a4, 333 + 0x1234)
    /* a store right after a divide stores the quotient */
    divu    a3, a1, a2
    sw      a3, 8(t3)
    lw      a4, 8(t3)
    TEST_EQ(24, a4, 333)
    /* a branch on a quotient, taken */
    divu    a3, a1, a2
    li      a5, 0
    bnez    a3, 1f
    addi    a5, a5, 1
1:  TEST_EQ(25, a5, 0)
    /* a register written twice in a row, then read at distance 1 and 2 */
    li      a1, 1
    li      a1, 2
    add     a4, a1, x0
    add     a4, a4, a1
    TEST_EQ(26, a4, 4)
    TEST_PASS
TEST_END

    .data
    .balign 4
sq_data: .word 0, 0x1234, 0, 0
