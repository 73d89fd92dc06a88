/* SPDX-License-Identifier: ISC
 * 2-D Jacobi with halo exchange through the link-port driver, on every node of the machine
 * (the application kit: kit/README.md; no collectives: the neighbours talk directly).
 *
 * The JACOBI_N x JACOBI_N grid of jacobi.h, a BX x BY block of it on each node (BX = N / X,
 * BY = N / Y: node (x, y) holds columns x*BX .. and rows y*BY ..), kept with a halo of one
 * cell round it. Each of JACOBI_STEPS iterations:
 *   1. the halo exchange: every node sends its edge rows and columns to its four neighbours
 *      on the torus (one worm each, ni_exchange: all four ports at once, the payloads by the
 *      NI's DMA engines) and receives theirs into its halo;
 *   2. every cell of its block becomes jacobi_cell of its neighbours (the heaters stay hot).
 * At the end every node compares its block with the host's reference (ref.c, computed when
 * the program is built: a hash of each node's block and its first cell) and exits 1 on a
 * difference.
 * Regions (the machine-wide cycle count, mesh-sim --report): "jacobi" the iterations,
 * "jacobi_comm" the halo exchanges in them (packing the columns included); make bench-apps
 * reads both. */
#include <stdio.h>

#include "jacobi.h"
#include "jacobi_ref.h"
#include "linkport.h"
#include "rvmesh_rt.h"

#ifndef JACOBI_STEPS
#define JACOBI_STEPS 10
#endif
#ifndef JACOBI_PLANT
#define JACOBI_PLANT 0   /* 1: one node keeps its old west halo in the last iteration (tests/firmware/apps) */
#endif
#if RVMESH_MESH_Z != 1 || !RVMESH_MESH_TORUS
#error "jacobi runs on a 2-D torus (SHAPE=4x4t, 8x8t, ...)"
#endif
#if JACOBI_N % RVMESH_MESH_X != 0 || JACOBI_N % RVMESH_MESH_Y != 0
#error "JACOBI_N must be a multiple of both sides of the machine"
#endif
#define BX (JACOBI_N / RVMESH_MESH_X)
#define BY (JACOBI_N / RVMESH_MESH_Y)
#define TAG 5u
/* the ports (linkport.h): 0 +x (east), 1 -x (west), 2 +y (south: rows grow), 3 -y (north) */
enum { EAST = 0, WEST = 1, SOUTH = 2, NORTH = 3 };

typedef uint32_t grid[BY + 2][BX + 2];   /* [row][column]; rows and columns 0 and B+1: the halo */
static grid a, b;
static uint32_t east_out[BY], west_out[BY], east_in[BY], west_in[BY];
#define MAX_HEATERS (BX * BY / 8 + 8)   /* about one cell in 61 is a heater */
static uint32_t heater[MAX_HEATERS];     /* the heaters of this block: row * (BX + 2) + column */
static uint32_t heaters;
static struct ni_shape shape;
static uint32_t neighbour[4];            /* the node on each side */

static void fail_exchange(int rc, const struct ni_rx *rx, unsigned port, uint32_t want)
{
    printf("jacobi: FAILED: halo exchange: port %u: status %d, a worm of %lu words from node %lu (node %lu "
           "expected)\n", port, rc, (unsigned long)rx->msg.n, (unsigned long)rx->msg.source, (unsigned long)want);
    rvmesh_exit(1);
}

/* step 1: the halo of u from the four neighbours */
static void halo(grid u, int stale_west)
{
    rvmesh_region_begin("jacobi_comm");
    for (uint32_t i = 0; i < BY; i++) {
        east_out[i] = u[i + 1][BX];
        west_out[i] = u[i + 1][1];
    }
    /* what arrives on port p came from the neighbour on that side: its edge facing us */
    static struct ni_tx tx[4];
    static struct ni_rx rx[4];
    static struct ni_tx *const txp[NI_MAX_PORTS] = {&tx[0], &tx[1], &tx[2], &tx[3]};
    static struct ni_rx *const rxp[NI_MAX_PORTS] = {&rx[0], &rx[1], &rx[2], &rx[3]};
    static const uint32_t words[4] = {[EAST] = BY, [WEST] = BY, [SOUTH] = BX, [NORTH] = BX};
    const uint32_t *out[4] = {[EAST] = east_out, [WEST] = west_out, [SOUTH] = &u[BY][1], [NORTH] = &u[1][1]};
    uint32_t *in[4] = {[EAST] = east_in, [WEST] = west_in, [SOUTH] = &u[BY + 1][1], [NORTH] = &u[0][1]};
    for (unsigned p = 0; p < 4; p++) {
        tx[p].head = ni_one_hop_head(p, TAG);
        tx[p].payload = out[p];
        tx[p].n = words[p];
        rx[p].payload = in[p];
        rx[p].max = words[p];
    }
    const int rc = ni_exchange(txp, rxp);
    for (unsigned p = 0; p < 4; p++) {
        if (rc != NI_OK || rx[p].status != NI_OK || rx[p].msg.source != neighbour[p] || rx[p].msg.n != words[p])
            fail_exchange(rc != NI_OK ? rc : rx[p].status, &rx[p], p, neighbour[p]);
    }
    for (uint32_t i = 0; i < BY; i++) {
        u[i + 1][BX + 1] = east_in[i];
        if (!stale_west)
            u[i + 1][0] = west_in[i];
    }
    rvmesh_region_end("jacobi_comm", 0);
}

/* step 2: v from u */
static void relax(grid u, grid v)
{
    for (uint32_t i = 1; i <= BY; i++) {
        const uint32_t *n = u[i - 1], *c = u[i], *s = u[i + 1];
        uint32_t *out = v[i];
        for (uint32_t j = 1; j <= BX; j++)
            out[j] = jacobi_cell(n[j], s[j], c[j - 1], c[j + 1]);
    }
    uint32_t *cell = &v[0][0];
    for (uint32_t h = 0; h < heaters; h++)
        cell[heater[h]] = JACOBI_HOT;
}

int main(void)
{
    if (ni_init(&shape) != NI_OK) {
        printf("jacobi: no network interface: run the image on mesh-sim\n");
        return 2;
    }
    for (unsigned p = 0; p < 4; p++)
        neighbour[p] = ni_neighbour(&shape, shape.node, p);
    const uint32_t x0 = shape.coord[0] * BX, y0 = shape.coord[1] * BY;
    for (uint32_t i = 0; i < BY; i++)
        for (uint32_t j = 0; j < BX; j++) {
            a[i + 1][j + 1] = jacobi_initial(x0 + j, y0 + i);
            if (jacobi_heater(x0 + j, y0 + i)) {
                if (heaters == MAX_HEATERS) {
                    printf("jacobi: FAILED: more than %d heaters in a block\n", MAX_HEATERS);
                    return 1;
                }
                heater[heaters++] = (i + 1) * (BX + 2) + j + 1;
            }
        }

    rvmesh_region_begin("jacobi");
    uint32_t (*u)[BX + 2] = a, (*v)[BX + 2] = b;
    for (int t = 0; t < JACOBI_STEPS; t++) {
        halo(u, JACOBI_PLANT && t == JACOBI_STEPS - 1 && shape.node == shape.nodes / 2u);
        relax(u, v);
        uint32_t (*w)[BX + 2] = u;
        u = v;
        v = w;
    }
    rvmesh_region_end("jacobi", 0);

    uint32_t hash = 0;
    for (uint32_t i = 0; i < BY; i++)
        for (uint32_t j = 0; j < BX; j++)
            hash += jacobi_cell_hash(i * BX + j, u[i + 1][j + 1]);
    if (hash != jacobi_ref_hash[shape.node] || u[1][1] != jacobi_ref_first[shape.node]) {
        printf("jacobi: FAILED: block (%u,%u) differs from the host's reference: hash %08lx, first cell %lu; the "
               "host's reference says %08lx, %lu\n", shape.coord[0], shape.coord[1], (unsigned long)hash,
               (unsigned long)u[1][1], (unsigned long)jacobi_ref_hash[shape.node],
               (unsigned long)jacobi_ref_first[shape.node]);
        return 1;
    }
    if (shape.node == 0) {
        const struct rvmesh_region *r = rvmesh_region_get("jacobi"), *c = rvmesh_region_get("jacobi_comm");
        printf("jacobi: %dx%d grid, %d iterations on %u nodes (blocks of %dx%d): as the host's reference; node 0: "
               "%lu cycles, %lu in halo exchanges\n", JACOBI_N, JACOBI_N, JACOBI_STEPS, shape.nodes, BX, BY,
               (unsigned long)r->cycles, (unsigned long)c->cycles);
    }
    return 0;
}
