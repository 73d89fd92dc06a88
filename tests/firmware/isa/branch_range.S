/* SPDX-License-Identifier: ISC */
/* Branch offsets at the ends of their 13-bit range: -4096 (taken), +4092 (taken), the
 * offsets with bit 11 set (+-2048), and +4094, which reaches a 2-byte aligned target: not
 * taken it is fine, taken it raises instruction-address-misaligned (mcause 0, mepc = the
 * branch; mtval = the target is checked in trap_target_mtval.S) because the core has
 * no C extension. */
#include "isa_test.h"

TEST_BEGIN
    .option norelax
    /* +4092 */
    li      gp, 1
br_fwd_4092:
    beq     x0, x0, br_fwd_4092_target
    j       isa_fail
    .fill   (4092 - 8) / 4, 4, 0          /* zeros: illegal, trap if executed */
br_fwd_4092_target:
    /* -4096: jump over the target block first */
    li      gp, 2
    j       br_bwd_4096
br_bwd_4096_target:
    j       br_bwd_4096_done
    .fill   (4096 - 4) / 4, 4, 0
br_bwd_4096:
    bne     x0, gp, br_bwd_4096_target
    j       isa_fail
br_bwd_4096_done:
    /* +2048 and -2048 */
    li      gp, 3
    li      a1, 1
br_fwd_2048:
    bgeu    a1, x0, br_fwd_2048_target
    j       isa_fail
    .fill   (2048 - 8) / 4, 4, 0
br_fwd_2048_target:
    li      gp, 4
    j       br_bwd_2048
br_bwd_2048_target:
    j       br_bwd_2048_done
    .fill   (2048 - 4) / 4, 4, 0
br_bwd_2048:
    blt     x0, a1, br_bwd_2048_target
    j       isa_fail
br_bwd_2048_done:
    /* +4094 not taken: no trap, falls through */
    li      gp, 5
br_nt_4094:
    bne     x0, x0, br_nt_4094 + 4094
    j       br_nt_4094_done
    j       isa_fail
br_nt_4094_done:
    /* +4094 taken: misaligned target */
    li      gp, 6
    li      s9, 0
    li      s6, 0                         /* mtval: see trap_target_mtval.S */
    la      s11, br_t_4094
    la      s8, br_t_4094_done
    la      t0, isa_expected_trap
    csrw    mtvec, t0
br_t_4094:
    beq     x0, x0, br_t_4094 + 4094
    j       isa_fail_no_trap
    .fill   (4096 - 8) / 4, 4, 0
br_t_4094_done:
    la      t0, isa_unexpected_trap
    csrw    mtvec, t0
    TEST_EQ(7, s7, 1)
    /* a short misaligned forward branch, taken: +6 */
    TEST_TRAP_ANY_TVAL(8, 0, br_short: blt x0, gp, br_short + 6)
    TEST_EQ(9, s7, 2)
    TEST_PASS
TEST_END
