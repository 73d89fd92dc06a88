/* SPDX-License-Identifier: ISC */
/* Pipeline hazards: forwarding, load-use, load feeding a branch/jump/address/store,
 * store-then-load, byte lanes, multiply and divide results used at once, x0. */
#include "core_test.h"

BEGIN
    la      s0, buffer
    li      a0, 0x11223344
    sw      a0, 0(s0)
    lw      a1, 0(s0)               /* store then load, same word */
    addi    a2, a1, 1               /* load-use */
    CHECK(1, a2, 0x11223345)

    add     a3, a2, a2              /* ALU chain: both operands forwarded */
    sub     a3, a3, a2
    xor     a3, a3, a1
    CHECK(2, a3, 0x00000001)        /* (2x - x) ^ (x - 1) with x = 0x11223345 */

    /* load feeding a branch */
    li      a0, 7
    sw      a0, 4(s0)
    lw      a1, 4(s0)
    li      a2, 7
    beq     a1, a2, 1f
    li      t4, 3
    j       test_fail
1:
    /* load feeding jalr */
    la      a0, 2f
    sw      a0, 8(s0)
    lw      a1, 8(s0)
    jalr    ra, 0(a1)
    li      t4, 4
    j       test_fail
2:
    /* pointer chase: loaded value is the next address */
    addi    a0, s0, 16
    sw      a0, 12(s0)
    li      a1, 0x5a5a
    sw      a1, 16(s0)
    lw      a2, 12(s0)
    lw      a3, 0(a2)
    CHECK(5, a3, 0x5a5a)

    /* loaded value is store data at once */
    lw      a4, 16(s0)
    sw      a4, 20(s0)
    lw      a5, 20(s0)
    CHECK(6, a5, 0x5a5a)

    /* byte and halfword lanes */
    sw      zero, 24(s0)
    li      a0, 0xab
    sb      a0, 25(s0)
    li      a0, 0xcdef
    sh      a0, 26(s0)
    lw      a1, 24(s0)
    CHECK(7, a1, 0xcdefab00)
    lb      a2, 25(s0)
    CHECK(8, a2, 0xffffffab)
    lbu     a2, 25(s0)
    CHECK(9, a2, 0xab)
    lh      a3, 26(s0)
    CHECK(10, a3, 0xffffcdef)
    lhu     a3, 26(s0)
    CHECK(11, a3, 0xcdef)
    lb      a4, 24(s0)
    CHECK(12, a4, 0)

    /* multiply and divide results used by the next instruction */
    li      a0, 1000
    li      a1, -7
    mul     a2, a0, a1
    addi    a2, a2, 1
    CHECK(13, a2, -6999)
    div     a3, a0, a1
    addi    a3, a3, 0
    CHECK(14, a3, -142)
    rem     a4, a0, a1
    CHECK(15, a4, 6)
    divu    a5, a0, a1              /* 1000 / 0xfffffff9 = 0 */
    CHECK(16, a5, 0)
    remu    a5, a1, a0              /* 0xfffffff9 % 1000 */
    CHECK(17, a5, 0xfffffff9 % 1000)
    div     a2, a0, zero            /* divide by zero */
    CHECK(18, a2, -1)
    rem     a2, a0, zero
    CHECK(19, a2, 1000)
    li      a0, 0x80000000
    li      a1, -1
    div     a2, a0, a1              /* overflow */
    CHECK(20, a2, 0x80000000)
    rem     a2, a0, a1
    CHECK(21, a2, 0)
    div     a2, zero, a1            /* zero dividend */
    CHECK(22, a2, 0)
    li      a0, 0x7fffffff
    li      a1, 3
    divu    a2, a0, a1
    divu    a3, a2, a1              /* back-to-back divides */
    CHECK(23, a3, 0x7fffffff / 9)
    li      a0, -100
    li      a1, 7
    div     a2, a0, a1
    CHECK(24, a2, -14)
    rem     a2, a0, a1
    CHECK(25, a2, -2)
    lw      a0, 4(s0)               /* load then divide using it */
    li      a1, 2
    divu    a2, a0, a1
    CHECK(26, a2, 3)

    /* x0 stays zero, even when forwarded */
    addi    zero, zero, 5
    add     a0, zero, zero
    CHECK(27, a0, 0)
    lw      zero, 0(s0)
    mv      a0, zero
    CHECK(28, a0, 0)

    /* csr write then read */
    li      a0, 0x1234
    csrw    mscratch, a0
    csrr    a1, mscratch
    CHECK(29, a1, 0x1234)
    csrrs   a2, mscratch, a0
    csrrwi  a3, mscratch, 5
    csrr    a4, mscratch
    CHECK(30, a3, 0x1234)
    CHECK(31, a4, 5)
    csrrci  a5, mscratch, 1
    csrr    a5, mscratch
    CHECK(32, a5, 4)

    /* jal link register and forwarding of the link */
    jal     ra, 3f
3:  la      a0, 3b
    CHECK_REG(33, ra, a0)
    PASS
END

    .data
    .balign 4
buffer: .space 64
