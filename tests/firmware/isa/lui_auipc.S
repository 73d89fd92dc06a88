/* SPDX-License-Identifier: ISC */
/* LUI and AUIPC: upper immediates, sign of bit 31, pc-relative results. */
#include "isa_test.h"

TEST_BEGIN
    .option norelax
    lui     a4, 0
    TEST_EQ(1, a4, 0)
    lui     a4, 0xfffff
    TEST_EQ(2, a4, 0xfffff000)
    lui     a4, 0x80000
    TEST_EQ(3, a4, 0x80000000)
    lui     a4, 0x7ffff
    TEST_EQ(4, a4, 0x7ffff000)
    lui     a4, 0x12345
    TEST_EQ(5, a4, 0x12345000)
    lui     a4, 1
    TEST_EQ(6, a4, 0x00001000)
    /* lui then addi with a negative low part (what li/la expand to) */
    lui     a4, 0x12346
    addi    a4, a4, -0x588
    TEST_EQ(7, a4, 0x12345a78)
    /* rd = x0 */
    lui     x0, 0xabcde
    TEST_EQ(8, x0, 0)
    /* LUI overwrites every bit of the old value */
    li      a4, 0xffffffff
    lui     a4, 0x00010
    TEST_EQ(9, a4, 0x00010000)

    /* AUIPC: the address of the instruction itself plus imm << 12; expected values are
     * built with LUI/ADDI from absolute addresses (no pc-relative code). */
auipc_0:
    auipc   a4, 0
    lui     t3, %hi(auipc_0)
    addi    t3, t3, %lo(auipc_0)
    TEST_EQ_REG(20, a4, t3)
auipc_1:
    auipc   a4, 1
    lui     t3, %hi(auipc_1 + 0x1000)
    addi    t3, t3, %lo(auipc_1 + 0x1000)
    TEST_EQ_REG(21, a4, t3)
auipc_m1:
    auipc   a4, 0xfffff
    lui     t3, %hi(auipc_m1 - 0x1000)
    addi    t3, t3, %lo(auipc_m1 - 0x1000)
    TEST_EQ_REG(22, a4, t3)
auipc_big:
    auipc   a4, 0x80000           /* pc + 0x80000000 wraps around */
    lui     t3, %hi(auipc_big + 0x80000000)
    addi    t3, t3, %lo(auipc_big + 0x80000000)
    TEST_EQ_REG(23, a4, t3)
    /* auipc + addi pair (la): lands on the label */
auipc_la:
    auipc   a4, %pcrel_hi(auipc_data)
    addi    a4, a4, %pcrel_lo(auipc_la)
    lw      a4, 0(a4)
    TEST_EQ(24, a4, 0x600df00d)
    /* AUIPC to x0 */
    auipc   x0, 0x12345
    TEST_EQ(25, x0, 0)
    /* two AUIPCs 8 bytes apart differ by 8 */
    auipc   t3, 0
    nop
    auipc   t4, 0
    sub     a4, t4, t3
    TEST_EQ(26, a4, 8)
    TEST_PASS
TEST_END

    .data
    .balign 4
auipc_data: .word 0x600df00d
