/* SPDX-License-Identifier: ISC */
/* mtval of instruction-address-misaligned traps raised by taken branches and JAL: the
 * spec has it hold the (misaligned) target address, as it does for JALR.
 * QEMU-SKIP: qemu 7.2 writes the branch/JAL's own pc to mtval here (a qemu bug; its JALR is right)
 */
#include "isa_test.h"

TEST_BEGIN
    .option norelax
    TEST_TRAP(1, 0, br_mis_1 + 6, br_mis_1: beq x0, x0, br_mis_1 + 6)
    TEST_TRAP(2, 0, br_mis_2 + 2, br_mis_2: bgeu gp, x0, br_mis_2 + 2)
    li      a1, -1
    TEST_TRAP(3, 0, br_mis_3 + 10, br_mis_3: bltu x0, a1, br_mis_3 + 10)
    TEST_TRAP(4, 0, jal_mis_4 + 2, jal_mis_4: jal ra, jal_mis_4 + 2)
    TEST_TRAP(5, 0, jal_mis_5 + 6, jal_mis_5: jal x0, jal_mis_5 + 6)
    la      a1, jalr_mis_6 + 6
    TEST_TRAP(6, 0, jalr_mis_6 + 6, jalr_mis_6: jalr ra, 0(a1))
    /* backward: -2 from a branch */
    TEST_TRAP(7, 0, br_mis_7 - 2, br_mis_7: bne x0, gp, br_mis_7 - 2)
    TEST_EQ(8, s7, 7)
    TEST_PASS
TEST_END
