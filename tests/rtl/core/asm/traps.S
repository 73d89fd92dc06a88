/* SPDX-License-Identifier: ISC */
/* Traps and machine CSRs: ecall, ebreak, illegal instructions and CSRs, misaligned and
 * faulting loads/stores, misaligned jumps, fetch faults, mstatus MIE/MPIE across a trap
 * and mret, identification CSRs, counters. */
#include "core_test.h"

BEGIN
    la      t0, trap_handler
    csrw    mtvec, t0
    csrr    a0, mtvec
    CHECK_REG(1, a0, t0)
    li      s5, 0

    /* identification */
    csrr    a0, misa
    CHECK(2, a0, 0x40001100)
    csrr    a0, mhartid
    CHECK(3, a0, 0)
    csrr    a0, mvendorid
    CHECK(4, a0, 0)

    /* mstatus: MPP reads as machine, MIE/MPIE writable */
    csrwi   mstatus, 8              /* MIE = 1 */
    csrr    a0, mstatus
    CHECK(5, a0, 0x1808)

    /* ecall: cause 11, mepc = the ecall, MIE -> MPIE */
    la      s10, 1f
    la      a1, 10f
10: ecall
    li      t4, 6
    j       test_fail
1:  CHECK(6, s2, 11)
    CHECK_REG(7, s3, a1)
    csrr    a0, mstatus             /* mret restored MIE = 1 from MPIE, MPIE = 1 */
    CHECK(8, a0, 0x1888)
    csrw    mstatus, zero

    EXPECT_TRAP(9, 3, ebreak)
    EXPECT_TRAP(10, 2, .word 0x00000000)
    CHECK(11, s4, 0)
    EXPECT_TRAP(12, 2, .word 0xffffffff)
    CHECK(13, s4, 0xffffffff)
    EXPECT_TRAP(14, 2, csrr a0, 0x7c0)        /* no such CSR */
    EXPECT_TRAP(15, 2, csrw cycle, a0)        /* read-only CSR */
    EXPECT_TRAP(16, 2, csrw mhartid, a0)
    csrrs   a0, cycle, zero                   /* reading a read-only CSR is fine */
    EXPECT_TRAP(17, 2, .word 0x40151513)      /* slli with funct7 = 0100000 */

    /* misaligned data accesses: mtval = address, destination unchanged */
    la      s0, buffer
    li      a2, 0x55
    EXPECT_TRAP(18, 4, lw a2, 1(s0))
    addi    a0, s0, 1
    CHECK_REG(19, s4, a0)
    CHECK(20, a2, 0x55)
    EXPECT_TRAP(21, 4, lh a2, 3(s0))
    EXPECT_TRAP(22, 6, sw a2, 2(s0))
    EXPECT_TRAP(23, 6, sh a2, 1(s0))
    lw      a0, 0(s0)
    CHECK(24, a0, 0x01020304)       /* the faulting stores wrote nothing */

    /* access faults */
    EXPECT_TRAP(25, 5, lw a2, 0(zero))
    CHECK(26, s4, 0)
    li      a1, 0x30000000
    EXPECT_TRAP(27, 7, sw a2, 0(a1))
    CHECK(28, s4, 0x30000000)
    li      a1, 0x20000000          /* network interface range: no device in node_top */
    EXPECT_TRAP(29, 5, lb a2, 4(a1))
    CHECK(30, s4, 0x20000004)
    li      a1, 0x10000000          /* console: loads read 0 */
    lw      a2, 0(a1)
    CHECK(31, a2, 0)

    /* misaligned jump target: cause 0, mtval = target, rd not written */
    la      a1, buffer
    li      ra, 0x77
    EXPECT_TRAP(32, 0, jalr ra, 2(a1))
    addi    a0, a1, 2
    CHECK_REG(33, s4, a0)
    CHECK(34, ra, 0x77)

    /* fetch fault: cause 1, mepc = mtval = the address */
    li      a1, 0x40000000
    EXPECT_TRAP(35, 1, jr a1)
    CHECK(36, s3, 0x40000000)
    CHECK(37, s4, 0x40000000)

    /* minstret counts retired instructions, mcycle counts cycles */
    csrr    a0, minstret
    nop
    nop
    nop
    csrr    a1, minstret
    sub     a1, a1, a0
    CHECK(38, a1, 4)
    csrr    a0, mcycle
    csrr    a1, mcycle
    sub     a1, a1, a0
    CHECK(39, a1, 1)
    csrw    minstret, zero
    csrr    a0, minstret
    CHECK(40, a0, 0)
    csrr    a0, instreth
    CHECK(41, a0, 0)

    /* trap count: every EXPECT_TRAP and the ecall trapped exactly once */
    CHECK(42, s5, 17)
    fence
    fence.i
    wfi
    PASS

TRAP_HANDLER
END

    .data
    .balign 4
buffer: .word 0x01020304, 0
