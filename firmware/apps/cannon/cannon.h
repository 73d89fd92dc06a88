/* SPDX-License-Identifier: ISC
 * Dense matrix multiply: what the nodes (main.c) and the host's reference (ref.c) share: the
 * matrices and the hash the result is checked by. The product itself is not shared: the
 * nodes run Cannon's algorithm on blocks, the host a plain triple loop.
 *
 * C = A B, CANNON_N x CANNON_N matrices of integers -128 .. 127 (a fixed pseudo-random
 * function of the element's place), in 32-bit arithmetic: every sum is exact
 * (|C| < N * 2^14), so any order of the additions gives the same bits.
 */
#ifndef CANNON_H
#define CANNON_H

#include <stdint.h>

static inline uint32_t cannon_hash(uint32_t v)
{
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    v ^= v >> 16;
    return v;
}

/* element (row, column) of A (which = 0) or B (which = 1) */
static inline int32_t cannon_element(uint32_t which, uint32_t row, uint32_t column)
{
    return (int32_t)(cannon_hash(which << 30 ^ row << 15 ^ column) & 255u) - 128;
}

/* the hash of a block of C: each element at its place (row-major) in the block, summed mod 2^32 */
static inline uint32_t cannon_cell_hash(uint32_t place, int32_t value)
{
    return cannon_hash(cannon_hash(place + 0x9e3779b9u) ^ (uint32_t)value);
}

#endif
