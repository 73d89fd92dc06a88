/* SPDX-License-Identifier: ISC */
/* CSR writes used by the very next instruction: a new mtvec by an ECALL or an illegal
 * instruction right after it, a new mepc by an MRET right after it, mscratch read back
 * and branched on at once, and a CSR read right after a trap return. */
#include "isa_test.h"

TEST_BEGIN
    li      s4, 0
    /* mtvec written, ECALL right after: goes to the new vector */
    la      t0, csr_handler_a
    csrw    mtvec, t0
    ecall
    TEST_EQ(1, s4, 1)
    la      t0, csr_handler_b
    csrw    mtvec, t0
    ecall
    TEST_EQ(2, s4, 0x101)
    /* mtvec written, illegal instruction right after */
    la      t0, csr_handler_a
    csrw    mtvec, t0
    .word   0
    TEST_EQ(3, s4, 0x102)
    /* mepc written, MRET right after */
    li      t0, 0x1800
    csrs    mstatus, t0
    la      t0, 1f
    csrw    mepc, t0
    mret
    j       isa_fail
1:  li      gp, 4
    /* mepc written from a register produced right before (MPP = M again: qemu's MRET
     * leaves MPP = U) */
    li      t0, 0x1800
    csrs    mstatus, t0
    la      t0, 1f - 8
    addi    t0, t0, 8
    csrw    mepc, t0
    mret
    j       isa_fail
1:  li      gp, 5
    /* mscratch written, read and branched on at once */
    li      a1, 77
    csrw    mscratch, a1
    csrr    a2, mscratch
    li      a3, 77
    bne     a2, a3, isa_fail
    /* csrrw swap chain: three in a row through mscratch */
    li      a1, 1
    li      a2, 2
    li      a3, 3
    csrw    mscratch, a1
    csrrw   a1, mscratch, a2        /* a1 = 1, mscratch = 2 */
    csrrw   a2, mscratch, a3        /* a2 = 2, mscratch = 3 */
    csrrw   a3, mscratch, a1        /* a3 = 3, mscratch = 1 */
    TEST_EQ(6, a1, 1)
    TEST_EQ(7, a2, 2)
    TEST_EQ(8, a3, 3)
    csrr    a4, mscratch
    TEST_EQ(9, a4, 1)
    /* CSR read right after a trap return: the handler wrote mscratch */
    la      t0, csr_handler_c
    csrw    mtvec, t0
    ecall
    csrr    a4, mscratch
    TEST_EQ(10, a4, 0x5eed)
    la      t0, isa_unexpected_trap
    csrw    mtvec, t0
    TEST_PASS

    .balign 4
csr_handler_a:
    addi    s4, s4, 1
    csrr    t0, mepc
    addi    t0, t0, 4
    csrw    mepc, t0
    mret
    .balign 4
csr_handler_b:
    addi    s4, s4, 0x100
    csrr    t0, mepc
    addi    t0, t0, 4
    csrw    mepc, t0
    mret
    .balign 4
csr_handler_c:
    li      t0, 0x5eed
    csrw    mscratch, t0
    csrr    t0, mepc
    addi    t0, t0, 4
    csrw    mepc, t0
    mret
TEST_END
