/* SPDX-License-Identifier: ISC */
/* The boot ROM's entry (the board tile's reset pc, BOARD_BOOT_BASE): a stack at the top of
 * the RAM (the image may not load there: BOARD_BOOT_STACK), then boot_main, which never
 * returns (it jumps to the firmware or stops with an error). */
    .section .text.start, "ax", @progbits
    .globl _start
_start:
    la      sp, __boot_stack_top
    call    boot_main
1:  j       1b
