/* SPDX-License-Identifier: ISC */
/* rvmesh node runtime: console stdout for picolibc, exit through tohost, default trap, and a
 * memcpy that copies words. */
#include "rvmesh_rt.h"

#include <stdio.h>
#include <string.h>

volatile uint32_t tohost __attribute__((section(".tohost"), aligned(8)));
volatile uint32_t fromhost __attribute__((section(".tohost"), aligned(4)));

/* memcpy in place of picolibc's, which copies a byte at a time (6 instructions a byte: 16 KiB
 * took 102,700 cycles on the core): when both ends are word-aligned (the kit's buffers are),
 * four words a loop, then the tail byte by byte. The loops are not turned back into a memcpy
 * call (the optimize attribute). */
typedef uint32_t __attribute__((may_alias)) rt_word;
__attribute__((optimize("no-tree-loop-distribute-patterns"))) void *memcpy(void *restrict dst,
                                                                          const void *restrict src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0u) {
        rt_word *dw = (rt_word *)(void *)d;
        const rt_word *sw = (const rt_word *)(const void *)s;
        for (; n >= 16u; n -= 16u, dw += 4, sw += 4) {
            const uint32_t w0 = sw[0], w1 = sw[1], w2 = sw[2], w3 = sw[3];
            dw[0] = w0;
            dw[1] = w1;
            dw[2] = w2;
            dw[3] = w3;
        }
        for (; n >= 4u; n -= 4u)
            *dw++ = *sw++;
        d = (uint8_t *)dw;
        s = (const uint8_t *)sw;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

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

/* ---- region timers (rvmesh_rt.h) ---- */
struct rvmesh_regions rvmesh_regions __attribute__((aligned(8)));

static struct rvmesh_region *region_find(const char *name, int add)
{
    if (!name || !name[0])
        return 0;
    struct rvmesh_regions *t = &rvmesh_regions;
    for (uint32_t i = 0; i < t->count; ++i)
        if (t->region[i].name[0] == name[0] && strncmp(t->region[i].name, name, RVMESH_REGION_NAME - 1u) == 0)
            return &t->region[i];
    if (!add || t->count >= RVMESH_REGIONS)
        return 0;
    struct rvmesh_region *r = &t->region[t->count++];
    strncpy(r->name, name, RVMESH_REGION_NAME - 1u);
    r->name[RVMESH_REGION_NAME - 1u] = 0;
    t->magic = RVMESH_REGIONS_MAGIC;
    return r;
}

struct rvmesh_region *rvmesh_region_of(const char *name)
{
    return region_find(name, 1);
}

void rvmesh_region_enter(struct rvmesh_region *r)
{
    if (!r)
        return;
    r->start = rvmesh_cycles();
    if (r->calls == 0 && !r->open)
        r->first = r->start;
    r->open = 1;
}

/* closes region r at cycle `now` (read before the region was looked up, so that the search is
 * not counted): 0, or -1 when r is NULL or not begun */
static int region_close(struct rvmesh_region *r, uint64_t now, uint64_t *cycles)
{
    if (!r || !r->open)
        return -1;
    const uint64_t took = now - r->start;
    r->cycles += took;
    r->calls++;
    r->last = now;
    r->open = 0;
    if (cycles)
        *cycles = took;
    return 0;
}

int rvmesh_region_leave(struct rvmesh_region *r, uint64_t *cycles)
{
    return region_close(r, rvmesh_cycles(), cycles);
}

int rvmesh_region_begin(const char *name)
{
    struct rvmesh_region *r = region_find(name, 1);
    if (!r)
        return -1;
    rvmesh_region_enter(r);
    return 0;
}

int rvmesh_region_end(const char *name, uint64_t *cycles)
{
    const uint64_t now = rvmesh_cycles();
    return region_close(region_find(name, 0), now, cycles);
}

const struct rvmesh_region *rvmesh_region_get(const char *name)
{
    return region_find(name, 0);
}

/* decimal text of a 64-bit number (picolibc's integer-only printf has no %llu) */
static const char *u64_text(uint64_t v, char buf[21])
{
    char *p = buf + 20;
    *p = 0;
    do {
        *--p = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    return p;
}

void rvmesh_region_print(void)
{
    for (uint32_t i = 0; i < rvmesh_regions.count; ++i) {
        const struct rvmesh_region *r = &rvmesh_regions.region[i];
        char a[21], b[21], c[21];
        printf("region %s: %s cycles in %lu calls (cycles %s..%s)\n", r->name, u64_text(r->cycles, a),
               (unsigned long)r->calls, u64_text(r->first, b), u64_text(r->last, c));
    }
}
