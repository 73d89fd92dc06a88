/* SPDX-License-Identifier: ISC */
/* node-sim check: prints a fixed line on the console, then exits with status 3. */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li      t0, 0x10000000
    la      t1, message
1:  lbu     t2, 0(t1)
    beqz    t2, 2f
    sb      t2, 0(t0)
    addi    t1, t1, 1
    j       1b
2:  li      t2, (3 << 1) | 1
    la      t1, tohost
    sw      t2, 0(t1)
3:  j       3b

    .section .rodata
message: .asciz "node-sim console ok\n"

    .section .tohost, "aw", @progbits
    .balign 8
    .globl tohost
tohost: .word 0, 0
