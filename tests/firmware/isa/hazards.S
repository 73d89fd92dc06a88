/* SPDX-License-Identifier: ISC */
/* Pipeline hazards: read-after-write at distances 1..3 from ALU, load, MUL, DIV and CSR
 * producers into ALU, store data, store/load base, branch and JALR consumers; write
 * after write to one register. */
#include "isa_test.h"

TEST_BEGIN
    /* ALU -> ALU at distance 1, 2, 3 */
    li      a1, 10
    addi    a2, a1, 1
    addi    a3, a2, 1
    addi    a4, a3, 1
    TEST_EQ(1, a4, 13)
    li      a1, 10
    addi    a2, a1, 5
    nop
    add     a4, a2, a2
    TEST_EQ(2, a4, 30)
    li      a1, 10
    addi    a2, a1, 5
    nop
    nop
    add     a4, a2, a1
    TEST_EQ(3, a4, 25)
    /* both operands from the two previous instructions */
    li      a1, 3
    li      a2, 4
    slli    a1, a1, 4
    slli    a2, a2, 8
    or      a4, a1, a2
    TEST_EQ(4, a4, 0x430)
    /* write after write: the younger write wins for the reader */
    li      a1, 1
    li      a1, 2
    addi    a4, a1, 0
    TEST_EQ(5, a4, 2)
    li      a1, 5
    la      t3, hz_data
    lw      a1, 0(t3)           /* 0x11111111 */
    addi    a1, a1, 1
    mv      a4, a1
    TEST_EQ(6, a4, 0x11111112)
    /* load -> ALU at distance 1, 2, 3 */
    la      t3, hz_data
    lw      a2, 4(t3)           /* 0x22222222 */
    add     a4, a2, a2
    TEST_EQ(10, a4, 0x44444444)
    lw      a2, 4(t3)
    nop
    add     a4, a2, x0
    TEST_EQ(11, a4, 0x22222222)
    lw      a2, 4(t3)
    nop
    nop
    sub     a4, x0, a2
    TEST_EQ(12, a4, 0xddddddde)
    /* load -> store data */
    lw      a2, 0(t3)
    sw      a2, 12(t3)
    lw      a4, 12(t3)
    TEST_EQ(13, a4, 0x11111111)
    /* load -> store base */
    la      t3, hz_ptr
    lw      a2, 0(t3)           /* = hz_data */
    sw      t3, 8(a2)
    la      t4, hz_data
    lw      a4, 8(t4)
    TEST_EQ_REG(14, a4, t3)
    /* load -> load base (pointer chase) twice */
    la      t3, hz_ptr
    lw      a2, 0(t3)
    lw      a2, 4(a2)
    mv      a4, a2
    TEST_EQ(15, a4, 0x22222222)
    /* load -> branch */
    la      t3, hz_data
    lw      a2, 0(t3)
    li      gp, 16
    beqz    a2, isa_fail
    lw      a2, 16(t3)          /* 0 */
    bnez    a2, isa_fail
    /* load -> JALR target */
    la      t3, hz_target_ptr
    lw      a2, 0(t3)
    li      gp, 17
    jalr    x0, 0(a2)
    j       isa_fail
hz_target:
    /* store then load of the same word right away */
    la      t3, hz_data
    li      a2, 0x600d
    sw      a2, 20(t3)
    lw      a4, 20(t3)
    TEST_EQ(18, a4, 0x600d)
    /* byte store then word load of the same word */
    li      a2, 0xab
    sb      a2, 21(t3)
    lw      a4, 20(t3)
    TEST_EQ(19, a4, 0xab0d)
    /* MUL -> consumers */
    li      a1, 1000
    li      a2, 1000
    mul     a3, a1, a2
    addi    a4, a3, 1
    TEST_EQ(20, a4, 1000001)
    mul     a3, a1, a2
    mul     a4, a3, a2
    TEST_EQ(21, a4, 1000000000)
    mulhu   a3, a1, a2
    mul     a3, a1, a2
    add     a4, a3, x0
    TEST_EQ(22, a4, 1000000)
    /* DIV -> consumers, DIV -> DIV */
    li      a1, 1000000
    li      a2, 7
    div     a3, a1, a2
    addi    a4, a3, 0
    TEST_EQ(30, a4, 142857)
    div     a3, a1, a2
    div     a4, a3, a2
    TEST_EQ(31, a4, 20408)
    rem     a3, a1, a2
    rem     a4, a1, a3          /* 1000000 % 1 */
    TEST_EQ(32, a4, 0)
    divu    a3, a1, a2
    sw      a3, 24(t3)
    lw      a4, 24(t3)
    TEST_EQ(33, a4, 142857)
    /* a division whose result is overwritten by the next instruction */
    div     a4, a1, a2
    li      a4, 77
    TEST_EQ(34, a4, 77)
    /* a division into a register read by the next instruction as its old value's
     * replacement: the consumer must wait for the quotient */
    li      a4, 5
    divu    a4, a1, a2
    addi    a4, a4, 1
    TEST_EQ(35, a4, 142858)
    /* a division whose operand comes from a load right before it */
    lw      a2, 0(t3)           /* 0x11111111 */
    divu    a4, a2, a2
    TEST_EQ(36, a4, 1)
    /* division followed by a taken branch that skips a use */
    li      a4, 3
    divu    a3, a1, a2
    j       1f
    addi    a4, a4, 1
1:  TEST_EQ(37, a4, 3)
    /* CSR write -> CSR read -> ALU */
    li      a1, 0x1234
    csrw    mscratch, a1
    csrr    a2, mscratch
    addi    a4, a2, 1
    TEST_EQ(40, a4, 0x1235)
    /* ALU -> CSR write data */
    li      a1, 0x10
    addi    a1, a1, 0x20
    csrw    mscratch, a1
    csrr    a4, mscratch
    TEST_EQ(41, a4, 0x30)
    /* load -> CSR write data */
    lw      a1, 4(t3)
    csrw    mscratch, a1
    csrr    a4, mscratch
    TEST_EQ(42, a4, 0x22222222)
    /* CSR read -> branch */
    li      gp, 43
    csrr    a2, mscratch
    beqz    a2, isa_fail
    /* LUI/AUIPC -> consumers */
    lui     a1, 0x12345
    addi    a4, a1, 0x678
    TEST_EQ(44, a4, 0x12345678)
    /* JAL link -> consumer at the target */
    jal     a1, 1f
1:  la      t4, 1b
    sub     a4, a1, t4
    TEST_EQ(45, a4, 0)
    TEST_PASS
TEST_END

    .data
    .balign 4
hz_data:       .word 0x11111111, 0x22222222, 0, 0, 0, 0, 0, 0
hz_ptr:        .word hz_data
hz_target_ptr: .word hz_target
