/* SPDX-License-Identifier: ISC */
/* Self-modifying code: a store that rewrites an instruction followed by FENCE.I makes
 * the new instruction the one executed, whether the rewritten word is just after the
 * FENCE.I, further on, or in a routine run before (stale old instruction must not run). */
#include "isa_test.h"

/* encodings written at run time */
#define ADDI_A4_ZERO_42  0x02a00713   /* addi a4, zero, 42 */
#define ADDI_A4_ZERO_7   0x00700713   /* addi a4, zero, 7 */
#define ADDI_A4_A4_1     0x00170713   /* addi a4, a4, 1 */

TEST_BEGIN
    .option norelax
    /* the rewritten word right after the FENCE.I */
    la      a1, smc_slot_1
    li      a2, ADDI_A4_ZERO_42
    li      a4, 0
    sw      a2, 0(a1)
    fence.i
smc_slot_1:
    nop
    TEST_EQ(1, a4, 42)
    /* rewritten further on */
    la      a1, smc_slot_2
    li      a2, ADDI_A4_ZERO_7
    li      a4, 0
    sw      a2, 0(a1)
    fence.i
    nop
    nop
    nop
smc_slot_2:
    nop
    TEST_EQ(2, a4, 7)
    /* a routine run once, rewritten, run again: the new instruction runs */
    li      a4, 0
    call    smc_routine                 /* nop: a4 stays 0 */
    TEST_EQ(3, a4, 0)
    la      a1, smc_routine
    li      a2, ADDI_A4_A4_1
    sw      a2, 0(a1)
    fence.i
    call    smc_routine
    call    smc_routine
    TEST_EQ(4, a4, 2)
    /* and back to the original (nop) */
    li      a2, 0x00000013
    sw      a2, 0(a1)
    fence.i
    call    smc_routine
    TEST_EQ(5, a4, 2)
    /* a loop whose body is rewritten between two runs of it */
    li      a4, 0
    call    smc_loop
    TEST_EQ(6, a4, 0)
    la      a1, smc_loop_slot
    li      a2, ADDI_A4_A4_1
    sw      a2, 0(a1)
    fence.i
    call    smc_loop
    TEST_EQ(7, a4, 3)
    TEST_PASS

/* three iterations of a body holding one rewritable word */
smc_loop:
    li      t3, 3
1:
smc_loop_slot:
    nop
    addi    t3, t3, -1
    bnez    t3, 1b
    ret

smc_routine:
    nop
    ret
TEST_END
