/* SPDX-License-Identifier: ISC */
/* rvmesh ISA test harness: macros for self-checking RV32IM assembly tests.
 *
 * A test file includes this header, opens with TEST_BEGIN, makes numbered checks and
 * ends with TEST_PASS and TEST_END. Every check loads its test number into gp first; a
 * failing check prints
 *     FAIL test <n> (<what>): got <hex> expected <hex>
 * on the console and ends the run with exit status <n>, so the exit status names the
 * check. Test numbers are 1..99 (100 means "failed before the first test"; node-sim
 * keeps 120..126 for its own errors).
 *
 * Register use of the macros (a test may use any other register freely):
 *   gp (x3)   number of the running test
 *   a4 (x14)  value under test ("got")      t2 (x7)  expected value
 *   a1 (x11)  first operand                 a2 (x12) second operand
 *   s6..s11   expected-trap bookkeeping (TEST_TRAP*), s7 counts expected traps taken;
 *             the expected-trap handler overwrites a4 and t2
 *
 * The same image runs on node-sim (ends at the store to `tohost`) and on
 * qemu-system-riscv32 -machine virt (ends at the test finisher at 0x100000).
 * An unexpected trap prints mcause/mepc/mtval and fails the running test.
 */
#ifndef ISA_TEST_H
#define ISA_TEST_H

#define ISA_CONSOLE_TX   0x10000000
#define ISA_QEMU_FINISH  0x00100000

/* ------------------------------------------------------------------ frame */

#define TEST_BEGIN                                  \
    .section .text.init, "ax", @progbits;           \
    .globl _start;                                  \
_start:                                             \
    la      t0, isa_unexpected_trap;                \
    csrw    mtvec, t0;                              \
    li      gp, 0;                                  \
    li      s7, 0

/* Every check passed: exit 0. */
#define TEST_PASS                                   \
    li      a0, 0;                                  \
    j       isa_exit

/* ------------------------------------------------------------------ checks */

/* Compare register `reg` with the constant `expected` as test `n`. */
#define TEST_EQ(n, reg, expected)                   \
    li      gp, n;                                  \
    mv      a4, reg;                                \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* Compare two registers as test `n`: got `reg`, expected `expected_reg`. */
#define TEST_EQ_REG(n, reg, expected_reg)           \
    li      gp, n;                                  \
    mv      a4, reg;                                \
    mv      t2, expected_reg;                       \
    bne     a4, t2, isa_fail

/* Register-register op: rd = a4, rs1 = a1 = v1, rs2 = a2 = v2. */
#define TEST_RR(n, inst, expected, v1, v2)          \
    li      a1, v1;                                 \
    li      a2, v2;                                 \
    inst    a4, a1, a2;                             \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* rd = rs1 (the result overwrites the first source). */
#define TEST_RR_SRC1_IS_DEST(n, inst, expected, v1, v2) \
    li      a1, v1;                                 \
    li      a2, v2;                                 \
    inst    a1, a1, a2;                             \
    li      gp, n;                                  \
    mv      a4, a1;                                 \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* rd = rs2. */
#define TEST_RR_SRC2_IS_DEST(n, inst, expected, v1, v2) \
    li      a1, v1;                                 \
    li      a2, v2;                                 \
    inst    a2, a1, a2;                             \
    li      gp, n;                                  \
    mv      a4, a2;                                 \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* rd = rs1 = rs2. */
#define TEST_RR_ALL_SAME(n, inst, expected, v1)     \
    li      a1, v1;                                 \
    inst    a1, a1, a1;                             \
    li      gp, n;                                  \
    mv      a4, a1;                                 \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* rd = x0: the write is dropped, x0 still reads 0 right after. */
#define TEST_RR_ZERO_DEST(n, inst, v1, v2)          \
    li      a1, v1;                                 \
    li      a2, v2;                                 \
    inst    x0, a1, a2;                             \
    li      gp, n;                                  \
    mv      a4, x0;                                 \
    li      t2, 0;                                  \
    bne     a4, t2, isa_fail

/* rs1 = x0. */
#define TEST_RR_ZERO_SRC1(n, inst, expected, v2)    \
    li      a2, v2;                                 \
    inst    a4, x0, a2;                             \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* rs2 = x0. */
#define TEST_RR_ZERO_SRC2(n, inst, expected, v1)    \
    li      a1, v1;                                 \
    inst    a4, a1, x0;                             \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* Back-to-back dependencies: the operands are produced by the two instructions right
 * before, and the result is consumed by the instruction right after (forwarding paths). */
#define TEST_RR_BYPASS(n, inst, expected, v1, v2)   \
    li      a1, v1;                                 \
    li      a2, v2;                                 \
    addi    a1, a1, 0;                              \
    addi    a2, a2, 0;                              \
    inst    a4, a1, a2;                             \
    addi    a4, a4, 0;                              \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* Register-immediate op: rd = a4, rs1 = a1 = v1. */
#define TEST_IMM(n, inst, expected, v1, imm)        \
    li      a1, v1;                                 \
    inst    a4, a1, imm;                            \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

#define TEST_IMM_SRC_IS_DEST(n, inst, expected, v1, imm) \
    li      a1, v1;                                 \
    inst    a1, a1, imm;                            \
    li      gp, n;                                  \
    mv      a4, a1;                                 \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

#define TEST_IMM_ZERO_DEST(n, inst, v1, imm)        \
    li      a1, v1;                                 \
    inst    x0, a1, imm;                            \
    li      gp, n;                                  \
    mv      a4, x0;                                 \
    li      t2, 0;                                  \
    bne     a4, t2, isa_fail

#define TEST_IMM_ZERO_SRC(n, inst, expected, imm)   \
    inst    a4, x0, imm;                            \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

#define TEST_IMM_BYPASS(n, inst, expected, v1, imm) \
    li      a1, v1;                                 \
    addi    a1, a1, 0;                              \
    inst    a4, a1, imm;                            \
    addi    a4, a4, 0;                              \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* Load: a4 = inst offset(base_label + base_adjust). */
#define TEST_LOAD(n, inst, expected, label, base_adjust, offset) \
    la      a1, label + (base_adjust);              \
    inst    a4, offset(a1);                         \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* Load whose result is used by the very next instruction (load-use hazard). */
#define TEST_LOAD_USE(n, inst, expected, label, offset) \
    la      a1, label;                              \
    inst    a2, offset(a1);                         \
    addi    a4, a2, 0;                              \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* Store `value` with `store`, read it back with `load` (expected: what `load` sees). */
#define TEST_STORE(n, store, load, value, expected, label, offset) \
    la      a1, label;                              \
    li      a2, value;                              \
    store   a2, offset(a1);                         \
    load    a4, offset(a1);                         \
    li      gp, n;                                  \
    li      t2, expected;                           \
    bne     a4, t2, isa_fail

/* Branch that must be taken: falls into isa_fail when it is not. */
#define TEST_BR_TAKEN(n, inst, v1, v2)              \
    li      gp, n;                                  \
    li      a1, v1;                                 \
    li      a2, v2;                                 \
    inst    a1, a2, 1f;                             \
    li      a4, 0;                                  \
    li      t2, 1;                                  \
    j       isa_fail;                               \
1:

/* Branch that must not be taken: jumping counts as the failure. */
#define TEST_BR_NOT_TAKEN(n, inst, v1, v2)          \
    li      gp, n;                                  \
    li      a1, v1;                                 \
    li      a2, v2;                                 \
    inst    a1, a2, 2f;                             \
    j       1f;                                     \
2:  li      a4, 1;                                  \
    li      t2, 0;                                  \
    j       isa_fail;                               \
1:

/* ------------------------------------------------------------------ traps */

/* Test `n`: the single instruction `insn` must trap with mcause `cause`, mepc = its own
 * address and mtval `tval` (a constant or an address expression); the handler resumes
 * after it and counts the trap in s7. */
#define TEST_TRAP(n, cause, tval, insn...)          \
    li      gp, n;                                  \
    li      s9, cause;                              \
    lui     s10, %hi(tval);                         \
    addi    s10, s10, %lo(tval);                    \
    li      s6, 1;                                  \
    la      s11, 1f;                                \
    la      s8, 2f;                                 \
    la      t0, isa_expected_trap;                  \
    csrw    mtvec, t0;                              \
1:  insn;                                           \
    j       isa_fail_no_trap;                       \
2:  la      t0, isa_unexpected_trap;                \
    csrw    mtvec, t0

/* The same without checking mtval (ecall, ebreak: mtval is implementation-defined). */
#define TEST_TRAP_ANY_TVAL(n, cause, insn...)       \
    li      gp, n;                                  \
    li      s9, cause;                              \
    li      s6, 0;                                  \
    la      s11, 1f;                                \
    la      s8, 2f;                                 \
    la      t0, isa_expected_trap;                  \
    csrw    mtvec, t0;                              \
1:  insn;                                           \
    j       isa_fail_no_trap;                       \
2:  la      t0, isa_unexpected_trap;                \
    csrw    mtvec, t0

/* ------------------------------------------------------------------ footer */

#define TEST_END                                    \
    .text;                                          \
    .balign 4;                                      \
/* expected trap: check mcause, mepc, mtval, resume at s8 */ \
isa_expected_trap:                                  \
    csrr    a4, mcause;                             \
    mv      t2, s9;                                 \
    bne     a4, t2, isa_fail_mcause;                \
    csrr    a4, mepc;                               \
    mv      t2, s11;                                \
    bne     a4, t2, isa_fail_mepc;                  \
    beqz    s6, 1f;                                 \
    csrr    a4, mtval;                              \
    mv      t2, s10;                                \
    bne     a4, t2, isa_fail_mtval;                 \
1:  addi    s7, s7, 1;                              \
    csrw    mepc, s8;                               \
    mret;                                           \
isa_unexpected_trap:                                \
    la      a0, isa_msg_trap;                       \
    jal     ra, isa_puts;                           \
    csrr    a0, mcause;                             \
    jal     ra, isa_puthex;                         \
    la      a0, isa_msg_mepc;                       \
    jal     ra, isa_puts;                           \
    csrr    a0, mepc;                               \
    jal     ra, isa_puthex;                         \
    la      a0, isa_msg_mtval;                      \
    jal     ra, isa_puts;                           \
    csrr    a0, mtval;                              \
    jal     ra, isa_puthex;                         \
    la      a0, isa_msg_at;                         \
    jal     ra, isa_puts;                           \
    mv      a0, gp;                                 \
    jal     ra, isa_putdec;                         \
    li      a0, '\n';                               \
    jal     ra, isa_putc;                           \
    j       isa_exit_fail;                          \
isa_fail_no_trap:                                   \
    la      s5, isa_msg_what_no_trap;               \
    li      a4, 0;                                  \
    li      t2, 1;                                  \
    j       isa_fail_common;                        \
isa_fail_mcause:                                    \
    la      s5, isa_msg_what_mcause;                \
    j       isa_fail_common;                        \
isa_fail_mepc:                                      \
    la      s5, isa_msg_what_mepc;                  \
    j       isa_fail_common;                        \
isa_fail_mtval:                                     \
    la      s5, isa_msg_what_mtval;                 \
    j       isa_fail_common;                        \
isa_fail:                                           \
    la      s5, isa_msg_what_value;                 \
isa_fail_common:                                    \
    la      a0, isa_msg_fail;                       \
    jal     ra, isa_puts;                           \
    mv      a0, gp;                                 \
    jal     ra, isa_putdec;                         \
    mv      a0, s5;                                 \
    jal     ra, isa_puts;                           \
    mv      a0, a4;                                 \
    jal     ra, isa_puthex;                         \
    la      a0, isa_msg_expected;                   \
    jal     ra, isa_puts;                           \
    mv      a0, t2;                                 \
    jal     ra, isa_puthex;                         \
    li      a0, '\n';                               \
    jal     ra, isa_putc;                           \
isa_exit_fail:                                      \
    mv      a0, gp;                                 \
    bnez    a0, isa_exit;                           \
    li      a0, 100;                                \
/* exit with status a0: tohost for node-sim, then the qemu finisher */ \
isa_exit:                                           \
    slli    t0, a0, 1;                              \
    ori     t0, t0, 1;                              \
    la      t1, tohost;                             \
    sw      t0, 0(t1);                              \
    li      t0, 0x5555;                             \
    beqz    a0, 1f;                                 \
    slli    t0, a0, 16;                             \
    li      t1, 0x3333;                             \
    or      t0, t0, t1;                             \
1:  li      t1, ISA_QEMU_FINISH;                    \
    sw      t0, 0(t1);                              \
2:  j       2b;                                     \
/* console helpers: clobber a0, a5, a6, t3..t6 (ra = return) */ \
isa_putc:                                           \
    li      t3, ISA_CONSOLE_TX;                     \
    sb      a0, 0(t3);                              \
    ret;                                            \
isa_puts:                                           \
    li      t3, ISA_CONSOLE_TX;                     \
1:  lbu     t4, 0(a0);                              \
    beqz    t4, 2f;                                 \
    sb      t4, 0(t3);                              \
    addi    a0, a0, 1;                              \
    j       1b;                                     \
2:  ret;                                            \
isa_puthex:                                         \
    li      t3, ISA_CONSOLE_TX;                     \
    li      t5, 8;                                  \
1:  srli    t4, a0, 28;                             \
    slli    a0, a0, 4;                              \
    li      t6, 10;                                 \
    blt     t4, t6, 2f;                             \
    addi    t4, t4, 'a' - '0' - 10;                 \
2:  addi    t4, t4, '0';                            \
    sb      t4, 0(t3);                              \
    addi    t5, t5, -1;                             \
    bnez    t5, 1b;                                 \
    ret;                                            \
/* decimal 0..999, by subtraction (no M extension in the harness) */ \
isa_putdec:                                         \
    li      t3, ISA_CONSOLE_TX;                     \
    li      t5, 100;                                \
    li      a6, 0;                                  \
1:  li      t4, 0;                                  \
2:  bltu    a0, t5, 3f;                             \
    sub     a0, a0, t5;                             \
    addi    t4, t4, 1;                              \
    j       2b;                                     \
3:  or      a6, a6, t4;                             \
    li      t6, 1;                                  \
    beq     t5, t6, 4f;                             \
    beqz    a6, 5f;                                 \
4:  addi    t4, t4, '0';                            \
    sb      t4, 0(t3);                              \
5:  li      t6, 100;                                \
    beq     t5, t6, 6f;                             \
    li      t6, 10;                                 \
    beq     t5, t6, 7f;                             \
    ret;                                            \
6:  li      t5, 10;                                 \
    j       1b;                                     \
7:  li      t5, 1;                                  \
    j       1b;                                     \
    .section .rodata;                               \
isa_msg_fail:          .asciz "FAIL test ";         \
isa_msg_what_value:    .asciz " (value): got ";     \
isa_msg_what_mcause:   .asciz " (mcause): got ";    \
isa_msg_what_mepc:     .asciz " (mepc): got ";      \
isa_msg_what_mtval:    .asciz " (mtval): got ";     \
isa_msg_what_no_trap:  .asciz " (no trap): got ";   \
isa_msg_expected:      .asciz " expected ";         \
isa_msg_trap:          .asciz "FAIL unexpected trap: mcause=";  \
isa_msg_mepc:          .asciz " mepc=";             \
isa_msg_mtval:         .asciz " mtval=";            \
isa_msg_at:            .asciz " during test ";      \
    .section .tohost, "aw", @progbits;              \
    .balign 8;                                      \
    .globl tohost;                                  \
tohost: .word 0;                                    \
    .word 0

#endif
