/* SPDX-License-Identifier: ISC */
/* On a mesh (not a torus), every node at once: a worm whose route would leave the mesh is
 * refused by the NI -- in each of the 4 directions, from every node, with the smallest hop
 * count that leaves (one past the edge) -- sets that port's ERROR bit and counts in
 * REFUSED, and disturbs nothing: afterwards every node sends a good worm to its +x
 * neighbour (the last column to its -x neighbour), which arrives intact on the right port.
 * ni_neighbour names no node beyond the edges.
 * Run on mesh-sim-4x4m (tests/sim/mesh/test_mesh_sim.sh). Exits 0, or the failed check. */
#include <stdio.h>

#include "linkport.h"
#include "rvmesh_rt.h"

static void check(unsigned code, int ok, const char *what, uint32_t got)
{
    if (!ok) {
        printf("FAIL check %u: %s (%lu)\n", code, what, (unsigned long)got);
        rvmesh_exit(code);
    }
}

int main(void)
{
    struct ni_shape s;
    check(1, ni_init(&s) == NI_OK, "no NI", 0);
    check(2, !s.torus && s.dims == 2 && s.size[0] >= 2 && s.size[1] >= 2, "this test wants a 2-D mesh", s.torus);
    const int x = s.coord[0], y = s.coord[1], X = s.size[0], Y = s.size[1];
    const uint32_t payload[3] = {0x1111u * s.node, 0xabcd0000u | s.node, 7u};

    /* one past the edge in each direction: +x, -x, +y, -y */
    const int leave[4][2] = {{X - x, 0}, {-(x + 1), 0}, {0, Y - y}, {0, -(y + 1)}};
    uint32_t refused_before = ni_refused_count();
    for (unsigned p = 0; p < 4; p++) {
        uint32_t head = NOC_HEAD(leave[p][0], leave[p][1], 0, p / 2, 5);
        check(10 + p, ni_send(p, head, payload, 3) == NI_OK, "send", p);
        check(20 + p, ni_wait_sent(p) == NI_EREFUSED, "a worm leaving the mesh was not refused on port", p);
        check(30 + p, (ni_errors() & (1u << p)) == 0, "ERROR bit not cleared by ni_wait_sent", ni_errors());
    }
    check(40, ni_refused_count() - refused_before == 4, "REFUSED did not count 4 worms", ni_refused_count());
    check(41, ni_router_errors() == 0, "the router counted an error", ni_router_errors());

    /* ni_neighbour: no node beyond the mesh's edge, the adjacent one elsewhere */
    const int on_edge[4] = {x == X - 1, x == 0, y == Y - 1, y == 0};
    const uint32_t adjacent[4] = {s.node + 1u, s.node - 1u, s.node + (uint32_t)X, s.node - (uint32_t)X};
    for (unsigned p = 0; p < 4; p++)
        check(45 + p, ni_neighbour(&s, s.node, p) == (on_edge[p] ? NI_NO_NODE : adjacent[p]), "ni_neighbour",
              ni_neighbour(&s, s.node, p));
    check(49, ni_neighbour(&s, s.node, 4) == NI_NO_NODE, "ni_neighbour of a port a 2-D mesh lacks", 4);

    /* a good worm to a neighbour, received from the other side */
    unsigned tx_port = x < X - 1 ? 0u : 1u;          /* +x, or -x for the last column */
    int dx = x < X - 1 ? 1 : -1;
    struct ni_tx tx = {NOC_HEAD(dx, 0, 0, 0, 9), payload, 3, 0};
    struct ni_tx *txs[NI_MAX_PORTS] = {0};
    struct ni_rx *rxs[NI_MAX_PORTS] = {0};
    txs[tx_port] = &tx;
    uint32_t got[2][4];
    struct ni_rx rx[2];
    /* who sends to me: from -x (x > 0, arrives on port 1) unless I am the last column's
     * target; the last column sends to -x, which arrives at x = X-2 on port 0 */
    unsigned nrx = 0;
    if (x > 0 && x - 1 < X - 1) { rx[0] = (struct ni_rx){got[0], 4, {0, 0, 0}, 0, 0}; rxs[1] = &rx[0]; nrx++; }
    if (x == X - 2) { rx[1] = (struct ni_rx){got[1], 4, {0, 0, 0}, 0, 0}; rxs[0] = &rx[1]; nrx++; }
    check(50, ni_exchange(txs, rxs) == NI_OK, "exchange", 0);
    check(51, ni_wait_sent(tx_port) == NI_OK, "the good worm was refused", tx_port);
    for (unsigned p = 0; p < 2; p++) {
        struct ni_rx *r = rxs[p];
        if (!r) continue;
        uint32_t from = p == 1 ? s.node - 1u : s.node + 1u;
        check(60 + p, r->msg.source == from && r->msg.n == 3, "wrong sender or length", r->msg.source);
        check(62 + p, r->payload[0] == 0x1111u * from && r->payload[1] == (0xabcd0000u | from) && r->payload[2] == 7u,
              "payload corrupted", r->payload[0]);
    }
    if (s.node == 0) printf("refusals on every port of every node; good worms intact (%u received here)\n", nrx);
    return 0;
}
