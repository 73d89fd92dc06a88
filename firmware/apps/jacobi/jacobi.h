/* SPDX-License-Identifier: ISC
 * 2-D Jacobi in integers: what the nodes (main.c) and the host's reference (ref.c) share, so
 * that the two agree to the bit.
 *
 * A JACOBI_N x JACOBI_N grid on a torus (the edges wrap round). Every iteration each cell
 * becomes the rounded mean of its four neighbours, (north + south + west + east + 2) / 4,
 * except the heaters, a fixed pseudo-random few cells held at JACOBI_HOT: heat spreads from
 * them through the grid. Cell values are 0 .. JACOBI_HOT, so every sum fits 32 bits.
 */
#ifndef JACOBI_H
#define JACOBI_H

#include <stdint.h>

#include "../app_hash.h"

#define JACOBI_HOT 65535u

/* cell (x, y) of the global grid: a heater? (about one cell in 61) */
static inline int jacobi_heater(uint32_t x, uint32_t y)
{
    return app_hash(0x4a000000u ^ (y << 12) ^ x) % 61u == 0;
}

/* cell (x, y)'s value before the first iteration */
static inline uint32_t jacobi_initial(uint32_t x, uint32_t y)
{
    return jacobi_heater(x, y) ? JACOBI_HOT : app_hash((y << 12) ^ x) % (JACOBI_HOT / 4u);
}

/* one cell's next value */
static inline uint32_t jacobi_cell(uint32_t north, uint32_t south, uint32_t west, uint32_t east)
{
    return (north + south + west + east + 2u) >> 2;
}

/* the hash of a block of cells: the value of each at its place (row-major) in the block,
 * summed mod 2^32 */
static inline uint32_t jacobi_cell_hash(uint32_t place, uint32_t value)
{
    return app_hash(app_hash(place + 0x9e3779b9u) ^ value);
}

#endif
