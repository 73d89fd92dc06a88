/* SPDX-License-Identifier: ISC */
/* The six CSR instructions (CSRRW/S/C and their immediate forms) on mscratch; the
 * read-only and machine information CSRs (mhartid = 0 on a single node, misa = RV32 with
 * I and M); read/write of mtvec, mepc, mcause, mtval; mstatus.MIE set and clear. */
#include "isa_test.h"

TEST_BEGIN
    csrw    mie, x0                 /* no interrupt sources enabled while MIE toggles */
    /* CSRRW: old value to rd, rs1 to the CSR */
    li      a1, 0x12345678
    csrw    mscratch, a1
    li      a2, 0x9abcdef0
    csrrw   a4, mscratch, a2
    TEST_EQ(1, a4, 0x12345678)
    csrr    a4, mscratch
    TEST_EQ(2, a4, 0x9abcdef0)
    /* CSRRW with rd = rs1: swap */
    li      a1, 0x0000ffff
    csrrw   a1, mscratch, a1
    TEST_EQ(3, a1, 0x9abcdef0)
    csrr    a4, mscratch
    TEST_EQ(4, a4, 0x0000ffff)
    /* CSRRW with rd = x0: write only */
    li      a1, 0xffffffff
    csrrw   x0, mscratch, a1
    TEST_EQ(5, x0, 0)
    csrr    a4, mscratch
    TEST_EQ(6, a4, 0xffffffff)
    /* CSRRS: sets the bits of rs1 */
    li      a1, 0x0f0f0000
    csrw    mscratch, a1
    li      a2, 0x000000f0
    csrrs   a4, mscratch, a2
    TEST_EQ(7, a4, 0x0f0f0000)
    csrr    a4, mscratch
    TEST_EQ(8, a4, 0x0f0f00f0)
    /* CSRRS with rs1 = x0: read only */
    csrrs   a4, mscratch, x0
    TEST_EQ(9, a4, 0x0f0f00f0)
    /* CSRRC: clears the bits of rs1 */
    li      a2, 0x0f000010
    csrrc   a4, mscratch, a2
    TEST_EQ(10, a4, 0x0f0f00f0)
    csrr    a4, mscratch
    TEST_EQ(11, a4, 0x000f00e0)
    csrrc   a4, mscratch, x0
    TEST_EQ(12, a4, 0x000f00e0)
    /* CSRRWI: 5-bit zero-extended immediate (31 is 0x1f, not -1) */
    csrrwi  a4, mscratch, 31
    TEST_EQ(13, a4, 0x000f00e0)
    csrr    a4, mscratch
    TEST_EQ(14, a4, 0x0000001f)
    csrrwi  a4, mscratch, 0
    csrr    a4, mscratch
    TEST_EQ(15, a4, 0)
    /* CSRRSI, CSRRCI */
    csrrsi  a4, mscratch, 0x15
    TEST_EQ(16, a4, 0)
    csrrsi  a4, mscratch, 0x10
    TEST_EQ(17, a4, 0x15)
    csrrci  a4, mscratch, 0x05
    TEST_EQ(18, a4, 0x15)
    csrr    a4, mscratch
    TEST_EQ(19, a4, 0x10)
    csrrci  a4, mscratch, 0      /* no write */
    csrrsi  a4, mscratch, 0
    TEST_EQ(20, a4, 0x10)
    /* all 32 bits hold */
    li      a1, 0x80000001
    csrw    mscratch, a1
    csrr    a4, mscratch
    TEST_EQ(21, a4, 0x80000001)
    li      a1, 0x7ffffffe
    csrw    mscratch, a1
    csrr    a4, mscratch
    TEST_EQ(22, a4, 0x7ffffffe)
    /* mhartid: 0 on a single node; a read with rs1 = x0 / uimm = 0 is not a write */
    csrr    a4, mhartid
    TEST_EQ(30, a4, 0)
    li      a4, 5
    csrrsi  a4, mhartid, 0
    TEST_EQ(31, a4, 0)
    csrrc   a4, mhartid, x0
    TEST_EQ(32, a4, 0)
    /* misa: MXL = 1 (32 bits), I and M present */
    csrr    a1, misa
    srli    a4, a1, 30
    TEST_EQ(33, a4, 1)
    srli    a4, a1, 8
    andi    a4, a4, 1
    TEST_EQ(34, a4, 1)
    srli    a4, a1, 12
    andi    a4, a4, 1
    TEST_EQ(35, a4, 1)
    /* mtvec: a 4-byte aligned address in direct mode reads back */
    csrr    s5, mtvec
    la      a1, isa_expected_trap
    csrw    mtvec, a1
    csrr    a4, mtvec
    TEST_EQ_REG(40, a4, a1)
    csrw    mtvec, s5
    csrr    a4, mtvec
    TEST_EQ_REG(41, a4, s5)
    /* mepc (aligned values), mcause, mtval */
    li      a1, 0x80001234
    csrw    mepc, a1
    csrr    a4, mepc
    TEST_EQ(42, a4, 0x80001234)
    li      a1, 0x0000fffc
    csrw    mepc, a1
    csrr    a4, mepc
    TEST_EQ(43, a4, 0x0000fffc)
    li      a1, 11
    csrw    mcause, a1
    csrr    a4, mcause
    TEST_EQ(44, a4, 11)
    li      a1, 5
    csrw    mcause, a1
    csrr    a4, mcause
    TEST_EQ(45, a4, 5)
    li      a1, 0xdeadbeef
    csrw    mtval, a1
    csrr    a4, mtval
    TEST_EQ(46, a4, 0xdeadbeef)
    /* mstatus.MIE (bit 3): set with csrrsi, clear with csrrci */
    csrrci  x0, mstatus, 8
    csrr    a1, mstatus
    andi    a4, a1, 8
    TEST_EQ(50, a4, 0)
    csrrsi  x0, mstatus, 8
    csrr    a1, mstatus
    andi    a4, a1, 8
    TEST_EQ(51, a4, 8)
    csrrci  a1, mstatus, 8
    andi    a4, a1, 8
    TEST_EQ(52, a4, 8)
    csrr    a1, mstatus
    andi    a4, a1, 8
    TEST_EQ(53, a4, 0)
    /* mstatus.MPIE (bit 7) is writable too */
    li      a2, 0x80
    csrs    mstatus, a2
    csrr    a1, mstatus
    andi    a4, a1, 0x80
    TEST_EQ(54, a4, 0x80)
    csrc    mstatus, a2
    csrr    a1, mstatus
    andi    a4, a1, 0x80
    TEST_EQ(55, a4, 0)
    /* mie and mip can be read */
    csrr    a4, mie
    TEST_EQ(56, a4, 0)
    csrr    a4, mip
    TEST_PASS
TEST_END
