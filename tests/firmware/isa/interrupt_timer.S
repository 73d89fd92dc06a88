/* SPDX-License-Identifier: ISC */
/* The machine timer interrupt through the timer at qemu virt's CLINT addresses (mtimecmp
 * 0x02004000, mtime 0x0200bff8; the node has the same): mip.MTIP follows
 * mtime >= mtimecmp; nothing is taken while mie.MTIE or mstatus.MIE is 0; with both set the
 * interrupt is taken before the next instruction with mcause 0x80000007, mepc = that
 * instruction, MPIE = 1, MIE = 0; MRET returns and re-enables; WFI with an interrupt
 * pending does not hang; vectored mtvec sends it to base + 4 * 7. */
#include "isa_test.h"

#define MTIMECMP 0x02004000
#define MTIME    0x0200bff8
#define MIP_MTIP 0x80
#define MIE_MTIE 0x80
#define MSTATUS_MIE 0x8

/* mtimecmp = all ones: no timer interrupt pending */
#define TIMER_OFF                 \
    li      t4, MTIMECMP;         \
    li      t5, -1;               \
    sw      t5, 4(t4);            \
    sw      t5, 0(t4)

/* mtimecmp = 0: pending from now on */
#define TIMER_FIRE                \
    li      t4, MTIMECMP;         \
    sw      x0, 0(t4);            \
    sw      x0, 4(t4)

TEST_BEGIN
    csrw    mie, x0
    csrci   mstatus, MSTATUS_MIE
    la      t0, timer_handler
    csrw    mtvec, t0
    li      s4, 0                   /* interrupts taken */
    TIMER_OFF
    csrr    a1, mip
    andi    a4, a1, MIP_MTIP
    TEST_EQ(1, a4, 0)
    /* mtime counts up */
    li      t4, MTIME
    lw      a1, 0(t4)
    li      a2, 300
1:  addi    a2, a2, -1
    bnez    a2, 1b
    lw      a2, 0(t4)
    sltu    a4, a1, a2
    TEST_EQ(2, a4, 1)
    /* pending, but mie = 0 and MIE = 0: not taken */
    TIMER_FIRE
    nop
    csrr    a1, mip
    andi    a4, a1, MIP_MTIP
    TEST_EQ(3, a4, MIP_MTIP)
    /* MTIE = 1, MIE = 0: not taken */
    li      t0, MIE_MTIE
    csrs    mie, t0
    nop
    nop
    TEST_EQ(4, s4, 0)
    /* MIE = 1, MTIE = 0: not taken */
    csrc    mie, t0
    csrsi   mstatus, MSTATUS_MIE
    nop
    nop
    csrci   mstatus, MSTATUS_MIE
    TEST_EQ(5, s4, 0)
    /* WFI with the interrupt pending (enabled in mie, MIE = 0) must not hang */
    csrs    mie, t0
    wfi
    TEST_EQ(6, s4, 0)
    /* both enabled: taken before the instruction after the csrs */
    csrsi   mstatus, MSTATUS_MIE
timer_after_enable:
    nop
    nop
    csrci   mstatus, MSTATUS_MIE
    TEST_EQ(7, s4, 1)
    li      t3, 0x80000007
    TEST_EQ_REG(8, s3, t3)          /* mcause */
    la      t3, timer_after_enable
    TEST_EQ_REG(9, s2, t3)          /* mepc */
    andi    a4, s5, MSTATUS_MIE     /* mstatus in the handler */
    TEST_EQ(10, a4, 0)
    andi    a4, s5, 0x80
    TEST_EQ(11, a4, 0x80)
    /* the handler turned the timer off: MTIP clear again */
    csrr    a1, mip
    andi    a4, a1, MIP_MTIP
    TEST_EQ(12, a4, 0)
    /* MRET re-enabled MIE; cleared above; check the handler ran only once */
    TEST_EQ(13, s4, 1)
    /* vectored mode: the timer interrupt goes to base + 4 * 7 */
    la      t0, timer_vector_table
    ori     t0, t0, 1
    csrw    mtvec, t0
    csrr    a4, mtvec
    TEST_EQ_REG(14, a4, t0)
    TIMER_FIRE
    csrsi   mstatus, MSTATUS_MIE
    nop
    nop
    csrci   mstatus, MSTATUS_MIE
    TEST_EQ(15, s4, 2)
    li      t3, 0x80000007
    TEST_EQ_REG(16, s3, t3)
    /* an exception in vectored mode still goes to the base */
    la      t0, timer_vector_table
    ori     t0, t0, 1
    csrw    mtvec, t0
    li      s6, 0
    ecall
    TEST_EQ(17, s6, 11)
    la      t0, isa_unexpected_trap
    csrw    mtvec, t0
    csrw    mie, x0
    TEST_PASS

    .balign 4
timer_handler:
    csrr    s5, mstatus
    csrr    s3, mcause
    csrr    s2, mepc
    addi    s4, s4, 1
    li      t4, MTIMECMP
    li      t5, -1
    sw      t5, 4(t4)
    sw      t5, 0(t4)
    mret

    /* vectored table: entry 0 (exceptions), entries 1..6 unused, entry 7 the timer */
    .balign 64
timer_vector_table:
    j       vector_exception
    j       isa_unexpected_trap
    j       isa_unexpected_trap
    j       isa_unexpected_trap
    j       isa_unexpected_trap
    j       isa_unexpected_trap
    j       isa_unexpected_trap
    j       timer_handler
vector_exception:
    csrr    s6, mcause
    csrr    t0, mepc
    addi    t0, t0, 4
    csrw    mepc, t0
    mret
TEST_END
