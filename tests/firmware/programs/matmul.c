/* SPDX-License-Identifier: ISC */
/* Integer matrix multiply: C = A x B for 32x32 int32 matrices, computed in i-j-k order
 * and again in i-k-j order (a different loop nest and summation order), checked equal,
 * checked with Freivalds' identity C x v = A x (B x v) for two vectors, and against the
 * known checksum of C (computed on the host with the same generator). */
#include <stdint.h>
#include <stdio.h>

#include "rvmesh_rt.h"

#define N 32
#define CHECKSUM_EXPECTED 0xDB92200Fu

static int32_t matrix_a[N][N], matrix_b[N][N];
static int32_t product_ijk[N][N], product_ikj[N][N];

static uint32_t random_state = 0xC0FFEE11u;

static uint32_t next_random(void)
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 17;
    random_state ^= random_state << 5;
    return random_state;
}

/* entries in -1000..1000 (signed products and sums without overflow) */
static int32_t next_entry(void)
{
    return (int32_t)(next_random() % 2001u) - 1000;
}

static void multiply_ijk(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int32_t sum = 0;
            for (int k = 0; k < N; k++)
                sum += matrix_a[i][k] * matrix_b[k][j];
            product_ijk[i][j] = sum;
        }
}

static void multiply_ikj(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++)
            product_ikj[i][j] = 0;
        for (int k = N - 1; k >= 0; k--) {
            int32_t a = matrix_a[i][k];
            for (int j = 0; j < N; j++)
                product_ikj[i][j] += a * matrix_b[k][j];
        }
    }
}

static void matrix_vector(int32_t (*matrix)[N], const int32_t *vector, int32_t *result)
{
    for (int i = 0; i < N; i++) {
        int32_t sum = 0;
        for (int k = 0; k < N; k++)
            sum += matrix[i][k] * vector[k];
        result[i] = sum;
    }
}

int main(void)
{
    uint64_t cycles_start = rvmesh_cycles();
    uint64_t instret_start = rvmesh_instret();
    int failures = 0;

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            matrix_a[i][j] = next_entry();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            matrix_b[i][j] = next_entry();

    multiply_ijk();
    multiply_ikj();
    for (int i = 0; i < N && failures == 0; i++)
        for (int j = 0; j < N; j++)
            if (product_ijk[i][j] != product_ikj[i][j]) {
                printf("matmul: FAIL C[%d][%d]: ijk %ld ikj %ld\n", i, j,
                       (long)product_ijk[i][j], (long)product_ikj[i][j]);
                failures++;
                break;
            }

    /* Freivalds: C v == A (B v), v = all ones and v = alternating +-(index+1) */
    for (int round = 0; round < 2; round++) {
        int32_t vector[N], b_times_v[N], a_b_v[N], c_times_v[N];
        for (int k = 0; k < N; k++)
            vector[k] = round == 0 ? 1 : ((k & 1) ? -(k + 1) : (k + 1));
        matrix_vector(matrix_b, vector, b_times_v);
        matrix_vector(matrix_a, b_times_v, a_b_v);
        matrix_vector(product_ijk, vector, c_times_v);
        for (int i = 0; i < N; i++)
            if (a_b_v[i] != c_times_v[i]) {
                printf("matmul: FAIL Freivalds round %d row %d: %ld != %ld\n", round, i,
                       (long)c_times_v[i], (long)a_b_v[i]);
                failures++;
                break;
            }
    }

    uint32_t checksum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            checksum = (checksum << 5 | checksum >> 27) ^ (uint32_t)product_ijk[i][j];
    if (checksum != CHECKSUM_EXPECTED) {
        printf("matmul: FAIL checksum 0x%08lx expected 0x%08lx\n", (unsigned long)checksum,
               (unsigned long)CHECKSUM_EXPECTED);
        failures++;
    }

    uint64_t cycles = rvmesh_cycles() - cycles_start;
    uint64_t instret = rvmesh_instret() - instret_start;
    printf("matmul: %dx%d, C[0][0] %ld C[%d][%d] %ld checksum 0x%08lx: %s; cycles %lu instret %lu\n",
           N, N, (long)product_ijk[0][0], N - 1, N - 1, (long)product_ijk[N - 1][N - 1],
           (unsigned long)checksum, failures ? "FAIL" : "ok", (unsigned long)cycles,
           (unsigned long)instret);
    return failures;
}
