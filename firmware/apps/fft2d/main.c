/* SPDX-License-Identifier: ISC
 * 2-D FFT in fixed point with transposes by alltoall, on every node of the machine (the
 * application kit: kit/README.md).
 *
 * The FFT_N x FFT_N complex input of fft.h, R = N / P rows on each node (node p: rows p*R ..).
 *   1. every node transforms its rows (fft_row);
 *   2. transpose: block t of a node's rows is their columns t*R .. (R x R elements), and
 *      rvm_alltoall gives node t every node's block t; each block transposed in place, the
 *      node holds R columns of the matrix as its rows;
 *   3. every node transforms them (the columns of step 1's result);
 *   4. transpose back (the same alltoall, whose plan the kit kept): node p holds rows p*R ..
 *      of the 2-D transform DFT2(x) / N^2.
 * At the end every node hashes each of its rows and compares it with the host's reference
 * (ref.c, computed when the program is built: the same fixed-point arithmetic on the whole
 * matrix, itself checked against the double-precision DFT), and exits 1 on a difference.
 * Regions (the machine-wide cycle count, mesh-sim --report): "fft2d" steps 1-4, "fft2d_comm"
 * the transposes in them (the packing of blocks included); make bench-apps reads both. */
#include <stdio.h>

#include "fft.h"
#include "fft_ref.h"   /* fft_twiddle[], fft_ref_hash[], fft_ref_first[] */
#include "rvmesh.h"

#ifndef FFT_PLANT
#define FFT_PLANT 0   /* 1: one node does not transpose one block in the first transpose (tests/firmware/apps) */
#endif
#define P RVM_NODES
#define R (FFT_N / P)   /* rows a node holds */
#if FFT_N % RVM_NODES != 0 || R < 1 || (FFT_N & (FFT_N - 1)) != 0
#error "FFT_N must be a power of 2 and a multiple of the machine's nodes"
#endif

static struct cpx rows[R][FFT_N];
static struct cpx sendbuf[P][R][R], recvbuf[P][R][R];
static uint32_t setup_cycles;   /* of the transposes' cycles: compiling the alltoall's plan (the first call) */

static uint32_t log2u(uint32_t n)
{
    uint32_t l = 0;
    while ((1u << l) < n)
        l++;
    return l;
}

/* steps 2 and 4: rows[i][t*R + j] -> node t, which keeps it as rows[j][p*R + i] (p the sender) */
static void transpose(int plant)
{
    rvmesh_region_begin("fft2d_comm");
    for (uint32_t t = 0; t < P; t++)
        for (uint32_t i = 0; i < R; i++)
            for (uint32_t j = 0; j < R; j++)
                sendbuf[t][i][j] = rows[i][t * R + j];
    rvm_alltoall(sendbuf, recvbuf, sizeof sendbuf[0]);
    setup_cycles += rvm_last_setup_cycles();
    for (uint32_t s = 0; s < P; s++)
        for (uint32_t i = 0; i < R; i++)
            for (uint32_t j = 0; j < R; j++) {
                if (plant && s == 1)
                    rows[i][s * R + j] = recvbuf[s][i][j];   /* the planted mistake: not transposed */
                else
                    rows[j][s * R + i] = recvbuf[s][i][j];
            }
    rvmesh_region_end("fft2d_comm", 0);
}

int main(void)
{
    rvm_init();
    const uint32_t me = rvm_node(), log2n = log2u(FFT_N);
    for (uint32_t i = 0; i < R; i++)
        for (uint32_t j = 0; j < FFT_N; j++)
            rows[i][j] = fft_input(me * R + i, j);

    rvmesh_region_begin("fft2d");
    for (uint32_t i = 0; i < R; i++)
        fft_row(rows[i], FFT_N, log2n, fft_twiddle, FFT_N);
    transpose(FFT_PLANT && me == P / 2);
    for (uint32_t i = 0; i < R; i++)
        fft_row(rows[i], FFT_N, log2n, fft_twiddle, FFT_N);
    transpose(0);
    rvmesh_region_end("fft2d", 0);

    for (uint32_t i = 0; i < R; i++) {
        const uint32_t g = me * R + i, h = fft_row_hash(rows[i], FFT_N);
        if (h != fft_ref_hash[g] || rows[i][0].re != fft_ref_first[g][0] || rows[i][0].im != fft_ref_first[g][1]) {
            printf("fft2d: FAILED: row %lu differs from the host's reference: hash %08lx, first element (%ld,%ld); "
                   "the host's reference says %08lx, (%ld,%ld)\n", (unsigned long)g, (unsigned long)h,
                   (long)rows[i][0].re, (long)rows[i][0].im, (unsigned long)fft_ref_hash[g],
                   (long)fft_ref_first[g][0], (long)fft_ref_first[g][1]);
            return 1;
        }
    }
    if (me == 0) {
        const struct rvmesh_region *r = rvmesh_region_get("fft2d"), *c = rvmesh_region_get("fft2d_comm");
        printf("fft2d: %dx%d complex points on %lu nodes (%d rows each): as the host's reference (%s); node 0: %lu "
               "cycles, %lu in transposes (%lu of them compiling the alltoall's plan)\n", FFT_N, FFT_N,
               (unsigned long)P, R, FFT_REF_ERROR, (unsigned long)r->cycles, (unsigned long)c->cycles,
               (unsigned long)setup_cycles);
    }
    return 0;
}
