/* SPDX-License-Identifier: ISC */
/* All-port neighbour exchange: every node sends one worm on each of its 2d ports at once
 * (to the neighbour that way) and receives 2d worms, checking on which port each came in,
 * its head, source and every payload word. Three rounds: empty payload, 12 words and 64
 * words (longer than all the buffering on the path, so only the interleaving of
 * ni_exchange avoids a deadlock). Node 0 prints the cycles of each round. Exits 0 when all
 * is right, else a status naming the first wrong thing (see fail()). */
#include <stdio.h>

#include "linkport.h"
#include "rvmesh_rt.h"

#define MAX_WORDS 64

static uint32_t tx_words[NI_MAX_PORTS][MAX_WORDS];
static uint32_t rx_words[NI_MAX_PORTS][MAX_WORDS];

static uint32_t word_for(uint32_t source, uint32_t port, uint32_t i)
{
    uint32_t v = source * 0x9e3779b1u ^ (port + 1u) * 0x85ebca6bu ^ (i + 7u) * 0xc2b2ae35u;
    return v ^ (v >> 15);
}

static void fail(unsigned code, const char *what, unsigned port, uint32_t got, uint32_t want)
{
    printf("FAIL %s on port %u: got 0x%08lx, want 0x%08lx\n", what, port, (unsigned long)got,
           (unsigned long)want);
    rvmesh_exit(code);
}

int main(void)
{
    struct ni_shape s;
    if (ni_init(&s) != NI_OK)
        fail(2, "NI version", 0, ni_read(NI_VERSION), NI_VERSION_3);
    if (s.dims != RVMESH_MESH_DIMS || s.size[0] != RVMESH_MESH_X || s.size[1] != RVMESH_MESH_Y ||
        s.torus != RVMESH_MESH_TORUS || s.nodes != RVMESH_MESH_X * RVMESH_MESH_Y * RVMESH_MESH_Z)
        fail(3, "NI shape", 0, ni_read(NI_SHAPE), 0);
    if (s.node != s.coord[0] + s.size[0] * (s.coord[1] + s.size[1] * s.coord[2]) ||
        s.node != RVMESH_CSR_READ(mhartid))
        fail(4, "NI node index", 0, s.node, RVMESH_CSR_READ(mhartid));
    if (!s.torus)
        fail(5, "this test wants a torus (every port linked)", 0, 0, 1);

    static const uint32_t lengths[] = {0, 12, MAX_WORDS};
    for (unsigned round = 0; round < 3; ++round) {
        uint32_t n = lengths[round];
        struct ni_tx tx[NI_MAX_PORTS];
        struct ni_rx rx[NI_MAX_PORTS];
        struct ni_tx *txp[NI_MAX_PORTS] = {0};
        struct ni_rx *rxp[NI_MAX_PORTS] = {0};
        for (unsigned p = 0; p < s.ports; ++p) {
            int count[3] = {0, 0, 0};
            count[p / 2u] = (p & 1u) ? -1 : 1;
            for (uint32_t i = 0; i < n; ++i)
                tx_words[p][i] = word_for(s.node, p, i);
            if (n >= 2) {
                tx_words[p][0] = s.node;
                tx_words[p][1] = p;
            }
            tx[p].head = NOC_HEAD(count[0], count[1], count[2], p / 2u, 10u + p + round);
            tx[p].payload = tx_words[p];
            tx[p].n = n;
            txp[p] = &tx[p];
            rx[p].payload = rx_words[p];
            rx[p].max = MAX_WORDS;
            rxp[p] = &rx[p];
            if ((unsigned)ni_port_for(count[0], count[1], count[2], p / 2u) != p)
                fail(6, "ni_port_for", p, (uint32_t)ni_port_for(count[0], count[1], count[2], p / 2u), p);
        }
        uint64_t start = rvmesh_cycles();
        int rc = ni_exchange(txp, rxp);
        uint64_t cycles = rvmesh_cycles() - start;
        if (rc != NI_OK)
            fail(10, "ni_exchange status", 0, (uint32_t)rc, NI_OK);
        for (unsigned q = 0; q < s.ports; ++q) {
            /* port q = 2d + s: the worm came from the neighbour on side s of dimension d,
             * which sent it on its port q ^ 1 */
            unsigned from = ni_neighbour(&s, s.node, q), sent_on = q ^ 1u;
            if (rx[q].msg.source != from)
                fail(11, "source", q, rx[q].msg.source, from);
            if (rx[q].msg.head != NOC_HEAD(0, 0, 0, q / 2u, 10u + sent_on + round))
                fail(12, "head", q, rx[q].msg.head, NOC_HEAD(0, 0, 0, q / 2u, 10u + sent_on + round));
            if (rx[q].msg.n != n)
                fail(13, "payload length", q, rx[q].msg.n, n);
            for (uint32_t i = 0; i < n; ++i) {
                uint32_t want = i == 0 && n >= 2 ? from : i == 1 && n >= 2 ? sent_on
                                                                          : word_for(from, sent_on, i);
                if (rx_words[q][i] != want)
                    fail(14, "payload word", q, rx_words[q][i], want);
            }
        }
        if (s.node == 0)
            printf("round %u: %u worms of %lu flits each way on %u ports: %lu cycles\n", round,
                   (unsigned)s.ports, (unsigned long)(n + 2), (unsigned)s.ports, (unsigned long)cycles);
    }
    for (unsigned p = 0; p < s.ports; ++p)
        if (ni_wait_sent(p) != NI_OK)
            fail(15, "worm refused", p, ni_errors(), 0);
    if (ni_refused_count() != 0 || ni_router_errors() != 0)
        fail(16, "error counters", 0, ni_read(NI_REFUSED), 0);
    if (ni_rx_mask() != 0)
        fail(17, "flits left over", 0, ni_rx_mask(), 0);
    return 0;
}
