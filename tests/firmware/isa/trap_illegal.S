/* SPDX-License-Identifier: ISC */
/* Illegal instructions: mcause 2, mepc = the instruction, mtval = its encoding, and the
 * handler resumes after it. Covers the all-zero and all-one words, unknown CSRs, writes
 * to read-only CSRs, other extensions (F, A, RV64, S-mode), custom opcodes and reserved
 * funct3/funct7/shamt fields of RV32I/M encodings. */
#include "isa_test.h"

TEST_BEGIN
    /* all zeros */
    TEST_TRAP(1, 2, 0x00000000, .word 0x00000000)
    /* all ones */
    TEST_TRAP(2, 2, 0xffffffff, .word 0xffffffff)
    /* csrr a5, 0x7c0 (unknown CSR) */
    TEST_TRAP(3, 2, 0x7c0027f3, .word 0x7c0027f3)
    /* csrr a5, 0xbc0 (unknown CSR) */
    TEST_TRAP(4, 2, 0xbc0027f3, .word 0xbc0027f3)
    /* csrr a5, fcsr (no F) */
    TEST_TRAP(5, 2, 0x003027f3, .word 0x003027f3)
    /* csrr a5, sstatus (no S) */
    TEST_TRAP(6, 2, 0x100027f3, .word 0x100027f3)
    /* csrr a5, satp (no S) */
    TEST_TRAP(7, 2, 0x180027f3, .word 0x180027f3)
    /* csrw mhartid, a1 (read-only) */
    TEST_TRAP(8, 2, 0xf1459073, .word 0xf1459073)
    /* csrrs a5, mhartid, a1 (read-only, rs1 != 0) */
    TEST_TRAP(9, 2, 0xf145a7f3, .word 0xf145a7f3)
    /* csrrwi x0, mvendorid, 1 (read-only) */
    TEST_TRAP(10, 2, 0xf110d073, .word 0xf110d073)
    /* fadd.s f0,f0,f0 */
    TEST_TRAP(11, 2, 0x00007053, .word 0x00007053)
    /* flw f0,0(a1) */
    TEST_TRAP(12, 2, 0x0005a007, .word 0x0005a007)
    /* lr.w a5,(a1) */
    TEST_TRAP(13, 2, 0x1005a7af, .word 0x1005a7af)
    /* amoadd.w a5,a1,(a1) */
    TEST_TRAP(14, 2, 0x00b5a7af, .word 0x00b5a7af)
    /* custom-0 */
    TEST_TRAP(15, 2, 0x0000000b, .word 0x0000000b)
    /* sret */
    TEST_TRAP(16, 2, 0x10200073, .word 0x10200073)
    /* slli a5,a1,32 (shamt[5]) */
    TEST_TRAP(17, 2, 0x02059793, .word 0x02059793)
    /* srli a5,a1,32 */
    TEST_TRAP(18, 2, 0x0205d793, .word 0x0205d793)
    /* srai with funct7 0x21 */
    TEST_TRAP(19, 2, 0x4205d793, .word 0x4205d793)
    /* slli funct7 0x20 */
    TEST_TRAP(20, 2, 0x40159793, .word 0x40159793)
    /* add funct7 0x40 */
    TEST_TRAP(21, 2, 0x80b587b3, .word 0x80b587b3)
    /* sll funct7 0x20 */
    TEST_TRAP(22, 2, 0x40b597b3, .word 0x40b597b3)
    /* and funct7 0x02 */
    TEST_TRAP(23, 2, 0x04b5f7b3, .word 0x04b5f7b3)
    /* ld (funct3 3) */
    TEST_TRAP(24, 2, 0x0005b783, .word 0x0005b783)
    /* lwu (funct3 6) */
    TEST_TRAP(25, 2, 0x0005e783, .word 0x0005e783)
    /* load funct3 7 */
    TEST_TRAP(26, 2, 0x0005f783, .word 0x0005f783)
    /* sd (funct3 3) */
    TEST_TRAP(27, 2, 0x00b5b023, .word 0x00b5b023)
    /* store funct3 4 */
    TEST_TRAP(28, 2, 0x00b5c023, .word 0x00b5c023)
    /* branch funct3 2 */
    TEST_TRAP(29, 2, 0x00b5a463, .word 0x00b5a463)
    /* branch funct3 3 */
    TEST_TRAP(30, 2, 0x00b5b463, .word 0x00b5b463)
    /* jalr funct3 1 */
    TEST_TRAP(31, 2, 0x000597e7, .word 0x000597e7)
    /* OP-32 addw (RV64 only) */
    TEST_TRAP(32, 2, 0x00b587bb, .word 0x00b587bb)
    /* OP-IMM-32 addiw */
    TEST_TRAP(33, 2, 0x0015879b, .word 0x0015879b)
    /* ecall with rd!=0 */
    TEST_TRAP(34, 2, 0x000007f3, .word 0x000007f3)
    /* mret with rs1 !=0 */
    TEST_TRAP(35, 2, 0x30208073, .word 0x30208073)
    /* a destination register is not written by an illegal instruction (a5 is the rd of
     * several encodings above) */
    li      a5, 0x0badcafe
    TEST_TRAP(50, 2, 0x7c0027f3, .word 0x7c0027f3)
    TEST_EQ(51, a5, 0x0badcafe)
    TEST_EQ(52, s7, 36)
    TEST_PASS
TEST_END
