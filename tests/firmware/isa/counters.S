/* SPDX-License-Identifier: ISC */
/* The counters: mcycle and minstret (and their user aliases cycle/instret) increase;
 * minstret counts exactly the instructions retired by a straight-line block (a CSR read
 * returns the count before the reading instruction retires, so two reads N instructions
 * apart differ by N + 1); the high halves read 0 this early; cycles >= instructions. */
#include "isa_test.h"

TEST_BEGIN
    /* mcycle increases */
    csrr    s0, mcycle
    nop
    nop
    csrr    s1, mcycle
    sltu    a4, s0, s1
    TEST_EQ(1, a4, 1)
    /* cycle (user alias) increases and is not behind mcycle */
    csrr    s0, mcycle
    csrr    s1, cycle
    sltu    a4, s1, s0
    TEST_EQ(2, a4, 0)
    csrr    s0, cycle
    nop
    csrr    s1, cycle
    sltu    a4, s0, s1
    TEST_EQ(3, a4, 1)
    /* minstret: 5 nops between the reads */
    csrr    s0, minstret
    nop
    nop
    nop
    nop
    nop
    csrr    s1, minstret
    sub     a4, s1, s0
    TEST_EQ(4, a4, 6)
    /* back-to-back reads differ by 1 */
    csrr    s0, minstret
    csrr    s1, minstret
    sub     a4, s1, s0
    TEST_EQ(5, a4, 1)
    /* instret (user alias) */
    csrr    s0, instret
    addi    x0, x0, 0
    addi    x0, x0, 0
    csrr    s1, instret
    sub     a4, s1, s0
    TEST_EQ(6, a4, 3)
    /* a straight-line block of 20 mixed instructions: ALU, loads, stores, MUL, DIV,
     * LUI, AUIPC, a CSR access and a taken forward jump that skips nothing */
    la      t3, ctr_data
    li      a1, 1000
    li      a2, 7
    csrr    s0, minstret
    add     a3, a1, a2          /* 1 */
    sub     a3, a3, a2          /* 2 */
    lw      a5, 0(t3)           /* 3 */
    sw      a5, 4(t3)           /* 4 */
    mul     a3, a1, a2          /* 5 */
    div     a3, a1, a2          /* 6 */
    rem     a3, a1, a2          /* 7 */
    lui     a3, 0x12345         /* 8 */
    auipc   a3, 0               /* 9 */
    sb      a2, 8(t3)           /* 10 */
    lbu     a5, 8(t3)           /* 11 */
    slli    a3, a3, 3           /* 12 */
    csrr    a3, mscratch        /* 13 */
    xor     a3, a3, a1          /* 14 */
    j       1f                  /* 15 */
1:  divu    a3, a1, a2          /* 16 */
    mulhu   a3, a1, a2          /* 17 */
    sltu    a3, a1, a2          /* 18 */
    beq     x0, a1, isa_fail    /* 19: not taken */
    nop                         /* 20 */
    csrr    s1, minstret
    sub     a4, s1, s0
    TEST_EQ(7, a4, 21)
    /* a counted loop: 100 iterations of 2 instructions */
    li      a1, 100
    csrr    s0, minstret
1:  addi    a1, a1, -1
    bnez    a1, 1b
    csrr    s1, minstret
    sub     a4, s1, s0
    TEST_EQ(8, a4, 201)
    /* cycles elapsed >= instructions retired over the same stretch */
    li      a1, 50
    csrr    s0, mcycle
    csrr    s2, minstret
1:  mul     a2, a1, a1
    addi    a1, a1, -1
    bnez    a1, 1b
    csrr    s3, minstret
    csrr    s1, mcycle
    sub     a2, s1, s0
    sub     a3, s3, s2
    sltu    a4, a2, a3
    TEST_EQ(9, a4, 0)
    /* the high halves are 0 shortly after reset */
    csrr    a4, mcycleh
    TEST_EQ(10, a4, 0)
    csrr    a4, minstreth
    TEST_EQ(11, a4, 0)
    csrr    a4, cycleh
    TEST_EQ(12, a4, 0)
    csrr    a4, instreth
    TEST_EQ(13, a4, 0)
    TEST_PASS
TEST_END

    .data
    .balign 4
ctr_data: .word 0x12345678, 0, 0
