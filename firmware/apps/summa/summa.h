/* SPDX-License-Identifier: ISC
 * SUMMA matrix multiply: what the nodes (main.c) and the host's reference (ref.c) share: the
 * matrices and the hash the result is checked by. The product itself is not shared: the
 * nodes run SUMMA on blocks, the host a plain triple loop.
 *
 * C = A B, SUMMA_N x SUMMA_N matrices of integers -128 .. 127, the same ones as
 * firmware/apps/cannon's (the same function of the element's place), in 32-bit arithmetic:
 * every sum is exact (|C| < N * 2^14), so any order of the additions gives the same bits.
 */
#ifndef SUMMA_H
#define SUMMA_H

#include <stdint.h>

#include "../app_hash.h"

/* element (row, column) of A (matrix = 0) or B (matrix = 1) */
static inline int32_t summa_element(uint32_t matrix, uint32_t row, uint32_t column)
{
    return (int32_t)(app_hash(matrix << 30 ^ row << 15 ^ column) & 255u) - 128;
}

/* the hash of a block of C: each element at its place (row-major) in the block, summed mod 2^32 */
static inline uint32_t summa_cell_hash(uint32_t place, int32_t value)
{
    return app_hash(app_hash(place + 0x9e3779b9u) ^ (uint32_t)value);
}

#endif
