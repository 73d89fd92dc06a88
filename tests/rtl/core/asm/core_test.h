/* SPDX-License-Identifier: ISC */
/* Directed bring-up tests of rtl/core (run on node-sim): tiny self-checking programs.
 *
 * CHECK(n, reg, value) compares a register with a constant; a mismatch ends the run with
 * exit status n (tohost = n << 1 | 1). PASS ends it with status 0. The macros use t3, t4,
 * t5; the trap handler (TRAP_HANDLER) records mcause, mepc, mtval in s2, s3, s4, counts
 * traps in s5, and resumes at the address in s10.
 */
#ifndef CORE_TEST_H
#define CORE_TEST_H

#define BEGIN                               \
    .section .text.init, "ax", @progbits;   \
    .globl _start;                          \
_start:

#define CHECK(n, reg, value)                \
    li      t5, value;                      \
    li      t4, n;                          \
    bne     reg, t5, test_fail

#define CHECK_REG(n, reg, reg2)             \
    li      t4, n;                          \
    bne     reg, reg2, test_fail

/* run `insn` expecting a trap with this mcause; resumes after it */
#define EXPECT_TRAP(n, cause, ...)          \
    la      s10, 90f;                       \
    li      s2, -1;                         \
    __VA_ARGS__;                            \
    li      t4, n;                          \
    j       test_fail;                      \
90: CHECK(n, s2, cause)

#define PASS                                \
    li      t4, 0;                          \
    j       test_exit

#define END                                 \
test_fail:                                  \
test_exit:                                  \
    slli    t4, t4, 1;                      \
    ori     t4, t4, 1;                      \
    la      t3, tohost;                     \
    sw      t4, 0(t3);                      \
2:  j       2b;                             \
    .section .tohost, "aw", @progbits;      \
    .balign 8;                              \
    .globl tohost;                          \
tohost: .word 0, 0

#define TRAP_HANDLER                        \
    .balign 4;                              \
trap_handler:                               \
    csrr    s2, mcause;                     \
    csrr    s3, mepc;                       \
    csrr    s4, mtval;                      \
    addi    s5, s5, 1;                      \
    csrw    mepc, s10;                      \
    mret

#endif
