/* SPDX-License-Identifier: ISC
 * Dense matrix multiply by SUMMA (van de Geijn and Watts' Scalable Universal Matrix
 * Multiplication Algorithm) with the kit's row and column broadcasts, on every node of a
 * P x P machine (the application kit: kit/README.md, "Rows and columns").
 *
 * C = A B (../cannon/cannon.h: the same matrices as cannon), SUMMA_N x SUMMA_N, in b x b blocks (b = N / P): node (x, y) holds block
 * row y and block column x of each matrix (it makes its own blocks of A and B) and computes
 * block C(y, x) = sum over k of A(y, k) B(k, x). For k = 0 .. P-1, every row and every column
 * at once:
 *   1. the node of column k broadcasts its block A(y, k) along its row
 *      (rvm_bcast_on(RVM_COMM_ROW, ..., root k)): every node of row y gets A(y, k);
 *   2. the node of row k broadcasts its block B(k, x) along its column
 *      (rvm_bcast_on(RVM_COMM_COL, ..., root k)): every node of column x gets B(k, x);
 *   3. every node adds A(y, k) B(k, x) to its block of C.
 * A root broadcasts from its own block; the others receive into a panel. The whole product is
 * computed SUMMA_STEPS times (C cleared each time; the last is checked), so that a run of
 * more than one step shows the calls with their plans kept. At the end every node compares
 * its block of C with the host's reference (ref.c: a plain triple loop when the program is
 * built; a hash of each node's block and its first element) and exits 1 on a difference.
 * Regions (the machine-wide cycle count, mesh-sim --report): "summa" the steps, "summa_comm"
 * the broadcasts in them (their plans' compilation included); make bench-apps reads both. */
#include <stdio.h>

#include "rvmesh.h"
#include "../cannon/cannon.h"
#include "cannon_ref.h"

#ifndef SUMMA_STEPS
#define SUMMA_STEPS 1
#endif
#ifndef SUMMA_PLANT
#define SUMMA_PLANT 0   /* 1: one node multiplies with its own A instead of the row's in the last round */
#endif
#if RVMESH_MESH_Z != 1 || RVMESH_MESH_X != RVMESH_MESH_Y
#error "summa runs on a square 2-D machine (SHAPE=4x4t, 8x8t, 4x4m, ...)"
#endif
#define SIDE RVMESH_MESH_X
#if SUMMA_N % SIDE != 0
#error "SUMMA_N must be a multiple of the machine's side"
#endif
#define BLOCK_SIDE (SUMMA_N / SIDE)

typedef int32_t block[BLOCK_SIDE][BLOCK_SIDE];
static block a_own, b_own;       /* this node's blocks A(y, x) and B(y, x) */
static block a_panel, b_panel;   /* the blocks a round's roots broadcast: A(y, k), B(k, x) */
static block c_own;              /* this node's block C(y, x) */

/* c_own += a_blk b_blk: four elements of a row of C at a time, kept in registers while k runs
 * (one load of A and four of B for four multiply-adds), as firmware/apps/cannon does */
static void multiply_add(const block a_blk, const block b_blk)
{
    for (uint32_t i = 0; i < BLOCK_SIDE; i++) {
        const int32_t *a_row = a_blk[i];
        int32_t *c_row = c_own[i];
        uint32_t j = 0;
        for (; j + 4 <= BLOCK_SIDE; j += 4) {
            uint32_t sum0 = (uint32_t)c_row[j], sum1 = (uint32_t)c_row[j + 1], sum2 = (uint32_t)c_row[j + 2],
                     sum3 = (uint32_t)c_row[j + 3];
            for (uint32_t k = 0; k < BLOCK_SIDE; k++) {
                const uint32_t a_ik = (uint32_t)a_row[k];
                const int32_t *b_row = &b_blk[k][j];
                sum0 += a_ik * (uint32_t)b_row[0];
                sum1 += a_ik * (uint32_t)b_row[1];
                sum2 += a_ik * (uint32_t)b_row[2];
                sum3 += a_ik * (uint32_t)b_row[3];
            }
            c_row[j] = (int32_t)sum0;
            c_row[j + 1] = (int32_t)sum1;
            c_row[j + 2] = (int32_t)sum2;
            c_row[j + 3] = (int32_t)sum3;
        }
        for (; j < BLOCK_SIDE; j++) {
            uint32_t sum = (uint32_t)c_row[j];
            for (uint32_t k = 0; k < BLOCK_SIDE; k++)
                sum += (uint32_t)a_row[k] * (uint32_t)b_blk[k][j];
            c_row[j] = (int32_t)sum;
        }
    }
}

int main(void)
{
    if (rvm_init() != COLL_OK)
        return 2;
    const uint32_t x = rvm_comm_rank(RVM_COMM_ROW), y = rvm_comm_rank(RVM_COMM_COL), node = rvm_node();
    for (uint32_t i = 0; i < BLOCK_SIDE; i++)
        for (uint32_t j = 0; j < BLOCK_SIDE; j++) {
            a_own[i][j] = cannon_element(0, y * BLOCK_SIDE + i, x * BLOCK_SIDE + j);
            b_own[i][j] = cannon_element(1, y * BLOCK_SIDE + i, x * BLOCK_SIDE + j);
        }

    uint32_t compile_cycles = 0;   /* this node's broadcasts' plan compilation */
    rvmesh_region_begin("summa");
    for (uint32_t step = 0; step < SUMMA_STEPS; step++) {
        for (uint32_t i = 0; i < BLOCK_SIDE; i++)
            for (uint32_t j = 0; j < BLOCK_SIDE; j++)
                c_own[i][j] = 0;
        for (uint32_t k = 0; k < SIDE; k++) {
            /* a root sends its own block; the rest of its line receive into the panel */
            block *a_round = x == k ? &a_own : &a_panel;
            block *b_round = y == k ? &b_own : &b_panel;
            rvmesh_region_begin("summa_comm");
            rvm_bcast_on(RVM_COMM_ROW, a_round, sizeof(block), k);
            compile_cycles += rvm_last_setup_cycles();
            rvm_bcast_on(RVM_COMM_COL, b_round, sizeof(block), k);
            compile_cycles += rvm_last_setup_cycles();
            rvmesh_region_end("summa_comm", 0);
            const int planted = SUMMA_PLANT && step + 1 == SUMMA_STEPS && k + 1 == SIDE && node == rvm_nodes() / 2u;
            multiply_add(*(planted ? &a_own : a_round), *b_round);
        }
    }
    rvmesh_region_end("summa", 0);

    uint32_t hash = 0;
    for (uint32_t i = 0; i < BLOCK_SIDE; i++)
        for (uint32_t j = 0; j < BLOCK_SIDE; j++)
            hash += cannon_cell_hash(i * BLOCK_SIDE + j, c_own[i][j]);
    if (hash != cannon_ref_hash[node] || c_own[0][0] != cannon_ref_first[node]) {
        printf("summa: FAILED: block (%lu,%lu) of C differs from the host's reference: hash %08lx, first element "
               "%ld; the host's reference says %08lx, %ld\n", (unsigned long)x, (unsigned long)y,
               (unsigned long)hash, (long)c_own[0][0], (unsigned long)cannon_ref_hash[node],
               (long)cannon_ref_first[node]);
        return 1;
    }
    if (node == 0) {
        const struct rvmesh_region *work = rvmesh_region_get("summa"), *comm = rvmesh_region_get("summa_comm");
        printf("summa: %dx%d matrices on %ux%u nodes (blocks of %dx%d, %d step%s): as the host's reference; node 0: "
               "%lu cycles, %lu in broadcasts (%lu of them compiling plans)\n", SUMMA_N, SUMMA_N, SIDE, SIDE,
               BLOCK_SIDE, BLOCK_SIDE, SUMMA_STEPS, SUMMA_STEPS == 1 ? "" : "s", (unsigned long)work->cycles, (unsigned long)comm->cycles,
               (unsigned long)compile_cycles);
    }
    return 0;
}
