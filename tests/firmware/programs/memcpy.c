/* SPDX-License-Identifier: ISC
 * The runtime's memcpy (firmware/rt/rt.c: words when both ends are word-aligned, bytes
 * otherwise): every pair of alignments 0..3 and every length 0..67 against a byte-by-byte
 * reference, the bytes just before and after each copy untouched, the return value dst; a
 * 4 KiB aligned copy, and its cycles beside a byte loop's. Prints a hash of all copies. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rvmesh_rt.h"

#define SPAN 96u
#define BIG 4096u

static uint8_t from[SPAN], to[SPAN], want[SPAN];
static uint32_t big_from[BIG / 4], big_to[BIG / 4];

/* a byte loop the compiler must keep as one */
static void byte_copy(volatile uint8_t *d, const volatile uint8_t *s, uint32_t n)
{
    while (n--)
        *d++ = *s++;
}

int main(void)
{
    uint32_t hash = 2166136261u, errors = 0;
    for (uint32_t i = 0; i < SPAN; i++)
        from[i] = (uint8_t)(i * 37u + 11u);
    for (uint32_t sa = 0; sa < 4; sa++)
        for (uint32_t da = 0; da < 4; da++)
            for (uint32_t n = 0; n < 68; n++) {
                memset(to, 0xee, SPAN);
                memset(want, 0xee, SPAN);
                byte_copy(want + 8 + da, from + 8 + sa, n);
                void *r = memcpy(to + 8 + da, from + 8 + sa, n);
                if (r != to + 8 + da || memcmp(to, want, SPAN) != 0) {
                    if (errors < 4)
                        printf("memcpy: src +%lu dst +%lu %lu bytes: wrong\n", (unsigned long)sa, (unsigned long)da,
                               (unsigned long)n);
                    errors++;
                }
                for (uint32_t i = 0; i < SPAN; i++)
                    hash = (hash ^ to[i]) * 16777619u;
            }
    for (uint32_t i = 0; i < BIG / 4; i++)
        big_from[i] = i * 2654435761u;
    const uint64_t t0 = rvmesh_cycles();
    memcpy(big_to, big_from, BIG);
    const uint64_t t1 = rvmesh_cycles();
    for (uint32_t i = 0; i < BIG / 4; i++)
        errors += big_to[i] != i * 2654435761u;
    memset(big_to, 0, BIG);
    const uint64_t t2 = rvmesh_cycles();
    byte_copy((volatile uint8_t *)big_to, (const volatile uint8_t *)big_from, BIG);
    const uint64_t t3 = rvmesh_cycles();
    printf("memcpy: hash %08lx, %lu wrong: %s; cycles %lu instret %lu (4 KiB aligned: %lu cycles, by a byte loop %lu cycles)\n",
           (unsigned long)hash, (unsigned long)errors, errors ? "FAIL" : "ok", (unsigned long)rvmesh_cycles(),
           (unsigned long)rvmesh_instret(), (unsigned long)(t1 - t0), (unsigned long)(t3 - t2));
    return errors != 0;
}
