/* SPDX-License-Identifier: ISC */
/* minstret and traps: an instruction that traps (ECALL, EBREAK, an illegal instruction,
 * a misaligned-target jump) does not retire and is not counted; the handler's
 * instructions, MRET included, are (privileged spec, ECALL/EBREAK: "not considered to
 * retire, and should not increment the minstret CSR").
 * QEMU-SKIP: qemu's -icount counts the trapping instruction in minstret
 */
#include "isa_test.h"

TEST_BEGIN
    la      t0, ctr_handler
    csrw    mtvec, t0
    /* read, trapping instruction, handler (4 instructions: csrr, addi, csrw, mret), read:
     * the first csrr + the 4 = 5 */
    csrr    s0, minstret
    ecall
    csrr    s1, minstret
    sub     a4, s1, s0
    TEST_EQ(1, a4, 5)
    csrr    s0, minstret
    ebreak
    csrr    s1, minstret
    sub     a4, s1, s0
    TEST_EQ(2, a4, 5)
    csrr    s0, minstret
    .word   0
    csrr    s1, minstret
    sub     a4, s1, s0
    TEST_EQ(3, a4, 5)
    /* an instruction before and after the trap are counted */
    csrr    s0, minstret
    nop
    ecall
    nop
    csrr    s1, minstret
    sub     a4, s1, s0
    TEST_EQ(4, a4, 7)
    TEST_PASS

    .balign 4
ctr_handler:
    csrr    t0, mepc
    addi    t0, t0, 4
    csrw    mepc, t0
    mret
TEST_END
