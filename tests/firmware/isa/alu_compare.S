/* SPDX-License-Identifier: ISC */
/* SLT, SLTU, SLTI, SLTIU: signed and unsigned compares at the extremes. */
#include "isa_test.h"

TEST_BEGIN
    /* SLT (signed) */
    TEST_RR(1, slt, 0, 0x00000000, 0x00000000)
    TEST_RR(2, slt, 0, 0x00000001, 0x00000001)
    TEST_RR(3, slt, 1, 0x00000003, 0x00000007)
    TEST_RR(4, slt, 0, 0x00000007, 0x00000003)
    TEST_RR(5, slt, 0, 0x00000000, 0xffff8000)
    TEST_RR(6, slt, 1, 0x80000000, 0x00000000)
    TEST_RR(7, slt, 1, 0x80000000, 0x7fffffff)
    TEST_RR(8, slt, 0, 0x7fffffff, 0x80000000)
    TEST_RR(9, slt, 1, 0xffffffff, 0x00000000)
    TEST_RR(10, slt, 0, 0x00000000, 0xffffffff)
    TEST_RR(11, slt, 1, 0xfffffffe, 0xffffffff)
    TEST_RR(12, slt, 0, 0x80000000, 0x80000000)
    TEST_RR_SRC1_IS_DEST(13, slt, 1, -5, 3)
    TEST_RR_SRC2_IS_DEST(14, slt, 0, 5, -3)
    TEST_RR_ALL_SAME(15, slt, 0, -7)
    TEST_RR_ZERO_DEST(16, slt, -1, 1)
    TEST_RR_ZERO_SRC1(17, slt, 1, 1)
    TEST_RR_ZERO_SRC2(18, slt, 1, -1)
    TEST_RR_BYPASS(19, slt, 1, -2, -1)
    /* SLTU (unsigned) */
    TEST_RR(20, sltu, 0, 0x00000000, 0x00000000)
    TEST_RR(21, sltu, 1, 0x00000003, 0x00000007)
    TEST_RR(22, sltu, 0, 0x00000007, 0x00000003)
    TEST_RR(23, sltu, 1, 0x00000000, 0xffff8000)
    TEST_RR(24, sltu, 0, 0x80000000, 0x00000000)
    TEST_RR(25, sltu, 0, 0x80000000, 0x7fffffff)
    TEST_RR(26, sltu, 1, 0x7fffffff, 0x80000000)
    TEST_RR(27, sltu, 0, 0xffffffff, 0x00000000)
    TEST_RR(28, sltu, 1, 0xfffffffe, 0xffffffff)
    TEST_RR(29, sltu, 0, 0xffffffff, 0xffffffff)
    TEST_RR_SRC1_IS_DEST(30, sltu, 0, -5, 3)
    TEST_RR_SRC2_IS_DEST(31, sltu, 1, 5, -3)
    TEST_RR_ALL_SAME(32, sltu, 0, 7)
    TEST_RR_ZERO_DEST(33, sltu, 1, 2)
    TEST_RR_ZERO_SRC1(34, sltu, 1, 0xffffffff)     /* snez */
    TEST_RR_ZERO_SRC1(35, sltu, 0, 0)
    TEST_RR_ZERO_SRC2(36, sltu, 0, 5)
    TEST_RR_BYPASS(37, sltu, 0, -1, 1)
    /* SLTI: signed compare with a sign-extended immediate */
    TEST_IMM(40, slti, 0, 0x00000000, 0)
    TEST_IMM(41, slti, 1, 0x00000003, 7)
    TEST_IMM(42, slti, 0, 0x00000007, 3)
    TEST_IMM(43, slti, 0, 0x00000000, -2048)
    TEST_IMM(44, slti, 1, 0x80000000, 0)
    TEST_IMM(45, slti, 1, 0x80000000, -2048)
    TEST_IMM(46, slti, 0, 0x7fffffff, 2047)
    TEST_IMM(47, slti, 1, 0xfffff7ff, -2048)
    TEST_IMM(48, slti, 0, 0xfffff800, -2048)
    TEST_IMM(49, slti, 1, 0xffffffff, 0)
    TEST_IMM_SRC_IS_DEST(50, slti, 1, -12, -11)
    TEST_IMM_ZERO_DEST(51, slti, -1, 1)
    TEST_IMM_ZERO_SRC(52, slti, 1, 1)
    TEST_IMM_BYPASS(53, slti, 0, 1, -1)
    /* SLTIU: the immediate is sign-extended, then compared unsigned */
    TEST_IMM(60, sltiu, 0, 0x00000000, 0)
    TEST_IMM(61, sltiu, 1, 0x00000003, 7)
    TEST_IMM(62, sltiu, 0, 0x00000007, 3)
    TEST_IMM(63, sltiu, 1, 0x00000000, -2048)      /* 0 < 0xfffff800 */
    TEST_IMM(64, sltiu, 0, 0x80000000, 0)
    TEST_IMM(65, sltiu, 1, 0x80000000, -2048)
    TEST_IMM(66, sltiu, 1, 0xfffffffe, -1)         /* < 0xffffffff */
    TEST_IMM(67, sltiu, 0, 0xffffffff, -1)
    TEST_IMM(68, sltiu, 1, 0x00000000, 1)          /* seqz */
    TEST_IMM(69, sltiu, 0, 0x00000001, 1)
    TEST_IMM(70, sltiu, 1, 0x000007fe, 2047)
    TEST_IMM_SRC_IS_DEST(71, sltiu, 1, 11, 13)
    TEST_IMM_ZERO_DEST(72, sltiu, 0, 1)
    TEST_IMM_ZERO_SRC(73, sltiu, 1, -1)
    TEST_IMM_BYPASS(74, sltiu, 0, -1, 5)
    TEST_PASS
TEST_END
