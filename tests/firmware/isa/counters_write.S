/* SPDX-License-Identifier: ISC
 * Writes to the counters. A CSR write to minstret or minstreth sets the counter instead
 * of the writing instruction's own count (privileged spec: the write takes the place of
 * the increment): after `csrw minstret, v` a read gives v; after `csrw minstreth, h` with
 * the low half at 0xffffffff the low half is still 0xffffffff (a count by the csrw would
 * have carried it into h + 1, 0). mcycle written reads back the value plus the few
 * cycles since.
 * QEMU-SKIP: qemu counts the writing instruction too (its minstret follows -icount)
 */
#include "isa_test.h"

TEST_BEGIN
    /* minstret: the written value, then + 1 per instruction */
    li      t0, 5
    csrw    minstret, t0
    csrr    s0, minstret        /* 5: the csrw itself not counted */
    csrr    s1, minstret        /* 6 */
    TEST_EQ(1, s0, 5)
    TEST_EQ(2, s1, 6)
    /* minstreth written while the low half is all ones */
    li      t0, -1
    li      t1, 7
    csrw    minstret, t0        /* {hi, 0xffffffff} */
    csrw    minstreth, t1       /* {7, 0xffffffff} */
    csrr    s0, minstret        /* 0xffffffff; its own retirement carries: {8, 0} */
    csrr    s1, minstreth       /* 8 */
    csrr    s2, minstret        /* 1 */
    TEST_EQ(3, s0, 0xffffffff)
    TEST_EQ(4, s1, 8)
    TEST_EQ(5, s2, 1)
    /* minstreth written, the low half keeps counting from where it was */
    li      t0, 100
    li      t1, 0
    csrw    minstret, t0        /* {8, 100} */
    csrw    minstreth, t1       /* {0, 100} */
    csrr    s0, minstret        /* 100 */
    csrr    s1, minstreth       /* 0 */
    TEST_EQ(6, s0, 100)
    TEST_EQ(7, s1, 0)
    /* mcycle: the written value plus the cycles since (a few) */
    li      t0, 1000
    csrw    mcycle, t0
    csrr    s0, mcycle
    addi    s0, s0, -1000       /* cycles since the write: 0 < s0 < 64 */
    sltiu   a4, s0, 64
    TEST_EQ(8, a4, 1)
    TEST_PASS
TEST_END
