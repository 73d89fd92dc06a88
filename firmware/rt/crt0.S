/* SPDX-License-Identifier: ISC */
/* rvmesh crt0: reset entry and trap entry of every C firmware image.
 *
 * _start (first word of RAM, the core's reset PC): set gp, sp and tp, clear .bss and
 * .tbss, install the trap vector, run the constructors and main, and exit with main's
 * return value through rvmesh_exit (tohost).
 *
 * rvmesh_trap_entry saves all integer registers in a frame on the stack, calls
 * rvmesh_trap(frame) (firmware/rt/rt.c, weak so a program can supply its own), writes
 * the mepc it returns back, restores the registers and executes mret.
 */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      tp, __tls_base

    /* clear .bss and .tbss (both 8-byte aligned in the linker script) */
    la      a0, __bss_start
    la      a1, __bss_end
1:  bgeu    a0, a1, 2f
    sw      zero, 0(a0)
    sw      zero, 4(a0)
    addi    a0, a0, 8
    j       1b
2:  la      a0, __tbss_start
    la      a1, __tbss_end
3:  bgeu    a0, a1, 4f
    sb      zero, 0(a0)
    addi    a0, a0, 1
    j       3b
4:
    la      t0, rvmesh_trap_entry
    csrw    mtvec, t0

    call    __libc_init_array
    li      a0, 0
    li      a1, 0
    call    main
    call    exit
5:  j       5b

/* ---------------------------------------------------------------- trap entry */
    .text
    .balign 4
    .globl rvmesh_trap_entry
rvmesh_trap_entry:
    addi    sp, sp, -128
    sw      x1, 4(sp)
    sw      x3, 12(sp)
    sw      x4, 16(sp)
    sw      x5, 20(sp)
    sw      x6, 24(sp)
    sw      x7, 28(sp)
    sw      x8, 32(sp)
    sw      x9, 36(sp)
    sw      x10, 40(sp)
    sw      x11, 44(sp)
    sw      x12, 48(sp)
    sw      x13, 52(sp)
    sw      x14, 56(sp)
    sw      x15, 60(sp)
    sw      x16, 64(sp)
    sw      x17, 68(sp)
    sw      x18, 72(sp)
    sw      x19, 76(sp)
    sw      x20, 80(sp)
    sw      x21, 84(sp)
    sw      x22, 88(sp)
    sw      x23, 92(sp)
    sw      x24, 96(sp)
    sw      x25, 100(sp)
    sw      x26, 104(sp)
    sw      x27, 108(sp)
    sw      x28, 112(sp)
    sw      x29, 116(sp)
    sw      x30, 120(sp)
    sw      x31, 124(sp)
    addi    t0, sp, 128
    sw      t0, 8(sp)           /* frame[2] = sp before the trap */
    sw      zero, 0(sp)         /* frame[0] = x0 */
    mv      a0, sp
    call    rvmesh_trap
    csrw    mepc, a0
    lw      x1, 4(sp)
    lw      x3, 12(sp)
    lw      x4, 16(sp)
    lw      x5, 20(sp)
    lw      x6, 24(sp)
    lw      x7, 28(sp)
    lw      x8, 32(sp)
    lw      x9, 36(sp)
    lw      x10, 40(sp)
    lw      x11, 44(sp)
    lw      x12, 48(sp)
    lw      x13, 52(sp)
    lw      x14, 56(sp)
    lw      x15, 60(sp)
    lw      x16, 64(sp)
    lw      x17, 68(sp)
    lw      x18, 72(sp)
    lw      x19, 76(sp)
    lw      x20, 80(sp)
    lw      x21, 84(sp)
    lw      x22, 88(sp)
    lw      x23, 92(sp)
    lw      x24, 96(sp)
    lw      x25, 100(sp)
    lw      x26, 104(sp)
    lw      x27, 108(sp)
    lw      x28, 112(sp)
    lw      x29, 116(sp)
    lw      x30, 120(sp)
    lw      x31, 124(sp)
    addi    sp, sp, 128
    mret
