/* SPDX-License-Identifier: ISC */
/* A tiny board program (assembly, linked alone): prints "tiny: node N of M" from the NI's
 * NODE register, stores a word in the data bank and reads it back, and exits with status 0
 * through tohost: an assembly program (no C runtime) booted on the simulated board by
 * tests/boards/test_board_boot.sh. */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li      s0, 0x10000000          /* console */
    la      a0, msg
    call    puts
    li      t0, 0x20000000
    lw      s1, 0xc(t0)             /* NODE: index [15:0], count [31:16] */
    andi    a0, s1, 0xff
    call    putdigit
    la      a0, of
    call    puts
    srli    a0, s1, 16
    call    putdigit
    la      t1, scratch             /* a word in the data bank, written and read back */
    li      t2, 0x5a5aa5a5
    sw      t2, 0(t1)
    lw      t3, 0(t1)
    li      a1, 3                   /* exit status 3 if the word came back wrong */
    bne     t2, t3, 1f
    li      a1, 0
1:  li      a0, '\n'
    sb      a0, 0(s0)
    slli    a1, a1, 1
    ori     a1, a1, 1
    la      t0, tohost
    sw      a1, 0(t0)
2:  j       2b

puts:                               /* a0: string */
    lbu     t0, 0(a0)
    beqz    t0, 1f
    sb      t0, 0(s0)
    addi    a0, a0, 1
    j       puts
1:  ret
putdigit:                           /* a0: 0..9 */
    addi    a0, a0, '0'
    sb      a0, 0(s0)
    ret

    .section .rodata
msg: .asciz "tiny: node "
of:  .asciz " of "
    .section .bss
    .balign 4
scratch: .word 0
    .section .tohost, "aw", @progbits
    .balign 8
    .globl tohost
tohost: .word 0
