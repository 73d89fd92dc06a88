/* SPDX-License-Identifier: ISC */
/* Machine timer interrupts (node_timer, CLINT addresses of qemu virt): mip.MTIP, masking
 * by mie and mstatus.MIE, mcause/mepc, mret, vectored mtvec, wfi, and interrupts landing
 * on every kind of instruction (loads, stores, mul, div, branches, calls) of a workload
 * whose checksum must come out the same as in a run without interrupts. */
#include "core_test.h"

#define MTIMECMP 0x02004000
#define MTIME    0x0200bff8

BEGIN
    la      t0, vector_table
    ori     t0, t0, 1               /* vectored mode */
    csrw    mtvec, t0
    csrr    a0, mtvec
    CHECK_REG(1, a0, t0)
    li      s5, 0                   /* interrupts taken */
    li      s6, 0                   /* re-arm period (0: disarm) */

    /* mtime counts cycles */
    li      a1, MTIME
    lw      a2, 0(a1)
    lw      a3, 0(a1)
    sub     a3, a3, a2
    CHECK(2, a3, 1)

    /* a pending timer shows in mip but is not taken while masked */
    li      a1, MTIMECMP
    sw      zero, 4(a1)
    sw      zero, 0(a1)
    nop                             /* the core registers its interrupt inputs: mip a cycle later */
    csrr    a0, mip
    andi    a0, a0, 0x80
    CHECK(3, a0, 0x80)
    li      a0, 0x80
    csrw    mie, a0                 /* MTIE, but mstatus.MIE = 0 */
    nop
    nop
    CHECK(4, s5, 0)
    csrw    mie, zero
    csrsi   mstatus, 8              /* MIE, but mie.MTIE = 0 */
    nop
    nop
    CHECK(5, s5, 0)

    /* enable: taken at once, before the next instruction */
    li      a0, 0x80
    la      a2, 10f
    csrw    mie, a0
10: nop
    CHECK(6, s5, 1)
    CHECK(7, s2, 0x80000007)
    CHECK_REG(8, s3, a2)
    csrr    a0, mstatus             /* mret gave MIE back */
    andi    a0, a0, 0x88
    CHECK(9, a0, 0x88)
    csrr    a0, mip                 /* the handler disarmed the timer */
    andi    a0, a0, 0x80
    CHECK(10, a0, 0)

    /* wfi, then the interrupt arrives */
    li      a1, MTIME
    lw      a2, 0(a1)
    addi    a2, a2, 40
    li      a1, MTIMECMP
    sw      a2, 0(a1)
    sw      zero, 4(a1)
    wfi
    li      a3, 1
11: beq     s5, a3, 11b
    CHECK(11, s5, 2)

    /* the workload without interrupts ... */
    csrci   mstatus, 8
    la      s0, array
    jal     s11, workload
    mv      s8, a0
    /* ... and with an interrupt every 6..29 cycles */
    li      s6, 6
    li      s5, 0
    li      a1, MTIMECMP
    sw      zero, 0(a1)
    sw      zero, 4(a1)
    csrsi   mstatus, 8
    jal     s11, workload
    csrci   mstatus, 8
    CHECK_REG(12, a0, s8)
    li      a1, 300                 /* plenty of interrupts landed */
    li      t4, 13
    blt     s5, a1, test_fail
    PASS

/* checksum workload: a0 = result; uses a0-a7, t0-t3, ra, s0 (array) */
workload:
    li      t0, 0
    li      t3, 0x9e3779b1
1:  mul     t1, t0, t3
    slli    t2, t0, 2
    add     t2, t2, s0
    sw      t1, 0(t2)
    addi    t0, t0, 1
    li      t1, 64
    blt     t0, t1, 1b
    li      t0, 0
    li      a0, 0
2:  andi    t1, t0, 63
    slli    t1, t1, 2
    add     t1, t1, s0
    lw      a1, 0(t1)
    add     a2, a1, a0
    andi    a3, t0, 15
    addi    a3, a3, 1
    divu    a4, a2, a3
    remu    a5, a2, a3
    mul     a6, a4, a3
    add     a6, a6, a5
    li      t4, 14
    bne     a6, a2, test_fail       /* q * d + r == n */
    div     a7, a2, a3
    xor     a0, a0, a4
    add     a0, a0, a7
    slli    a7, a0, 5
    srli    t2, a0, 27
    or      a0, a7, t2
    lh      t2, 2(t1)
    add     a0, a0, t2
    sb      a0, 1(t1)
    jal     ra, helper
    addi    t0, t0, 1
    li      t2, 400
    blt     t0, t2, 2b
    jr      s11
helper:
    add     a0, a0, t0
    xori    a0, a0, 0x5a
    ret

/* vectored mtvec: exceptions at entry 0, the timer interrupt at entry 7 */
    .balign 64
vector_table:
    j       unexpected
    .rept 6
    j       unexpected
    .endr
    j       timer_handler
    .rept 8
    j       unexpected
    .endr

unexpected:
    li      t4, 99
    j       test_fail

/* uses only s2-s6 and t6; re-arms the timer s6 cycles ahead (s6 cycles 6..29), or
 * disarms it when s6 = 0 */
timer_handler:
    csrr    s2, mcause
    csrr    s3, mepc
    addi    s5, s5, 1
    li      s4, MTIMECMP
    beqz    s6, 1f
    addi    s6, s6, 1
    li      t6, 30
    blt     s6, t6, 2f
    li      s6, 6
2:  li      t6, MTIME
    lw      t6, 0(t6)
    add     t6, t6, s6
    sw      t6, 0(s4)
    sw      zero, 4(s4)
    mret
1:  li      t6, -1
    sw      t6, 4(s4)
    sw      t6, 0(s4)
    mret
END

    .data
    .balign 4
array: .space 256
