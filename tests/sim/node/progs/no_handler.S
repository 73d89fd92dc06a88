/* SPDX-License-Identifier: ISC */
/* node-sim check: an ecall while mtvec is still 0 (reset value). The trap goes to
 * address 0, which cannot be fetched, so the handler's first instruction traps again:
 * the core halts and node-sim exits with status 126. */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    ecall
1:  j       1b

    .section .tohost, "aw", @progbits
    .balign 8
    .globl tohost
tohost: .word 0, 0
