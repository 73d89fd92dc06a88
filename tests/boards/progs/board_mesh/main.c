/* SPDX-License-Identifier: ISC
 * board_mesh: the collectives on a machine of boards (tests/boards/test_board_mesh.sh: four
 * board tops wired pin to pin as a 2x2 mesh; the same ELF runs on mesh-sim). Every node
 * checks every byte it receives against the pattern its sender wrote:
 *   bcast           BCAST_BYTES from node 0, then from node 3
 *   scatter         SG_BYTES a node from node 0
 *   gather          SG_BYTES a node to node 3
 *   allgather       AG_BYTES from every node
 *   alltoall        A2A_BYTES from every node to every node
 *   allreduce       AR_COUNT int32 sums (by allgather)
 *   reduce_scatter  AR_COUNT int32 sums a node (by alltoall)
 *   barrier
 * Prints one line per node, "board_mesh: node N ok ..." (or the first wrong byte) and
 * exits with the number of wrong blocks (0: every byte right). */
#include <stdint.h>
#include <stdio.h>

#include "rvmesh.h"

#define BCAST_BYTES 256u
#define AG_BYTES 64u
#define A2A_BYTES 32u
#define AR_COUNT 16u
#define SG_BYTES 48u

static uint8_t bcast_buf[BCAST_BYTES];
static uint8_t ag_send[AG_BYTES], ag_recv[RVM_NODES * AG_BYTES];
static uint8_t a2a_send[RVM_NODES * A2A_BYTES], a2a_recv[RVM_NODES * A2A_BYTES];
static int32_t ar_send[AR_COUNT], ar_recv[AR_COUNT];
static uint8_t sg_all[RVM_NODES * SG_BYTES], sg_one[SG_BYTES];
static int32_t rs_send[RVM_NODES * AR_COUNT], rs_recv[AR_COUNT];

/* the byte i of the block that `from` sends to `to` in collective `coll` */
static uint8_t pattern(uint32_t coll, uint32_t from, uint32_t to, uint32_t i)
{
    return (uint8_t)(coll * 131u + from * 37u + to * 11u + i * 7u + (i >> 8) * 3u + 1u);
}

static uint32_t wrong;

static void check(const char *what, const uint8_t *got, uint32_t coll, uint32_t from, uint32_t to,
                  uint32_t bytes)
{
    for (uint32_t i = 0; i < bytes; i++) {
        uint8_t want = pattern(coll, from, to, i);
        if (got[i] != want) {
            printf("board_mesh: node %lu %s from node %lu byte %lu: 0x%02x, want 0x%02x\n",
                   (unsigned long)rvm_node(), what, (unsigned long)from, (unsigned long)i,
                   got[i], want);
            wrong++;
            return;
        }
    }
}

int main(void)
{
    rvm_init();
    const uint32_t me = rvm_node(), nodes = rvm_nodes();
    const uint64_t t0 = rvm_cycles();

    for (uint32_t root = 0; root < nodes; root += nodes - 1) {
        for (uint32_t i = 0; i < BCAST_BYTES; i++)
            bcast_buf[i] = me == root ? pattern(1, root, 0, i) : 0;
        rvm_bcast(bcast_buf, BCAST_BYTES, root);
        check("bcast", bcast_buf, 1, root, 0, BCAST_BYTES);
    }

    /* scatter from node 0: node t gets block t */
    for (uint32_t t = 0; t < nodes; t++)
        for (uint32_t i = 0; i < SG_BYTES; i++)
            sg_all[t * SG_BYTES + i] = me == 0 ? pattern(4, 0, t, i) : 0;
    rvm_scatter(sg_all, sg_one, SG_BYTES, 0);
    check("scatter", sg_one, 4, 0, me, SG_BYTES);
    /* gather to node 3: block k from node k */
    for (uint32_t i = 0; i < SG_BYTES; i++)
        sg_one[i] = pattern(5, me, nodes - 1, i);
    rvm_gather(sg_one, sg_all, SG_BYTES, nodes - 1);
    if (me == nodes - 1)
        for (uint32_t k = 0; k < nodes; k++)
            check("gather", sg_all + k * SG_BYTES, 5, k, nodes - 1, SG_BYTES);

    for (uint32_t i = 0; i < AG_BYTES; i++)
        ag_send[i] = pattern(2, me, 0, i);
    rvm_allgather(ag_send, ag_recv, AG_BYTES);
    for (uint32_t k = 0; k < nodes; k++)
        check("allgather", ag_recv + k * AG_BYTES, 2, k, 0, AG_BYTES);

    for (uint32_t t = 0; t < nodes; t++)
        for (uint32_t i = 0; i < A2A_BYTES; i++)
            a2a_send[t * A2A_BYTES + i] = pattern(3, me, t, i);
    rvm_alltoall(a2a_send, a2a_recv, A2A_BYTES);
    for (uint32_t k = 0; k < nodes; k++)
        check("alltoall", a2a_recv + k * A2A_BYTES, 3, k, me, A2A_BYTES);

    for (uint32_t i = 0; i < AR_COUNT; i++)
        ar_send[i] = (int32_t)(me * 1000u + i) - 500;
    rvm_allreduce(ar_send, ar_recv, AR_COUNT, RVM_SUM);
    for (uint32_t i = 0; i < AR_COUNT; i++) {
        int32_t want = (int32_t)(nodes * (nodes - 1) / 2 * 1000u + nodes * i) - 500 * (int32_t)nodes;
        if (ar_recv[i] != want) {
            printf("board_mesh: node %lu allreduce element %lu: %ld, want %ld\n", (unsigned long)me,
                   (unsigned long)i, (long)ar_recv[i], (long)want);
            wrong++;
            break;
        }
    }

    /* reduce_scatter: node me's element i of block t is me * 100 + t * 10 + i; node t gets the
     * sum over the nodes of its block */
    for (uint32_t t = 0; t < nodes; t++)
        for (uint32_t i = 0; i < AR_COUNT; i++)
            rs_send[t * AR_COUNT + i] = (int32_t)(me * 100u + t * 10u + i);
    rvm_reduce_scatter(rs_send, rs_recv, AR_COUNT, RVM_SUM);
    for (uint32_t i = 0; i < AR_COUNT; i++) {
        int32_t want = (int32_t)(nodes * (nodes - 1) / 2 * 100u + nodes * (me * 10u + i));
        if (rs_recv[i] != want) {
            printf("board_mesh: node %lu reduce_scatter element %lu: %ld, want %ld\n", (unsigned long)me,
                   (unsigned long)i, (long)rs_recv[i], (long)want);
            wrong++;
            break;
        }
    }
    rvm_barrier();

    const uint64_t t1 = rvm_cycles();
    if (wrong == 0)
        printf("board_mesh: node %lu ok: bcast x2, scatter, gather, allgather, alltoall, allreduce, "
               "reduce_scatter, barrier in %lu cycles\n", (unsigned long)me, (unsigned long)(t1 - t0));
    return (int)wrong;
}
