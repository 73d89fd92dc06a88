/* SPDX-License-Identifier: ISC
 * 2-D FFT in fixed point: what the nodes (main.c) and the host's reference (ref.c) share, so
 * that the two agree to the bit: the input, the 1-D FFT of a row, and the hash a row of the
 * result is checked by.
 *
 * Numbers: complex, each part an int32. The input's parts are -2^23 .. 2^23-1. The twiddle
 * factors exp(-2 pi i k / n) are Q30 (2^30 = 1), made on the host (ref.c, with the C
 * library's cos and sin) and compiled into the nodes' image as a table. fft_row is a radix-2
 * decimation-in-time FFT that halves at every stage (rounding to nearest), so it computes
 * DFT(x) / n and no value grows: a 2-D transform (rows, then columns) gives DFT2(x) / n^2.
 * Every stage adds at most sqrt(2) units of rounding error to an element (its distance from
 * the exact value: the complex product's two roundings, then the halving's), so an element of
 * the 2-D result is within 2 sqrt(2) log2(n) + 1 units of the exact DFT2(x) / n^2 (the 1 for
 * the twiddles' own rounding): ref.c checks that against the double-precision DFT of the same
 * input, so the bits the nodes are held to are those of a 2-D Fourier transform.
 */
#ifndef FFT_H
#define FFT_H

#include <stdint.h>

#include "../app_hash.h"

struct cpx {
    int32_t re, im;
};

/* element (row, column) of the input */
static inline struct cpx fft_input(uint32_t row, uint32_t column)
{
    const uint32_t h = app_hash(row << 16 ^ column);
    return (struct cpx){(int32_t)(h & 0xffffffu) - (1 << 23),
                        (int32_t)(app_hash(h ^ 0x5bd1e995u) & 0xffffffu) - (1 << 23)};
}

/* a * w / 2^30, rounded to nearest (w a Q30 twiddle part) */
static inline int32_t fft_mulq(int32_t a, int32_t w)
{
    return (int32_t)(((int64_t)a * w + (1 << 29)) >> 30);
}

/* (a + b) / 2, rounded (ties upwards); |a + b| < 2^26 here (an arithmetic shift: gcc's) */
static inline int32_t fft_half(int32_t a, int32_t b) { return (a + b + 1) >> 1; }

/* In place: x[0..n) becomes DFT(x) / n. n = 2^log2n; tw[k] = exp(-2 pi i k / n_table) for
 * k < n_table / 2 (Q30), n_table a multiple of n. */
static inline void fft_row(struct cpx *x, uint32_t n, uint32_t log2n, const struct cpx *tw, uint32_t n_table)
{
    for (uint32_t i = 0, j = 0; i < n; i++) {   /* bit-reversed order */
        if (i < j) {
            const struct cpx t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
        uint32_t bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
    }
    for (uint32_t s = 1; s <= log2n; s++) {
        const uint32_t half = 1u << (s - 1), step = n_table >> s;
        for (uint32_t start = 0; start < n; start += 2 * half)
            for (uint32_t k = 0; k < half; k++) {
                const struct cpx w = tw[k * step], a = x[start + k], b = x[start + k + half];
                const int32_t tr = fft_mulq(b.re, w.re) - fft_mulq(b.im, w.im);
                const int32_t ti = fft_mulq(b.re, w.im) + fft_mulq(b.im, w.re);
                x[start + k] = (struct cpx){fft_half(a.re, tr), fft_half(a.im, ti)};
                x[start + k + half] = (struct cpx){fft_half(a.re, -tr), fft_half(a.im, -ti)};
            }
    }
}

/* the hash of a row of the result: both parts of each element at its place, summed mod 2^32 */
static inline uint32_t fft_row_hash(const struct cpx *x, uint32_t n)
{
    uint32_t h = 0;
    for (uint32_t k = 0; k < n; k++)
        h += app_hash(app_hash(2u * k + 0x9e3779b9u) ^ (uint32_t)x[k].re) +
             app_hash(app_hash(2u * k + 0x9e3779bau) ^ (uint32_t)x[k].im);
    return h;
}

#endif
