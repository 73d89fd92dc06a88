/* SPDX-License-Identifier: ISC */
/* ECALL (mcause 11) and EBREAK (mcause 3) with mepc = the instruction; the trap clears
 * mstatus.MIE and copies the old MIE into MPIE; MRET restores MIE from MPIE, sets MPIE
 * and jumps to mepc; MRET used directly (not after a trap); registers other than those
 * the handler writes survive the trap; FENCE and FENCE.I execute as no-ops. */
#include "isa_test.h"

#define MSTATUS_MIE  0x8
#define MSTATUS_MPIE 0x80

TEST_BEGIN
    csrw    mie, x0                 /* no interrupt sources enabled while MIE toggles */
    /* ECALL, EBREAK through the generic expected-trap handler */
    TEST_TRAP_ANY_TVAL(1, 11, ecall)
    TEST_TRAP_ANY_TVAL(2, 3, ebreak)
    TEST_EQ(3, s7, 2)
    /* the instruction after ECALL runs exactly once, the one before too */
    li      a5, 0
    TEST_TRAP_ANY_TVAL(4, 11, ecall)
    addi    a5, a5, 1
    TEST_EQ(5, a5, 1)

    /* mstatus around a trap, MIE = 1 before: in the handler MIE = 0, MPIE = 1;
     * after MRET MIE = 1, MPIE = 1 */
    la      t0, mstatus_handler
    csrw    mtvec, t0
    li      t0, MSTATUS_MPIE
    csrc    mstatus, t0
    csrsi   mstatus, MSTATUS_MIE
    li      s4, 0xffffffff
    li      gp, 10
    ecall
    andi    a4, s4, MSTATUS_MIE
    TEST_EQ(10, a4, 0)
    andi    a4, s4, MSTATUS_MPIE
    TEST_EQ(11, a4, MSTATUS_MPIE)
    csrr    a1, mstatus
    andi    a4, a1, MSTATUS_MIE
    TEST_EQ(12, a4, MSTATUS_MIE)
    andi    a4, a1, MSTATUS_MPIE
    TEST_EQ(13, a4, MSTATUS_MPIE)
    /* MIE = 0 before: in the handler MIE = 0, MPIE = 0; after MRET MIE = 0, MPIE = 1 */
    csrci   mstatus, MSTATUS_MIE
    li      t0, MSTATUS_MPIE
    csrs    mstatus, t0
    li      s4, 0xffffffff
    ecall
    andi    a4, s4, MSTATUS_MIE
    TEST_EQ(14, a4, 0)
    andi    a4, s4, MSTATUS_MPIE
    TEST_EQ(15, a4, 0)
    csrr    a1, mstatus
    andi    a4, a1, MSTATUS_MIE
    TEST_EQ(16, a4, 0)
    andi    a4, a1, MSTATUS_MPIE
    TEST_EQ(17, a4, MSTATUS_MPIE)
    /* the handler saw mcause 11 and mepc = the ecall; EBREAK the same way */
    li      s4, 0xffffffff
mst_ebreak:
    ebreak
    TEST_EQ(18, s3, 3)
    la      t3, mst_ebreak
    TEST_EQ_REG(19, s2, t3)

    /* MRET without a trap: jumps to mepc, MIE <- MPIE, MPIE <- 1. MPP = M (3) first:
     * the core has only M-mode (MPP reads 3 anyway); qemu would return to U-mode. */
    la      t0, isa_unexpected_trap
    csrw    mtvec, t0
    li      t0, 0x1800
    csrs    mstatus, t0
    li      gp, 20
    la      a1, mret_target_1
    csrw    mepc, a1
    csrci   mstatus, MSTATUS_MIE
    li      t0, MSTATUS_MPIE
    csrs    mstatus, t0
    mret
    j       isa_fail
mret_target_1:
    csrr    a1, mstatus
    andi    a4, a1, MSTATUS_MIE
    TEST_EQ(21, a4, MSTATUS_MIE)
    andi    a4, a1, MSTATUS_MPIE
    TEST_EQ(22, a4, MSTATUS_MPIE)
    /* MRET with MPIE = 0 clears MIE */
    li      gp, 23
    li      t0, 0x1800
    csrs    mstatus, t0
    la      a1, mret_target_2
    csrw    mepc, a1
    li      t0, MSTATUS_MPIE
    csrc    mstatus, t0
    mret
    j       isa_fail
mret_target_2:
    csrr    a1, mstatus
    andi    a4, a1, MSTATUS_MIE
    TEST_EQ(24, a4, 0)
    andi    a4, a1, MSTATUS_MPIE
    TEST_EQ(25, a4, MSTATUS_MPIE)
    /* instructions after MRET do not run */
    li      a5, 0
    li      t0, 0x1800
    csrs    mstatus, t0
    la      a1, 1f
    csrw    mepc, a1
    mret
    addi    a5, a5, 1
    addi    a5, a5, 1
1:  TEST_EQ(26, a5, 0)

    /* registers survive a trap whose handler touches only s2..s4 and t0 */
    la      t0, mstatus_handler
    csrw    mtvec, t0
    li      a1, 0x11111111
    li      a2, 0x22222222
    li      a3, 0x33333333
    li      s5, 0x55555555
    li      sp, 0x7777777
    ecall
    TEST_EQ(30, a1, 0x11111111)
    TEST_EQ(31, a2, 0x22222222)
    TEST_EQ(32, a3, 0x33333333)
    TEST_EQ(33, s5, 0x55555555)
    TEST_EQ(34, sp, 0x7777777)
    /* ten ECALLs in a loop, each returning to the next instruction */
    li      a1, 10
    li      a5, 0
1:  ecall
    addi    a5, a5, 1
    addi    a1, a1, -1
    bnez    a1, 1b
    TEST_EQ(35, a5, 10)
    /* mscratch keeps its value across traps */
    li      a1, 0x5c5c5c5c
    csrw    mscratch, a1
    ecall
    csrr    a4, mscratch
    TEST_EQ(36, a4, 0x5c5c5c5c)
    /* an ECALL right after a load and before a store */
    la      t3, ecall_data
    lw      a1, 0(t3)
    ecall
    sw      a1, 4(t3)
    lw      a4, 4(t3)
    TEST_EQ(37, a4, 0x600dc0de)
    la      t0, isa_unexpected_trap
    csrw    mtvec, t0

    /* FENCE and FENCE.I: no-ops here, nothing changes */
    li      a1, 9
    fence
    fence   rw, rw
    fence   iorw, iorw
    fence.i
    addi    a4, a1, 1
    TEST_EQ(40, a4, 10)
    TEST_PASS

    /* records mstatus, mcause and mepc of the trap, returns after the instruction */
    .balign 4
mstatus_handler:
    csrr    s4, mstatus
    csrr    s3, mcause
    csrr    s2, mepc
    addi    t0, s2, 4
    csrw    mepc, t0
    mret
TEST_END

    .data
    .balign 4
ecall_data: .word 0x600dc0de, 0
