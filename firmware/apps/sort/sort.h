/* SPDX-License-Identifier: ISC
 * Integer sort: what the nodes (main.c) and the host's reference (ref.c) share, so that the
 * two agree to the bit: the keys and the hashes the result is checked by. The sorting itself
 * is not shared: the nodes sort by radix (here), the host by qsort.
 *
 * Keys as NAS IS makes them: SORT_KEY_BITS-bit integers, each the mean of four uniform ones
 * (a bell-shaped distribution, so the buckets of equal key ranges would be uneven and equal
 * keys are common). Key i of step s is a fixed function of (SORT_SEED, s, i): every node
 * makes its own share, and the host all of them.
 */
#ifndef SORT_H
#define SORT_H

#include <stdint.h>

#include "../app_hash.h"

#ifndef SORT_KEY_BITS
#define SORT_KEY_BITS 16
#endif
#ifndef SORT_SEED
#define SORT_SEED 1
#endif
#if SORT_KEY_BITS < 1 || SORT_KEY_BITS > 24
#error "SORT_KEY_BITS must be 1 .. 24"
#endif
#define SORT_KEY_MAX ((1u << SORT_KEY_BITS) - 1u)

/* key i (0 .. all keys - 1) of step s */
static inline uint32_t sort_key(uint32_t s, uint32_t i)
{
    const uint32_t base = app_hash((uint32_t)SORT_SEED * 0x9e3779b9u + s) ^ (i << 2);
    uint32_t sum = 0;
    for (uint32_t k = 0; k < 4u; k++)
        sum += app_hash(base ^ k) & SORT_KEY_MAX;   /* distinct inputs for every (i, k) */
    return sum >> 2;
}

/* The hashes of a result (sums mod 2^32, so parts of the array add up):
 * sort_hash_pos: key at position pos of the sorted array (the order and the keys);
 * sort_hash_set: a key wherever it is (the multiset alone). */
static inline uint32_t sort_hash_pos(uint32_t pos, uint32_t key)
{
    return app_hash(app_hash(pos + 0x51ed27u) ^ key);
}
static inline uint32_t sort_hash_set(uint32_t key) { return app_hash(key ^ 0xa5a5a5a5u); }

#endif
