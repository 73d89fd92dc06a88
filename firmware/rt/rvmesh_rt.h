/* rvmesh node runtime: console, exit, cycle counters and traps.
 *
 * Every firmware image links firmware/rt/crt0.S and firmware/rt/rt.c. printf and the rest
 * of stdio go to the console register through picolibc's stdout; exit(status) and a
 * return from main end the run through the `tohost` word (the simulator's exit status is
 * then `status`).
 */
#ifndef RVMESH_RT_H
#define RVMESH_RT_H

#include <stdint.h>

/* Console TX register: a byte store prints one character (qemu virt's UART THR too). */
#define RVMESH_CONSOLE_TX_ADDR 0x10000000u
/* qemu virt's test finisher; lets the same image end a qemu run (see rvmesh_exit). */
#define RVMESH_QEMU_FINISHER_ADDR 0x00100000u

/* The exit word the simulator watches: store (status << 1) | 1 to end the run. */
extern volatile uint32_t tohost;

void rvmesh_console_putc(char c);
void rvmesh_console_puts(const char *text);
/* End the run now with this status (also on qemu-system-riscv32 -machine virt). */
__attribute__((noreturn)) void rvmesh_exit(uint32_t status);

/* Registers saved by the trap entry: frame->x[i] is register xi at the trap. */
struct rvmesh_trap_frame {
    uint32_t x[32];
};

/* Called by the trap entry with mcause/mepc/mtval readable as CSRs; returns the pc to
 * resume at. The default (weak) one prints the trap and exits with status
 * RVMESH_EXIT_TRAP; a program may define its own. */
uint32_t rvmesh_trap(struct rvmesh_trap_frame *frame);
#define RVMESH_EXIT_TRAP 99u

#define RVMESH_CSR_READ(name)                                   \
    ({ uint32_t csr_value_;                                     \
       __asm__ volatile("csrr %0, " #name : "=r"(csr_value_));  \
       csr_value_; })

/* The 64-bit cycle and retired-instruction counters (read hi/lo/hi for consistency). */
uint64_t rvmesh_cycles(void);
uint64_t rvmesh_instret(void);

#endif
