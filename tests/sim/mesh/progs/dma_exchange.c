/* SPDX-License-Identifier: ISC */
/* The NI's DMA engines on every node of a torus at once:
 *  - all-port neighbour exchanges through ni_exchange (NI version 2: heads and info flits
 *    by the core, payloads by the 8 engines of each node), worms of 2..256 payload words,
 *    also with a different length on every port and a receive buffer shorter than the
 *    worm (NI_ETOOLONG, the rest drained by the core); every word checked;
 *  - the core and the engines sharing the RAM port: a loop of loads runs while all 8
 *    engines move 256 words each; both get through, the sum and every word right;
 *  - the cost: 64- and 256-word exchanges with DMA and with every flit moved by the core
 *    (ni_exchange_pio); node 0 prints the cycles;
 *  - refused starts: a TX or RX buffer outside the RAM, running past its end, misaligned,
 *    a start on a busy engine: the DMA_ERROR bit is set, no flit leaves, nothing is
 *    written (not even the RAM word the address would alias to), and the worm that was
 *    waiting is still there, intact.
 * Exits 0 when all is right, else the number of the failed check. */
#include <stdio.h>

#include "linkport.h"
#include "rvmesh_rt.h"

#define MAX_WORDS 256

static uint32_t tx_words[NI_MAX_PORTS][MAX_WORDS];
static uint32_t rx_words[NI_MAX_PORTS][MAX_WORDS + 4];
static struct ni_shape s;

static void check(unsigned code, int ok, const char *what, uint32_t got, uint32_t want)
{
    if (!ok) {
        printf("FAIL check %u: %s: got 0x%08lx, want 0x%08lx\n", code, what, (unsigned long)got,
               (unsigned long)want);
        rvmesh_exit(code);
    }
}

static uint32_t word_for(uint32_t source, uint32_t port, uint32_t i, uint32_t round)
{
    uint32_t v = source * 0x9e3779b1u ^ (port + 1u) * 0x85ebca6bu ^ (i + 7u) * 0xc2b2ae35u ^
                 round * 0x27d4eb2fu;
    return v ^ (v >> 15);
}

static unsigned neighbour(unsigned port) { return ni_neighbour(&s, s.node, port); }

/* One exchange round: port p sends len(p) words to its neighbour; the worm arriving on
 * port q was sent on the neighbour's port q ^ 1 and has len(q ^ 1) words. `max` limits
 * the receive buffers (NI_ETOOLONG expected when a worm is longer). Returns the cycles
 * of the ni_exchange call. */
static uint32_t round_lengths[NI_MAX_PORTS];
static uint32_t exchange_round(unsigned code, unsigned round, uint32_t max, int pio)
{
    struct ni_tx tx[NI_MAX_PORTS];
    struct ni_rx rx[NI_MAX_PORTS];
    struct ni_tx *txp[NI_MAX_PORTS] = {0};
    struct ni_rx *rxp[NI_MAX_PORTS] = {0};
    for (unsigned p = 0; p < s.ports; ++p) {
        uint32_t n = round_lengths[p];
        for (uint32_t i = 0; i < n; ++i)
            tx_words[p][i] = word_for(s.node, p, i, round);
        for (uint32_t i = 0; i < MAX_WORDS + 4; ++i)
            rx_words[p][i] = 0xdeadbeefu;
        tx[p].head = ni_one_hop_head(p, 20u + p);
        tx[p].payload = tx_words[p];
        tx[p].n = n;
        txp[p] = &tx[p];
        rx[p].payload = rx_words[p];
        rx[p].max = max;
        rxp[p] = &rx[p];
    }
    uint64_t start = rvmesh_cycles();
    int rc = pio ? ni_exchange_pio(txp, rxp) : ni_exchange(txp, rxp);
    uint32_t cycles = (uint32_t)(rvmesh_cycles() - start);
    int too_long = 0;
    for (unsigned q = 0; q < s.ports; ++q) {
        unsigned from = neighbour(q), sent_on = q ^ 1u;
        uint32_t n = round_lengths[sent_on];
        check(code + 1, rx[q].msg.source == from, "source", rx[q].msg.source, from);
        check(code + 2, rx[q].msg.head == NOC_HEAD(0, 0, 0, q / 2u, 20u + sent_on), "head",
              rx[q].msg.head, NOC_HEAD(0, 0, 0, q / 2u, 20u + sent_on));
        check(code + 3, rx[q].msg.n == n, "payload length", rx[q].msg.n, n);
        check(code + 4, rx[q].status == (n > max ? NI_ETOOLONG : NI_OK), "receive status",
              (uint32_t)rx[q].status, n > max ? (uint32_t)NI_ETOOLONG : NI_OK);
        too_long |= n > max;
        for (uint32_t i = 0; i < n && i < max; ++i)
            check(code + 5, rx_words[q][i] == word_for(from, sent_on, i, round), "payload word",
                  rx_words[q][i], word_for(from, sent_on, i, round));
        for (uint32_t i = n < max ? n : max; i < MAX_WORDS + 4; ++i)
            check(code + 6, rx_words[q][i] == 0xdeadbeefu, "written past the payload",
                  rx_words[q][i], 0xdeadbeefu);
    }
    check(code + 7, rc == (too_long ? NI_ETOOLONG : NI_OK), "ni_exchange status", (uint32_t)rc, 0);
    check(code + 8, ni_dma_busy_mask() == 0, "an engine still busy", ni_dma_busy_mask(), 0);
    return cycles;
}

static void same_lengths(uint32_t n)
{
    for (unsigned p = 0; p < s.ports; ++p)
        round_lengths[p] = n;
}

/* waits (bounded) for a flit on `port`; 0 if none came */
static int wait_rx(unsigned port)
{
    uint64_t start = rvmesh_cycles();
    while (!(ni_rx_mask() & (1u << port)))
        if (rvmesh_cycles() - start > 200000u)
            return 0;
    return 1;
}

int main(void)
{
    check(1, ni_init(&s) == NI_OK, "ni_init", ni_read(NI_VERSION), NI_VERSION_3);
    check(2, ni_read(NI_VERSION) == NI_VERSION_3 && ni_has_dma(), "NI version", ni_read(NI_VERSION),
          NI_VERSION_3);
    check(3, s.torus && s.dims == 2, "this test wants a 2-D torus", s.torus, 1);
    check(4, ni_read(NI_DMA_STATUS) == 0 && ni_dma_errors() == 0, "DMA state at reset",
          ni_read(NI_DMA_STATUS), 0);

    /* ---- exchanges through the engines: 2..256 words, every word checked */
    static const uint32_t lengths[] = {2, 3, 7, 16, 31, 64, 100, 129, 200, 255, 256};
    unsigned round = 0;
    for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; ++k, ++round) {
        same_lengths(lengths[k]);
        exchange_round(10, round, MAX_WORDS, 0);
    }
    /* a different length on every port, twice (each port's length moves on) */
    for (unsigned k = 0; k < 2; ++k, ++round) {
        static const uint32_t mixed[] = {256, 2, 77, 130, 5, 250};
        for (unsigned p = 0; p < s.ports; ++p)
            round_lengths[p] = mixed[(p + 3u * k) % 6u];
        exchange_round(20, round, MAX_WORDS, 0);
    }
    /* receive buffers of 100 words, worms of 160: the engine fills the buffer, the core
     * drains the rest, NI_ETOOLONG */
    same_lengths(160);
    exchange_round(30, round++, 100, 0);
    /* and the short worms the driver moves around the engines: 0 and 1 words */
    same_lengths(0);
    exchange_round(40, round++, MAX_WORDS, 0);
    same_lengths(1);
    exchange_round(40, round++, MAX_WORDS, 0);

    /* ---- the core and the engines at once: while 4 TX and 4 RX engines move 256 words
     * each, the core sums a RAM array (its loads compete with the engines for the RAM's
     * data port, and both must get through) */
    {
        static uint32_t scratch[1024];
        uint32_t want = 0, sum = 0;
        for (uint32_t i = 0; i < 1024; ++i) {
            scratch[i] = word_for(s.node, 7, i, round);
            want += scratch[i];
        }
        uint64_t t0 = rvmesh_cycles();
        for (uint32_t i = 0; i < 1024; ++i)
            sum += ((volatile uint32_t *)scratch)[i];
        uint32_t alone = (uint32_t)(rvmesh_cycles() - t0);
        check(100, sum == want, "sum without DMA", sum, want);
        uint32_t engines = 0;
        for (unsigned p = 0; p < s.ports; ++p) {
            for (uint32_t i = 0; i < MAX_WORDS; ++i) {
                tx_words[p][i] = word_for(s.node, p, i, round);
                rx_words[p][i] = 0;
            }
            while (!(ni_read(NI_TX_STATUS) & (1u << p)))
                ;
            ni_tx_flit(p, ni_one_hop_head(p, 40u + p));
            while (!(ni_read(NI_TX_STATUS) & (1u << p)))
                ;
            ni_tx_flit(p, NOC_INFO(s.node, MAX_WORDS + 2u));
            check(101, ni_dma_tx(p, tx_words[p], MAX_WORDS, 1) == NI_OK, "TX start", p, 0);
            engines |= NI_DMA_TX_BUSY(p);
        }
        for (unsigned q = 0; q < s.ports; ++q) {
            check(102, wait_rx(q), "no worm", q, 0);
            uint32_t head = ni_rx_flit(q);
            check(103, wait_rx(q), "no info flit", q, 0);
            uint32_t info = ni_rx_flit(q);
            check(104, head == NOC_HEAD(0, 0, 0, q / 2u, 40u + (q ^ 1u)) &&
                           info == NOC_INFO(neighbour(q), MAX_WORDS + 2u), "head or info", head, info);
            check(105, ni_dma_rx(q, rx_words[q], MAX_WORDS) == NI_OK, "RX start", q, 0);
            engines |= NI_DMA_RX_BUSY(q);
        }
        uint32_t busy_before = ni_dma_busy_mask();
        sum = 0;
        t0 = rvmesh_cycles();
        for (uint32_t i = 0; i < 1024; ++i)
            sum += ((volatile uint32_t *)scratch)[i];
        uint32_t shared = (uint32_t)(rvmesh_cycles() - t0);
        uint32_t status = ni_dma_wait(engines);
        uint32_t total = (uint32_t)(rvmesh_cycles() - t0);
        check(106, sum == want, "sum while the engines run", sum, want);
        check(107, (status & 0xf0000u) == 0xf0000u, "RX engines did not end at the worms' ends",
              status, 0xf0000u);
        for (unsigned q = 0; q < s.ports; ++q)
            for (uint32_t i = 0; i < MAX_WORDS; ++i)
                check(108, rx_words[q][i] == word_for(neighbour(q), q ^ 1u, i, round), "RX word",
                      rx_words[q][i], word_for(neighbour(q), q ^ 1u, i, round));
        if (s.node == 0)
            printf("core loop of 1024 loads: %lu cycles alone, %lu while the engines run "
                   "(busy 0x%04lx at its start; all 8 done %lu cycles after it began)\n",
                   (unsigned long)alone, (unsigned long)shared, (unsigned long)busy_before,
                   (unsigned long)total);
        ++round;
    }

    /* ---- the cost, with and without DMA (node 0 prints) */
    static const uint32_t measured[] = {64, 256};
    uint32_t cyc[2][2];
    for (unsigned k = 0; k < 2; ++k)
        for (int pio = 1; pio >= 0; --pio) {
            same_lengths(0);                   /* neighbours in step: an empty exchange */
            exchange_round(50, round++, MAX_WORDS, 1);
            same_lengths(measured[k]);
            cyc[k][pio] = exchange_round(50, round++, MAX_WORDS, pio);
        }
    if (s.node == 0)
        for (unsigned k = 0; k < 2; ++k) {
            uint32_t moved = 2u * s.ports * (measured[k] + 2u);   /* flits out and in */
            uint32_t core10 = (cyc[k][1] * 10u + moved / 2u) / moved;
            uint32_t dma10 = (cyc[k][0] * 10u + moved / 2u) / moved;
            printf("exchange of %u worms of %lu flits each way: core %lu cycles (%lu.%lu per flit "
                   "moved), DMA %lu cycles (%lu.%lu per flit moved)\n",
                   (unsigned)s.ports, (unsigned long)(measured[k] + 2u), (unsigned long)cyc[k][1],
                   (unsigned long)(core10 / 10u), (unsigned long)(core10 % 10u),
                   (unsigned long)cyc[k][0], (unsigned long)(dma10 / 10u),
                   (unsigned long)(dma10 % 10u));
        }

    /* ---- refused starts */
    const uint32_t ram_end = RVMESH_RAM_BASE + RVMESH_RAM_BYTES;
    volatile uint32_t *ram0 = (volatile uint32_t *)RVMESH_RAM_BASE;
    const uint32_t word0 = ram0[0];   /* where an address past the RAM would alias */
    uint32_t err;
    /* TX: outside, past the end, misaligned, below the RAM: refused, nothing leaves */
    check(60, ni_dma_tx(0, (const uint32_t *)0, 4, 1) == NI_EDMA, "TX from address 0", 0, 0);
    check(61, ni_dma_tx(0, (const uint32_t *)(ram_end - 8u), 4, 1) == NI_EDMA,
          "TX past the RAM's end", 0, 0);
    check(62, ni_dma_tx(0, (const uint32_t *)(RVMESH_RAM_BASE + 2u), 4, 1) == NI_EDMA,
          "TX misaligned", 0, 0);
    ni_write(NI_TX_DMA_ADDR(0), RVMESH_RAM_BASE - 4u);
    err = ni_dma_errors();
    check(63, err == 1u && (ni_read(NI_DMA_STATUS) & NI_DMA_ERR), "TX address below the RAM: DMA_ERROR",
          err, 1u);
    ni_write(NI_TX_DMA_COUNT(0), 4u | NI_DMA_LAST);      /* refused: the address was */
    check(64, ni_dma_busy_mask() == 0, "a refused TX start runs", ni_dma_busy_mask(), 0);
    ni_dma_clear_errors(0xffffu);
    check(65, ni_dma_errors() == 0 && !(ni_read(NI_DMA_STATUS) & NI_DMA_ERR), "DMA_ERROR cleared",
          ni_dma_errors(), 0);
    check(66, (ni_port_status(0) & NI_PS_TX_IDLE) != 0, "TX queue 0 not idle", ni_port_status(0), 0);

    /* a good worm along +x: head and info by the core, 40 words by the engine */
    for (uint32_t i = 0; i < 40; ++i)
        tx_words[0][i] = word_for(s.node, 0, i, 99);
    ni_tx_flit(0, ni_one_hop_head(0, 33));
    ni_tx_flit(0, NOC_INFO(s.node, 42));
    check(67, ni_dma_tx(0, tx_words[0], 40, 1) == NI_OK, "TX start", ni_dma_errors(), 0);

    /* RX on port 1 (from x-1): head and info by the core, then refused starts */
    check(70, wait_rx(1), "no worm on port 1", ni_rx_mask(), 2);
    uint32_t head = ni_rx_flit(1), info = ni_rx_flit(1);
    unsigned from = neighbour(1);
    check(71, head == NOC_HEAD(0, 0, 0, 0, 33) && info == NOC_INFO(from, 42), "head and info",
          head, NOC_HEAD(0, 0, 0, 0, 33));
    for (uint32_t i = 0; i < MAX_WORDS + 4; ++i)
        rx_words[1][i] = 0xdeadbeefu;
    ni_write(NI_RX_DMA_ADDR(1), ram_end);                 /* aliases to RAM word 0 */
    err = ni_dma_errors();
    check(72, err == NI_DMA_RX_BUSY(1), "RX address past the RAM: DMA_ERROR", err, NI_DMA_RX_BUSY(1));
    ni_write(NI_RX_DMA_COUNT(1), 40);
    check(73, (ni_dma_busy_mask() & NI_DMA_RX_BUSY(1)) == 0, "a refused RX start runs",
          ni_dma_busy_mask(), 0);   /* (TX engine 0 may still be sending its 40 words) */
    ni_dma_clear_errors(0xffffu);
    check(74, ni_dma_rx(1, (uint32_t *)(ram_end - 4u), 2) == NI_EDMA, "RX running past the RAM's end",
          0, 0);
    check(75, ni_dma_rx(1, (uint32_t *)(RVMESH_RAM_BASE + 1u), 1) == NI_EDMA, "RX misaligned", 0, 0);
    check(76, ni_dma_rx(1, (uint32_t *)0x20000000u, 1) == NI_EDMA, "RX into the NI's window", 0, 0);
    check(77, ni_dma_errors() == 0, "the driver cleared its error bits", ni_dma_errors(), 0);
    /* nothing written, nothing popped */
    check(78, ram0[0] == word0, "RAM word 0 (the alias) written", ram0[0], word0);
    check(79, wait_rx(1), "the worm's payload gone", ni_rx_mask(), 2);
    /* now the good start: 40 words, ending at the worm's end */
    check(80, ni_dma_rx(1, rx_words[1], 40) == NI_OK, "RX start", ni_dma_errors(), 0);
    uint32_t status = ni_dma_wait(NI_DMA_RX_BUSY(1) | NI_DMA_TX_BUSY(0));
    check(81, (status & NI_DMA_RX_ENDED(1)) != 0 && ni_dma_rx_left(1) == 0, "RX end", status,
          NI_DMA_RX_ENDED(1));
    for (uint32_t i = 0; i < 40; ++i)
        check(82, rx_words[1][i] == word_for(from, 0, i, 99), "RX word", rx_words[1][i],
              word_for(from, 0, i, 99));
    check(83, rx_words[1][40] == 0xdeadbeefu, "RX wrote past 40 words", rx_words[1][40], 0xdeadbeefu);
    check(84, ram0[0] == word0, "RAM word 0 written", ram0[0], word0);

    /* a start on a busy engine: port 3 (from y+1) gets nothing now, so its engine waits */
    check(90, ni_dma_rx(3, rx_words[3], 8) == NI_OK, "RX start on port 3", 0, 0);
    check(91, ni_dma_busy_mask() == NI_DMA_RX_BUSY(3), "a waiting engine is busy",
          ni_dma_busy_mask(), NI_DMA_RX_BUSY(3));
    check(92, ni_dma_rx(3, rx_words[2], 8) == NI_EDMA, "a start on a busy engine", 0, 0);
    check(93, ni_rx_mask() == 0, "RX_AVAIL shows a flit", ni_rx_mask(), 0);
    ni_dma_rx_stop(3);
    check(94, ni_dma_busy_mask() == 0 && ni_dma_errors() == 0, "stopping the engine",
          ni_read(NI_DMA_STATUS), 0);

    check(95, ni_refused_count() == 0 && ni_router_errors() == 0, "refused or router errors",
          ni_read(NI_REFUSED), 0);
    check(96, ni_wait_sent(0) == NI_OK, "the worm on port 0 refused", ni_errors(), 0);
    check(97, ni_rx_mask() == 0 && (ni_read(NI_TX_STATUS) >> 8 & 0xfu) == 0xfu, "queues not empty",
          ni_read(NI_TX_STATUS), 0xf00);
    if (s.node == 0)
        printf("dma_exchange: %u exchange rounds of 0..256 words, 9 refused starts: all as documented\n",
               round);
    return 0;
}
