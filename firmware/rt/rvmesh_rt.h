/* SPDX-License-Identifier: ISC */
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

/* The 64-bit cycle and retired-instruction counters (read hi/lo/hi for consistency). On a
 * machine of tiles every node's mcycle counts from the same reset: a cycle number means the
 * same moment on every node (the machine-wide cycle count). */
uint64_t rvmesh_cycles(void);
uint64_t rvmesh_instret(void);

/* ---- region timers ----
 * rvmesh_region_begin("name") ... rvmesh_region_end("name") adds the cycles between them to
 * the region (up to RVMESH_REGIONS regions, named by up to RVMESH_REGION_NAME - 1
 * characters; a region may be entered many times, not nested in itself). Each region keeps
 * its calls, its cycles, and the machine-wide cycle of its first begin and its last end, so
 * the nodes' regions line up. The table is `rvmesh_regions` (below: a contract with
 * mesh-sim, which reads it from every node's RAM at the end and puts it in --report;
 * change it only with sim/mesh/mesh_sim.cpp). rvmesh_region_print() prints this node's. */
#define RVMESH_REGIONS 16u
#define RVMESH_REGION_NAME 24u
#define RVMESH_REGIONS_MAGIC 0x47525652u /* "RVRG" */
struct rvmesh_region {
    char name[RVMESH_REGION_NAME];   /* NUL-terminated */
    uint32_t calls;                  /* ends */
    uint32_t open;                   /* 1 between begin and end */
    uint64_t cycles;                 /* summed over calls */
    uint64_t first;                  /* mcycle of the first begin */
    uint64_t last;                   /* mcycle of the last end */
    uint64_t start;                  /* mcycle of the open begin */
};                                   /* 64 bytes */
struct rvmesh_regions {
    uint32_t magic;                  /* RVMESH_REGIONS_MAGIC once a region was begun */
    uint32_t count;                  /* regions in use */
    struct rvmesh_region region[RVMESH_REGIONS];
};
extern struct rvmesh_regions rvmesh_regions;
/* 0, or -1 when the table is full (the region is not timed) or name is NULL/empty. A region
 * begun while open restarts. */
int rvmesh_region_begin(const char *name);
/* 0, or -1 when the region was not begun. Returns the cycles of this call in *cycles (may be
 * NULL). */
int rvmesh_region_end(const char *name, uint64_t *cycles);
/* The region, or NULL if it was never begun. */
const struct rvmesh_region *rvmesh_region_get(const char *name);
/* For a caller that times one region many times (the kit's "comm", every collective call):
 * the region named `name`, made if new (NULL when the table is full or name NULL/empty), and
 * begin/end by it, without the name search of rvmesh_region_begin/end (about 100 cycles a
 * call). rvmesh_region_enter(NULL) does nothing; rvmesh_region_leave returns -1 for NULL or a
 * region not begun, else 0 (the cycles in *cycles, which may be NULL). */
struct rvmesh_region *rvmesh_region_of(const char *name);
void rvmesh_region_enter(struct rvmesh_region *r);
int rvmesh_region_leave(struct rvmesh_region *r, uint64_t *cycles);
/* one line per region: "region NAME: C cycles in K calls (cycles F..L)" */
void rvmesh_region_print(void);

#endif
