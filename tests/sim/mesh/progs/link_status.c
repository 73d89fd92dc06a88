/* SPDX-License-Identifier: ISC
 * The links' counters as a node reads them (NI register LINK_STATUS(p), ni_link_errors /
 * ni_link_retries). Every node sends ROUNDS worms of 64 words on each of its 2d ports to the
 * neighbour that way and checks every word it receives; then it waits SETTLE cycles, so that
 * every node's traffic (and the links' replays) is over, reads the counters of its ports
 * and prints one line:
 *     links errors E0 E1 .. retries R0 R1 .. total E R
 * With protected links (mesh-sim-4x4t-guard --flip-rate P) the totals over all nodes must be
 * mesh-sim's link-errors= and retries= (tests/sim/mesh/test_link_status.sh); on plain links
 * every count is 0. Exits 0 when every word arrived right, else a status naming what. */
#include <stdio.h>

#include "linkport.h"
#include "rvmesh_rt.h"

#define WORDS 64
#define ROUNDS 8
#define SETTLE 20000u

static uint32_t tx_words[NI_MAX_PORTS][WORDS];
static uint32_t rx_words[NI_MAX_PORTS][WORDS];

static uint32_t word_for(uint32_t source, uint32_t port, uint32_t round, uint32_t i)
{
    uint32_t v = source * 0x9e3779b1u ^ (port + 1u) * 0x85ebca6bu ^ (i + 7u) * 0xc2b2ae35u ^
                 round * 0x27d4eb2fu;
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
    if (!s.torus)
        fail(3, "this test wants a torus (every port linked)", 0, 0, 1);
    for (uint32_t round = 0; round < ROUNDS; ++round) {
        struct ni_tx tx[NI_MAX_PORTS];
        struct ni_rx rx[NI_MAX_PORTS];
        struct ni_tx *txp[NI_MAX_PORTS] = {0};
        struct ni_rx *rxp[NI_MAX_PORTS] = {0};
        for (unsigned p = 0; p < s.ports; ++p) {
            int count[3] = {0, 0, 0};
            count[p / 2u] = (p & 1u) ? -1 : 1;
            for (uint32_t i = 0; i < WORDS; ++i)
                tx_words[p][i] = word_for(s.node, p, round, i);
            tx[p].head = NOC_HEAD(count[0], count[1], count[2], p / 2u, 1u + p);
            tx[p].payload = tx_words[p];
            tx[p].n = WORDS;
            txp[p] = &tx[p];
            rx[p].payload = rx_words[p];
            rx[p].max = WORDS;
            rxp[p] = &rx[p];
        }
        int rc = ni_exchange(txp, rxp);
        if (rc != NI_OK)
            fail(10, "ni_exchange status", 0, (uint32_t)rc, NI_OK);
        for (unsigned q = 0; q < s.ports; ++q) {
            /* the worm on port q came from the neighbour that way, sent on its port q ^ 1 */
            unsigned from = ni_neighbour(&s, s.node, q);
            if (rx[q].msg.source != from)
                fail(11, "source", q, rx[q].msg.source, from);
            if (rx[q].msg.n != WORDS)
                fail(12, "payload length", q, rx[q].msg.n, WORDS);
            for (uint32_t i = 0; i < WORDS; ++i)
                if (rx_words[q][i] != word_for(from, q ^ 1u, round, i))
                    fail(13, "payload word", q, rx_words[q][i], word_for(from, q ^ 1u, round, i));
        }
    }
    uint64_t until = rvmesh_cycles() + SETTLE;
    while (rvmesh_cycles() < until)
        ;
    uint32_t errors = 0, retries = 0;
    printf("links errors");
    for (unsigned p = 0; p < s.ports; ++p) {
        printf(" %lu", (unsigned long)ni_link_errors(p));
        errors += ni_link_errors(p);
    }
    printf(" retries");
    for (unsigned p = 0; p < s.ports; ++p) {
        printf(" %lu", (unsigned long)ni_link_retries(p));
        retries += ni_link_retries(p);
    }
    printf(" total %lu %lu\n", (unsigned long)errors, (unsigned long)retries);
    return 0;
}
