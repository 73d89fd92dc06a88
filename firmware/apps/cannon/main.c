/* SPDX-License-Identifier: ISC
 * Dense matrix multiply by Cannon's algorithm, with the link-port driver's shifts between
 * neighbours, on every node of a q x q torus (the application kit: kit/README.md; no
 * collectives: the neighbours talk directly).
 *
 * C = A B (cannon.h), CANNON_N x CANNON_N, in b x b blocks (b = N / q): node (x, y) holds
 * block row y and block column x of each matrix (it makes its own blocks of A and B).
 *   1. alignment: block A(y, x) moves to node (x - y, y), block B(y, x) to node (x, y - x)
 *      (one worm each, the shorter way round the ring, all at once: ni_exchange);
 *   2. q times: C += A B on the blocks a node holds, then (but the last time) every A moves
 *      one node west and every B one node north (ni_exchange: both worms at once, the
 *      payloads by the NI's DMA engines), so that node (x, y) meets A(y, k) and B(k, x) for
 *      every k.
 * At the end every node compares its block of C with the host's reference (ref.c: a plain
 * triple loop when the program is built; a hash of each node's block and its first element)
 * and exits 1 on a difference.
 * Regions (the machine-wide cycle count, mesh-sim --report): "cannon" steps 1 and 2,
 * "cannon_comm" the alignment and the shifts in them; make bench-apps reads both.
 * firmware/apps/summa computes the same product by SUMMA (broadcasts along every row and
 * column at once, the kit's row and column communicators). */
#include <stdio.h>

#include "cannon.h"
#include "cannon_ref.h"
#include "linkport.h"
#include "rvmesh_rt.h"

#ifndef CANNON_PLANT
#define CANNON_PLANT 0   /* 1: one node multiplies with its old A in the last step (tests/firmware/apps) */
#endif
#if RVMESH_MESH_Z != 1 || !RVMESH_MESH_TORUS || RVMESH_MESH_X != RVMESH_MESH_Y
#error "cannon runs on a square 2-D torus (SHAPE=4x4t, 8x8t, ...)"
#endif
#define Q RVMESH_MESH_X
#if CANNON_N % Q != 0
#error "CANNON_N must be a multiple of the machine's side"
#endif
#define B (CANNON_N / Q)
#define TAG 6u
enum { EAST = 0, WEST = 1, SOUTH = 2, NORTH = 3 };   /* the ports (linkport.h); y grows southwards */

typedef int32_t block[B][B];
static block a[2], b[2], c;              /* two buffers of A and of B: one held, one receiving */
static struct ni_shape shape;

static uint32_t node_at(uint32_t x, uint32_t y) { return (x % Q) + Q * (y % Q); }

/* Sends a[*ca] (if dx != 0) dx nodes east and b[*cb] (if dy != 0) dy nodes south (one worm
 * each, all at once), and receives the blocks that come the same way into the other buffers,
 * which become the current ones (*ca ^= 1, *cb ^= 1); what does not move stays where it is. */
static void shift(int *ca, int *cb, int dx, int dy)
{
    rvmesh_region_begin("cannon_comm");
    struct ni_tx tx[4];
    struct ni_rx rx[4];
    struct ni_tx *txp[NI_MAX_PORTS] = {0};
    struct ni_rx *rxp[NI_MAX_PORTS] = {0};
    uint32_t from[4] = {0};
    const uint32_t x = shape.coord[0], y = shape.coord[1];
    for (int m = 0; m < 2; m++) {
        const int ddx = m == 0 ? dx : 0, ddy = m == 1 ? dy : 0;
        if (ddx == 0 && ddy == 0)
            continue;
        int *cur = m == 0 ? ca : cb;
        block *buf = m == 0 ? a : b;
        const int out = ni_port_for(ddx, ddy, 0, 0), in = out ^ 1;   /* it arrives from the opposite side */
        tx[out] = (struct ni_tx){NOC_HEAD(ddx, ddy, 0, 0, TAG), (const uint32_t *)&buf[*cur][0][0], B * B, 0};
        rx[in] = (struct ni_rx){.payload = (uint32_t *)&buf[*cur ^ 1][0][0], .max = B * B};
        txp[out] = &tx[out];
        rxp[in] = &rx[in];
        const uint32_t sx = (uint32_t)((ddx % Q + Q) % Q), sy = (uint32_t)((ddy % Q + Q) % Q);
        from[in] = node_at(x + Q - sx, y + Q - sy);   /* the node as far the other way */
        *cur ^= 1;
    }
    const int rc = ni_exchange(txp, rxp);
    for (unsigned p = 0; p < 4; p++)
        if (rxp[p] && (rc != NI_OK || rx[p].status != NI_OK || rx[p].msg.source != from[p] || rx[p].msg.n != B * B)) {
            printf("cannon: FAILED: shift: port %u: status %d, a worm of %lu words from node %lu (node %lu "
                   "expected)\n", p, rc != NI_OK ? rc : rx[p].status, (unsigned long)rx[p].msg.n,
                   (unsigned long)rx[p].msg.source, (unsigned long)from[p]);
            rvmesh_exit(1);
        }
    rvmesh_region_end("cannon_comm", 0);
}

/* the shorter way round a ring of Q to go `left` nodes back: -left or Q - left */
static int back(uint32_t left)
{
    left %= Q;
    return left <= Q / 2 ? -(int)left : (int)(Q - left);
}

/* c += a b on blocks: four elements of a row of c at a time, kept in registers while k runs
 * (a load of a and four of b for four multiply-adds) */
static void multiply(block a_, block b_)
{
    for (uint32_t i = 0; i < B; i++) {
        const int32_t *arow = a_[i];
        int32_t *crow = c[i];
        uint32_t j = 0;
        for (; j + 4 <= B; j += 4) {
            uint32_t c0 = (uint32_t)crow[j], c1 = (uint32_t)crow[j + 1], c2 = (uint32_t)crow[j + 2],
                     c3 = (uint32_t)crow[j + 3];
            for (uint32_t k = 0; k < B; k++) {
                const uint32_t aik = (uint32_t)arow[k];
                const int32_t *bk = &b_[k][j];
                c0 += aik * (uint32_t)bk[0];
                c1 += aik * (uint32_t)bk[1];
                c2 += aik * (uint32_t)bk[2];
                c3 += aik * (uint32_t)bk[3];
            }
            crow[j] = (int32_t)c0;
            crow[j + 1] = (int32_t)c1;
            crow[j + 2] = (int32_t)c2;
            crow[j + 3] = (int32_t)c3;
        }
        for (; j < B; j++) {
            uint32_t sum = (uint32_t)crow[j];
            for (uint32_t k = 0; k < B; k++)
                sum += (uint32_t)arow[k] * (uint32_t)b_[k][j];
            crow[j] = (int32_t)sum;
        }
    }
}

int main(void)
{
    if (ni_init(&shape) != NI_OK) {
        printf("cannon: no network interface: run the image on mesh-sim\n");
        return 2;
    }
    const uint32_t x = shape.coord[0], y = shape.coord[1];
    for (uint32_t i = 0; i < B; i++)
        for (uint32_t j = 0; j < B; j++) {
            a[0][i][j] = cannon_element(0, y * B + i, x * B + j);
            b[0][i][j] = cannon_element(1, y * B + i, x * B + j);
        }

    rvmesh_region_begin("cannon");
    int ca = 0, cb = 0;   /* a[ca], b[cb]: the blocks this node holds now */
    /* 1. alignment: A of block row y y nodes west, B of block column x x nodes north */
    shift(&ca, &cb, back(y), back(x));
    /* 2. */
    for (uint32_t s = 0; s < Q; s++) {
        const int stale = CANNON_PLANT && s == Q - 1 && shape.node == shape.nodes / 2u;
        multiply(a[stale ? ca ^ 1 : ca], b[cb]);
        if (s + 1 < Q)
            shift(&ca, &cb, -1, -1);
    }
    rvmesh_region_end("cannon", 0);

    uint32_t hash = 0;
    for (uint32_t i = 0; i < B; i++)
        for (uint32_t j = 0; j < B; j++)
            hash += cannon_cell_hash(i * B + j, c[i][j]);
    if (hash != cannon_ref_hash[shape.node] || c[0][0] != cannon_ref_first[shape.node]) {
        printf("cannon: FAILED: block (%lu,%lu) of C differs from the host's reference: hash %08lx, first element "
               "%ld; the host's reference says %08lx, %ld\n", (unsigned long)x, (unsigned long)y,
               (unsigned long)hash, (long)c[0][0], (unsigned long)cannon_ref_hash[shape.node],
               (long)cannon_ref_first[shape.node]);
        return 1;
    }
    if (shape.node == 0) {
        const struct rvmesh_region *r = rvmesh_region_get("cannon"), *cm = rvmesh_region_get("cannon_comm");
        printf("cannon: %dx%d matrices on %ux%u nodes (blocks of %dx%d): as the host's reference; node 0: %lu "
               "cycles, %lu in shifts\n", CANNON_N, CANNON_N, Q, Q, B, B, (unsigned long)r->cycles,
               (unsigned long)cm->cycles);
    }
    return 0;
}
