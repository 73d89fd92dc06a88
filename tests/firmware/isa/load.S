/* SPDX-License-Identifier: ISC */
/* LB, LH, LW, LBU, LHU: sign and zero extension, every byte lane, negative and maximal
 * offsets, rd = base, rd = x0, load-use. */
#include "isa_test.h"

TEST_BEGIN
    /* LB: sign-extends bit 7 */
    TEST_LOAD(1, lb, 0xffffff81, ld_bytes, 0, 0)
    TEST_LOAD(2, lb, 0x0000007f, ld_bytes, 0, 1)
    TEST_LOAD(3, lb, 0x00000000, ld_bytes, 0, 2)
    TEST_LOAD(4, lb, 0xffffffff, ld_bytes, 0, 3)
    TEST_LOAD(5, lb, 0xffffff80, ld_bytes, 0, 4)
    TEST_LOAD(6, lb, 0x00000001, ld_bytes, 0, 5)
    /* LBU: zero-extends */
    TEST_LOAD(10, lbu, 0x00000081, ld_bytes, 0, 0)
    TEST_LOAD(11, lbu, 0x0000007f, ld_bytes, 0, 1)
    TEST_LOAD(12, lbu, 0x00000000, ld_bytes, 0, 2)
    TEST_LOAD(13, lbu, 0x000000ff, ld_bytes, 0, 3)
    TEST_LOAD(14, lbu, 0x00000080, ld_bytes, 0, 4)
    TEST_LOAD(15, lbu, 0x00000001, ld_bytes, 0, 5)
    /* LH: sign-extends bit 15, both halves of a word */
    TEST_LOAD(20, lh, 0xffff8001, ld_halfs, 0, 0)
    TEST_LOAD(21, lh, 0x00007ffe, ld_halfs, 0, 2)
    TEST_LOAD(22, lh, 0xffffffff, ld_halfs, 0, 4)
    TEST_LOAD(23, lh, 0x00000000, ld_halfs, 0, 6)
    TEST_LOAD(24, lh, 0x00007f81, ld_bytes, 0, 0)
    TEST_LOAD(25, lh, 0xffffff00, ld_bytes, 0, 2)
    /* LHU: zero-extends */
    TEST_LOAD(30, lhu, 0x00008001, ld_halfs, 0, 0)
    TEST_LOAD(31, lhu, 0x00007ffe, ld_halfs, 0, 2)
    TEST_LOAD(32, lhu, 0x0000ffff, ld_halfs, 0, 4)
    TEST_LOAD(33, lhu, 0x00000000, ld_halfs, 0, 6)
    TEST_LOAD(34, lhu, 0x0000ff00, ld_bytes, 0, 2)
    /* LW */
    TEST_LOAD(40, lw, 0xff007f81, ld_bytes, 0, 0)
    TEST_LOAD(41, lw, 0x80000001, ld_words, 0, 0)
    TEST_LOAD(42, lw, 0x7fffffff, ld_words, 0, 4)
    TEST_LOAD(43, lw, 0xdeadbeef, ld_words, 0, 8)
    TEST_LOAD(44, lw, 0x00000000, ld_words, 0, 12)
    /* negative offsets */
    TEST_LOAD(50, lw, 0x80000001, ld_words, 12, -12)
    TEST_LOAD(51, lh, 0xffffbeef, ld_words, 12, -4)
    TEST_LOAD(52, lbu, 0x000000ad, ld_words, 12, -2)
    TEST_LOAD(53, lb, 0xffffffde, ld_words, 12, -1)
    /* the ends of the 12-bit offset range */
    TEST_LOAD(54, lw, 0xdeadbeef, ld_words, 8 + 2048, -2048)
    TEST_LOAD(55, lw, 0xdeadbeef, ld_words, 8 - 2044, 2044)
    TEST_LOAD(56, lbu, 0x000000de, ld_words, 11 - 2047, 2047)
    TEST_LOAD(57, lhu, 0x0000dead, ld_words, 10 + 2048, -2048)
    /* rd = base register */
    la      a1, ld_words
    lw      a1, 8(a1)
    TEST_EQ(60, a1, 0xdeadbeef)
    la      a1, ld_bytes
    lb      a1, 0(a1)
    TEST_EQ(61, a1, 0xffffff81)
    /* rd = x0: dropped */
    la      a1, ld_words
    lw      x0, 8(a1)
    TEST_EQ(62, x0, 0)
    lbu     x0, 0(a1)
    TEST_EQ(63, x0, 0)
    /* load-use: the loaded value feeds the next instruction */
    TEST_LOAD_USE(70, lw, 0xdeadbeef, ld_words, 8)
    TEST_LOAD_USE(71, lb, 0xffffff81, ld_bytes, 0)
    TEST_LOAD_USE(72, lhu, 0x00008001, ld_halfs, 0)
    /* load feeding the base of the next load (pointer chasing) */
    la      a1, ld_pointer
    lw      a2, 0(a1)
    lw      a4, 4(a2)
    TEST_EQ(73, a4, 0x7fffffff)
    /* load feeding a branch */
    la      a1, ld_words
    lw      a2, 12(a1)
    li      gp, 74
    bnez    a2, 1f
    j       2f
1:  li      a4, 1
    li      t2, 0
    j       isa_fail
2:
    /* two loads back to back into the same register: the second wins */
    la      a1, ld_words
    lw      a4, 0(a1)
    lw      a4, 4(a1)
    TEST_EQ(75, a4, 0x7fffffff)
    TEST_PASS
TEST_END

    .data
    .balign 4
ld_bytes:   .byte 0x81, 0x7f, 0x00, 0xff, 0x80, 0x01, 0x00, 0x00
ld_halfs:   .half 0x8001, 0x7ffe, 0xffff, 0x0000
ld_words:   .word 0x80000001, 0x7fffffff, 0xdeadbeef, 0x00000000
ld_pointer: .word ld_words
