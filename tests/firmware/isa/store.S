/* SPDX-License-Identifier: ISC */
/* SB, SH, SW: byte lanes (the other bytes of the word stay), negative offsets, store
 * then load of the same address, data register = base register, x0 as data. */
#include "isa_test.h"

#define FILL_WORDS(label, value)  \
    la      t3, label;            \
    li      t4, value;            \
    sw      t4, 0(t3);            \
    sw      t4, 4(t3);            \
    sw      t4, 8(t3);            \
    sw      t4, 12(t3)

TEST_BEGIN
    /* SW */
    TEST_STORE(1, sw, lw, 0xaa00aa00, 0xaa00aa00, st_area, 0)
    TEST_STORE(2, sw, lw, 0x00aa00aa, 0x00aa00aa, st_area, 4)
    TEST_STORE(3, sw, lw, 0xffffffff, 0xffffffff, st_area, 8)
    TEST_STORE(4, sw, lw, 0x00000000, 0x00000000, st_area, 12)
    /* SB into each lane of a word of 0x11223344; the others keep their bytes */
    FILL_WORDS(st_area, 0x11223344)
    TEST_STORE(10, sb, lbu, 0xaabbccdd, 0xdd, st_area, 0)
    TEST_LOAD(11, lw, 0x112233dd, st_area, 0, 0)
    TEST_STORE(12, sb, lb, 0x000000ee, 0xffffffee, st_area, 1)
    TEST_LOAD(13, lw, 0x1122eedd, st_area, 0, 0)
    TEST_STORE(14, sb, lbu, 0x12345600, 0x00, st_area, 2)
    TEST_LOAD(15, lw, 0x1100eedd, st_area, 0, 0)
    TEST_STORE(16, sb, lbu, 0x7f, 0x7f, st_area, 3)
    TEST_LOAD(17, lw, 0x7f00eedd, st_area, 0, 0)
    TEST_LOAD(18, lw, 0x11223344, st_area, 0, 4)     /* the next word untouched */
    /* SH into both halves */
    FILL_WORDS(st_area, 0x11223344)
    TEST_STORE(20, sh, lhu, 0xaabbccdd, 0xccdd, st_area, 0)
    TEST_LOAD(21, lw, 0x1122ccdd, st_area, 0, 0)
    TEST_STORE(22, sh, lh, 0x00008765, 0xffff8765, st_area, 2)
    TEST_LOAD(23, lw, 0x8765ccdd, st_area, 0, 0)
    TEST_LOAD(24, lw, 0x11223344, st_area, 0, 4)
    TEST_LOAD(25, lw, 0x11223344, st_area, -4 + 4, 4)
    /* negative offsets from a base past the area */
    FILL_WORDS(st_area, 0)
    la      a1, st_area + 16
    li      a2, 0x01020304
    sw      a2, -16(a1)
    li      a2, 0xa5
    sb      a2, -1(a1)
    li      a2, 0xbeef
    sh      a2, -6(a1)
    TEST_LOAD(30, lw, 0x01020304, st_area, 0, 0)
    TEST_LOAD(31, lw, 0xa5000000, st_area, 0, 12)
    TEST_LOAD(32, lw, 0xbeef0000, st_area, 0, 8)
    /* the ends of the 12-bit offset range */
    la      a1, st_area + 2048
    li      a2, 0x5a5a5a5a
    sw      a2, -2048(a1)
    TEST_LOAD(33, lw, 0x5a5a5a5a, st_area, 0, 0)
    la      a1, st_area - 2047
    li      a2, 0x99
    sb      a2, 2047(a1)
    TEST_LOAD(34, lw, 0x5a5a5a99, st_area, 0, 0)
    /* store x0 */
    la      a1, st_area
    sw      x0, 0(a1)
    TEST_LOAD(40, lw, 0, st_area, 0, 0)
    li      a2, -1
    sw      a2, 4(a1)
    sb      x0, 5(a1)
    sh      x0, 6(a1)
    TEST_LOAD(41, lw, 0x000000ff, st_area, 0, 4)
    /* data register = base register: stores the address itself */
    la      a1, st_area
    sw      a1, 8(a1)
    lw      a4, 8(a1)
    TEST_EQ_REG(42, a4, a1)
    /* back-to-back stores to the same word, then a load: the last store wins */
    la      a1, st_area
    li      a2, 1
    li      t3, 2
    sw      a2, 12(a1)
    sw      t3, 12(a1)
    lw      a4, 12(a1)
    TEST_EQ(43, a4, 2)
    /* store then a byte load of a lane that was written by the word store */
    li      a2, 0x89abcdef
    sw      a2, 0(a1)
    lbu     a4, 2(a1)
    TEST_EQ(44, a4, 0xab)
    lh      a4, 2(a1)
    TEST_EQ(45, a4, 0xffff89ab)
    /* value computed right before the store (forwarding into store data) */
    li      a2, 40
    addi    a2, a2, 2
    sw      a2, 4(a1)
    lw      a4, 4(a1)
    TEST_EQ(46, a4, 42)
    /* base computed right before the store */
    la      a2, st_area
    addi    a2, a2, 8
    sw      a2, 0(a2)
    lw      a4, 8(a1)
    TEST_EQ_REG(47, a4, a2)
    TEST_PASS
TEST_END

    .data
    .balign 4
st_area:  .space 32
