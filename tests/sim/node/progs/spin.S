/* SPDX-License-Identifier: ISC */
/* node-sim check: loops forever (must end at --max-cycles with status 125). */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
1:  j       1b

    .section .tohost, "aw", @progbits
    .balign 8
    .globl tohost
tohost: .word 0, 0
