/* rvmesh node runtime: console stdout for picolibc, exit through tohost, default trap. */
#include "rvmesh_rt.h"

#include <stdio.h>

volatile uint32_t tohost __attribute__((section(".tohost"), aligned(8)));
volatile uint32_t fromhost __attribute__((section(".tohost"), aligned(4)));

void rvmesh_console_putc(char c)
{
    *(volatile uint8_t *)RVMESH_CONSOLE_TX_ADDR = (uint8_t)c;
}

void rvmesh_console_puts(const char *text)
{
    while (*text)
        rvmesh_console_putc(*text++);
}

static int console_put(char c, FILE *stream)
{
    (void)stream;
    rvmesh_console_putc(c);
    return (unsigned char)c;
}

static FILE console_stream = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &console_stream;
FILE *const stderr = &console_stream;
FILE *const stdin = NULL;

void rvmesh_exit(uint32_t status)
{
    tohost = (status << 1) | 1u;
    /* Only reached where nothing watches tohost: qemu's finisher (0x5555 = pass). */
    *(volatile uint32_t *)RVMESH_QEMU_FINISHER_ADDR =
        status == 0 ? 0x5555u : (status << 16) | 0x3333u;
    for (;;)
        ;
}

/* picolibc's exit() ends here after running atexit handlers and destructors. */
void _exit(int status)
{
    rvmesh_exit((uint32_t)status);
}

__attribute__((weak)) uint32_t rvmesh_trap(struct rvmesh_trap_frame *frame)
{
    (void)frame;
    printf("trap: mcause=0x%08lx mepc=0x%08lx mtval=0x%08lx\n",
           (unsigned long)RVMESH_CSR_READ(mcause), (unsigned long)RVMESH_CSR_READ(mepc),
           (unsigned long)RVMESH_CSR_READ(mtval));
    rvmesh_exit(RVMESH_EXIT_TRAP);
}

uint64_t rvmesh_cycles(void)
{
    uint32_t hi, lo, hi2;
    do {
        hi = RVMESH_CSR_READ(mcycleh);
        lo = RVMESH_CSR_READ(mcycle);
        hi2 = RVMESH_CSR_READ(mcycleh);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}

uint64_t rvmesh_instret(void)
{
    uint32_t hi, lo, hi2;
    do {
        hi = RVMESH_CSR_READ(minstreth);
        lo = RVMESH_CSR_READ(minstret);
        hi2 = RVMESH_CSR_READ(minstreth);
    } while (hi != hi2);
    return ((uint64_t)hi << 32) | lo;
}
