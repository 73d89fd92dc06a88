/* SPDX-License-Identifier: ISC */
/* ADD, SUB, ADDI: carries, overflow wrap, sign-extended immediates, x0 and bypasses. */
#include "isa_test.h"

TEST_BEGIN
    /* ADD */
    TEST_RR(1, add, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(2, add, 0x00000002, 0x00000001, 0x00000001)
    TEST_RR(3, add, 0x0000000a, 0x00000003, 0x00000007)
    TEST_RR(4, add, 0xffff8000, 0x00000000, 0xffff8000)
    TEST_RR(5, add, 0x80000000, 0x80000000, 0x00000000)
    TEST_RR(6, add, 0x7fff8000, 0x80000000, 0xffff8000)
    TEST_RR(7, add, 0x80000000, 0x7fffffff, 0x00000001)   /* signed overflow wraps */
    TEST_RR(8, add, 0x00000000, 0xffffffff, 0x00000001)   /* carry out dropped */
    TEST_RR(9, add, 0xfffffffe, 0xffffffff, 0xffffffff)
    TEST_RR(10, add, 0x00000000, 0x80000000, 0x80000000)
    TEST_RR(11, add, 0x12345678 + 0x0fedcba9, 0x12345678, 0x0fedcba9)
    TEST_RR_SRC1_IS_DEST(12, add, 24, 13, 11)
    TEST_RR_SRC2_IS_DEST(13, add, 25, 14, 11)
    TEST_RR_ALL_SAME(14, add, 26, 13)
    TEST_RR_ZERO_DEST(15, add, 0x11111111, 0x22222222)
    TEST_RR_ZERO_SRC1(16, add, 0xdeadbeef, 0xdeadbeef)
    TEST_RR_ZERO_SRC2(17, add, 0xcafef00d, 0xcafef00d)
    TEST_RR_BYPASS(18, add, 0x00010001, 0x0000ffff, 0x00000002)
    /* SUB */
    TEST_RR(20, sub, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(21, sub, 0x00000000, 0x00000001, 0x00000001)
    TEST_RR(22, sub, 0xfffffffc, 0x00000003, 0x00000007)
    TEST_RR(23, sub, 0x00008000, 0x00000000, 0xffff8000)
    TEST_RR(24, sub, 0x7fffffff, 0x80000000, 0x00000001)   /* signed overflow wraps */
    TEST_RR(25, sub, 0x80000000, 0x00000000, 0x80000000)
    TEST_RR(26, sub, 0x80000001, 0x00000000, 0x7fffffff)
    TEST_RR(27, sub, 0xffffffff, 0x7fffffff, 0x80000000)
    TEST_RR(28, sub, 0x00000001, 0xffffffff, 0xfffffffe)
    TEST_RR(29, sub, 0x12345678 - 0x0fedcba9, 0x12345678, 0x0fedcba9)
    TEST_RR_SRC1_IS_DEST(30, sub, 2, 13, 11)
    TEST_RR_SRC2_IS_DEST(31, sub, 3, 14, 11)
    TEST_RR_ALL_SAME(32, sub, 0, 13)
    TEST_RR_ZERO_DEST(33, sub, 0x33333333, 0x11111111)
    TEST_RR_ZERO_SRC1(34, sub, 0x21524111, 0xdeadbeef)
    TEST_RR_ZERO_SRC2(35, sub, 0xcafef00d, 0xcafef00d)
    TEST_RR_BYPASS(36, sub, 0x0000fffd, 0x0000ffff, 0x00000002)
    /* ADDI: 12-bit immediate, sign-extended */
    TEST_IMM(40, addi, 0x00000000, 0x00000000, 0)
    TEST_IMM(41, addi, 0x00000002, 0x00000001, 1)
    TEST_IMM(42, addi, 0x000007ff, 0x00000000, 2047)
    TEST_IMM(43, addi, 0xfffff800, 0x00000000, -2048)
    TEST_IMM(44, addi, 0x800007fe, 0x7fffffff, 2047)        /* overflow wraps */
    TEST_IMM(45, addi, 0x7ffff800, 0x80000000, -2048)
    TEST_IMM(46, addi, 0x00000000, 0xffffffff, 1)
    TEST_IMM(47, addi, 0xfffffffe, 0xffffffff, -1)
    TEST_IMM(48, addi, 0x80000000, 0x7fffffff, 1)
    TEST_IMM(49, addi, 0x000007fe, 0xffffffff, 0x7ff)
    TEST_IMM_SRC_IS_DEST(50, addi, 24, 13, 11)
    TEST_IMM_ZERO_DEST(51, addi, 0x12345678, 0x7ff)
    TEST_IMM_ZERO_SRC(52, addi, 0xfffff800, -2048)
    TEST_IMM_ZERO_SRC(53, addi, 0x00000555, 0x555)
    TEST_IMM_BYPASS(54, addi, 0x00010000, 0x0000ffff, 1)
    /* a dependent chain of five adds */
    li      gp, 55
    li      a1, 1
    add     a1, a1, a1
    add     a1, a1, a1
    add     a1, a1, a1
    add     a1, a1, a1
    add     a1, a1, a1
    TEST_EQ(55, a1, 32)
    TEST_PASS
TEST_END
