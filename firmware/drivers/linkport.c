/* SPDX-License-Identifier: ISC */
/* rvmesh link-port driver: see linkport.h and rtl/tile/README.md. */
#include "linkport.h"

unsigned ni_version(void)
{
    uint32_t v = ni_read(NI_VERSION);
    return v == NI_VERSION_1 ? 1u : v == NI_VERSION_2 ? 2u : v == NI_VERSION_3 ? 3u : 0u;
}

int ni_init(struct ni_shape *shape)
{
    if (ni_version() == 0)
        return NI_EVERSION;
    uint32_t coord = ni_read(NI_COORD), sizes = ni_read(NI_SHAPE), node = ni_read(NI_NODE);
    shape->dims = (uint8_t)((sizes >> 24) & 15u);
    shape->torus = (uint8_t)((sizes >> 28) & 1u);
    shape->ports = (uint8_t)(2u * shape->dims);
    for (unsigned d = 0; d < 3; ++d) {
        shape->size[d] = (uint8_t)(sizes >> (8 * d));
        shape->coord[d] = (uint8_t)(coord >> (8 * d));
    }
    shape->node = (uint16_t)node;
    shape->nodes = (uint16_t)(node >> 16);
    return NI_OK;
}

unsigned ni_node(void) { return ni_read(NI_NODE) & 0xffffu; }
unsigned ni_nodes(void) { return ni_read(NI_NODE) >> 16; }
unsigned ni_coord(unsigned dim) { return dim < 3 ? (ni_read(NI_COORD) >> (8 * dim)) & 0xffu : 0u; }
unsigned ni_size(unsigned dim) { return dim < 3 ? (ni_read(NI_SHAPE) >> (8 * dim)) & 0xffu : 1u; }
unsigned ni_dims(void) { return (ni_read(NI_SHAPE) >> 24) & 15u; }
unsigned ni_torus(void) { return (ni_read(NI_SHAPE) >> 28) & 1u; }
unsigned ni_ports(void) { return ni_read(NI_PORTS) & 0xffu; }

uint32_t ni_neighbour(const struct ni_shape *shape, uint32_t node, unsigned port)
{
    if (port >= shape->ports || node >= shape->nodes)
        return NI_NO_NODE;
    uint32_t c[3] = {node % shape->size[0], (node / shape->size[0]) % shape->size[1],
                     node / ((uint32_t)shape->size[0] * shape->size[1])};
    const unsigned d = port / 2u;
    const uint32_t side = shape->size[d];
    if (!shape->torus && (port & 1u ? c[d] == 0 : c[d] + 1u == side))
        return NI_NO_NODE;
    c[d] = (c[d] + (port & 1u ? side - 1u : 1u)) % side;
    return c[0] + shape->size[0] * (c[1] + shape->size[1] * c[2]);
}

int ni_send(unsigned port, uint32_t head, const uint32_t *payload, uint32_t n)
{
    if (port >= ni_ports())
        return NI_EPORT;
    ni_tx_flit(port, head);
    uint32_t info = NOC_INFO(ni_node(), n + 2u);
    if (n == 0) {
        ni_tx_last(port, info);
        return NI_OK;
    }
    ni_tx_flit(port, info);
    for (uint32_t i = 0; i + 1 < n; ++i)
        ni_tx_flit(port, payload[i]);
    ni_tx_last(port, payload[n - 1]);
    return NI_OK;
}

int ni_wait_sent(unsigned port)
{
    if (port >= ni_ports())
        return NI_EPORT;
    while (!(ni_port_status(port) & NI_PS_TX_IDLE))
        ;
    if (ni_errors() & (1u << port)) {
        ni_clear_errors(1u << port);
        return NI_EREFUSED;
    }
    return NI_OK;
}

/* waits for a flit on `port` and returns its PORT_STATUS */
static uint32_t wait_flit(unsigned port)
{
    uint32_t status;
    while (!((status = ni_port_status(port)) & NI_PS_RX_VALID))
        ;
    return status;
}

/* reads and drops flits up to and including a worm's last one */
static void drain_worm(unsigned port)
{
    for (;;) {
        uint32_t status = wait_flit(port);
        (void)ni_rx_flit(port);
        if (status & NI_PS_RX_LAST)
            return;
    }
}

int ni_recv(unsigned port, struct ni_msg *msg, uint32_t *payload, uint32_t max)
{
    if (port >= ni_ports())
        return NI_EPORT;
    uint32_t status = wait_flit(port);
    if (!(status & NI_PS_RX_HEAD))
        return NI_ESYNC;
    msg->head = ni_rx_flit(port);
    msg->source = 0;
    msg->n = 0;
    if (status & NI_PS_RX_LAST)
        return NI_ELENGTH;                   /* a one-flit worm: no info flit */
    status = wait_flit(port);
    uint32_t info = ni_rx_flit(port);
    uint32_t flits = NOC_INFO_FLITS(info);
    msg->source = NOC_INFO_SOURCE(info);
    if (flits < 2u || ((status & NI_PS_RX_LAST) != 0) != (flits == 2u)) {
        if (!(status & NI_PS_RX_LAST))
            drain_worm(port);
        return NI_ELENGTH;
    }
    uint32_t n = flits - 2u;
    msg->n = n;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        uint32_t word = ni_rx_flit(port);
        if (i < max)
            payload[i] = word;
    }
    if (n > 0) {
        status = wait_flit(port);
        uint32_t word = ni_rx_flit(port);
        if (n - 1 < max)
            payload[n - 1] = word;
        if (!(status & NI_PS_RX_LAST)) {
            drain_worm(port);
            return NI_ELENGTH;
        }
    }
    return n > max ? NI_ETOOLONG : NI_OK;
}

int ni_poll_any(void)
{
    uint32_t mask = ni_rx_mask();
    if (!mask)
        return -1;
    return __builtin_ctz(mask);
}

/* one flit of the worm tx: 0 head, 1 info, 2.. payload */
static uint32_t tx_flit_at(const struct ni_tx *tx, uint32_t i, uint32_t node)
{
    if (i == 0)
        return tx->head;
    if (i == 1)
        return NOC_INFO(node, tx->n + 2u);
    return tx->payload[i - 2u];
}

/* start an engine: write its address and count, then check that the NI took it */
static int dma_start(uint32_t addr_reg, uint32_t addr, uint32_t count_reg, uint32_t count,
                     uint32_t error_bit)
{
    ni_write(addr_reg, addr);
    ni_write(count_reg, count);
    if (ni_read(NI_DMA_ERROR) & error_bit) {
        ni_dma_clear_errors(error_bit);
        return NI_EDMA;
    }
    return NI_OK;
}

static int dma_tx_start(unsigned port, const uint32_t *src, uint32_t words, int last)
{
    return dma_start(NI_TX_DMA_ADDR(port), (uint32_t)(uintptr_t)src, NI_TX_DMA_COUNT(port),
                     words | (last ? NI_DMA_LAST : 0u), NI_DMA_TX_BUSY(port));
}

static int dma_rx_start(unsigned port, uint32_t *dst, uint32_t words)
{
    return dma_start(NI_RX_DMA_ADDR(port), (uint32_t)(uintptr_t)dst, NI_RX_DMA_COUNT(port),
                     words, NI_DMA_RX_BUSY(port));
}

int ni_dma_tx(unsigned port, const uint32_t *src, uint32_t words, int last)
{
    if (!ni_has_dma())
        return NI_EVERSION;
    if (port >= ni_ports())
        return NI_EPORT;
    return dma_tx_start(port, src, words, last);
}

int ni_dma_rx(unsigned port, uint32_t *dst, uint32_t words)
{
    if (!ni_has_dma())
        return NI_EVERSION;
    if (port >= ni_ports())
        return NI_EPORT;
    return dma_rx_start(port, dst, words);
}

uint32_t ni_dma_wait(uint32_t mask)
{
    uint32_t status;
    while ((status = ni_read(NI_DMA_STATUS)) & mask)
        ;
    return status;
}

/* One flit of the worm being read into r from `port` (one is waiting): its head, its info
 * flit (with use_dma, then the payload goes to the port's RX engine), or a payload word;
 * every flit is checked against the info flit's length. RX_ENDED after the worm's last
 * flit (r->status says whether it was well-formed), RX_DMA_STARTED when the engine took
 * the payload over, else RX_MORE. */
enum { RX_MORE, RX_ENDED, RX_DMA_STARTED };
static inline __attribute__((always_inline)) int rx_flit(unsigned p, struct ni_rx *r, const int use_dma)
{
    uint32_t i = r->done++;
    if (r->status == NI_OK && i >= 2u && i + 1u < r->msg.n + 2u) {
        /* a payload flit that is not the last: no status needed */
        uint32_t word = ni_rx_flit(p);
        if (i - 2u < r->max)
            r->payload[i - 2u] = word;
        return RX_MORE;
    }
    uint32_t status = ni_port_status(p);
    uint32_t word = ni_rx_flit(p);
    int last = (status & NI_PS_RX_LAST) != 0;
    if (i == 0) {
        r->msg.head = word;
        if (!(status & NI_PS_RX_HEAD))
            r->status = NI_ESYNC;
        if (last) {
            if (r->status == NI_OK)
                r->status = NI_ELENGTH;
            return RX_ENDED;
        }
        return RX_MORE;
    }
    if (i == 1) {
        r->msg.source = NOC_INFO_SOURCE(word);
        uint32_t flits = NOC_INFO_FLITS(word);
        r->msg.n = flits >= 2u ? flits - 2u : 0u;
        if (flits < 2u || last != (flits == 2u)) {
            if (r->status == NI_OK)
                r->status = NI_ELENGTH;   /* every flit now checked until the last */
        } else if (use_dma && !last && r->status == NI_OK && r->max > 0u &&
                   dma_rx_start(p, r->payload, r->msg.n < r->max ? r->msg.n : r->max) == NI_OK) {
            return RX_DMA_STARTED;
        }
    } else if (i - 2u < r->max) {
        r->payload[i - 2u] = word;
    }
    if (last) {
        if (i >= 2u && i != r->msg.n + 1u && r->status == NI_OK)
            r->status = NI_ELENGTH;
        if (r->msg.n > r->max && r->status == NI_OK)
            r->status = NI_ETOOLONG;
        return RX_ENDED;
    }
    if (i >= 2u && r->status == NI_OK)
        r->status = NI_ELENGTH;   /* the info flit promised this was the last flit */
    return RX_MORE;
}

void ni_rx_begin(struct ni_rx *rx)
{
    rx->done = 0;
    rx->status = NI_OK;
    rx->msg.head = rx->msg.source = rx->msg.n = 0;
}

int ni_rx_poll(unsigned port, struct ni_rx *rx)
{
    if (port >= ni_ports()) {
        rx->status = NI_EPORT;
        return 1;
    }
    while (ni_port_status(port) & NI_PS_RX_VALID)
        if (rx_flit(port, rx, 0) == RX_ENDED)
            return 1;
    return 0;
}

/* The exchange: per port, every flit by the core (use_dma = 0), or the head and info flit
 * by the core and the payload by the port's DMA engine. Ports whose engine runs are in
 * tx_dma / rx_dma; the NI shows them as not ready, and the loop leaves them alone until
 * the engine is idle. An RX engine moves min(n, max) words and stops early at a worm's
 * last flit; whatever is left (a worm longer than the buffer, or than its info flit said)
 * goes through the per-flit path, which also does all the checking. */
static inline __attribute__((always_inline)) int
exchange(struct ni_tx *const *tx, struct ni_rx *const *rx, const int use_dma)
{
    const unsigned ports = ni_ports();
    const uint32_t node = ni_node();
    uint32_t tx_left = 0, rx_left = 0;      /* masks of ports with work to do */
    uint32_t tx_dma = 0, rx_dma = 0;        /* ... whose engine runs */
    for (unsigned p = 0; p < ports; ++p) {
        if (tx[p]) {
            tx[p]->done = 0;
            tx_left |= 1u << p;
        }
        if (rx[p]) {
            ni_rx_begin(rx[p]);
            rx_left |= 1u << p;
        }
    }
    while (tx_left | rx_left) {
        if (tx_dma | rx_dma) {
            uint32_t dma = ni_read(NI_DMA_STATUS);
            uint32_t tx_done = tx_dma & ~dma;
            uint32_t rx_done = rx_dma & ~(dma >> 8);
            tx_dma &= ~tx_done;
            tx_left &= ~tx_done;            /* the engine sent the payload's last flit */
            rx_dma &= ~rx_done;
            while (rx_done) {
                unsigned p = (unsigned)__builtin_ctz(rx_done);
                rx_done &= rx_done - 1u;
                struct ni_rx *r = rx[p];
                uint32_t want = r->msg.n < r->max ? r->msg.n : r->max;
                uint32_t moved = want - ni_dma_rx_left(p);
                r->done = 2u + moved;
                if (dma & NI_DMA_RX_ENDED(p)) {   /* the worm's last flit was word `moved` */
                    if (moved != r->msg.n)
                        r->status = NI_ELENGTH;
                    rx_left &= ~(1u << p);
                }   /* else: the rest of the worm flit by flit, as below */
            }
        }
        uint32_t tx_status = ni_read(NI_TX_STATUS);
        uint32_t ready = tx_status & tx_left & ~tx_dma;
        while (ready) {
            unsigned p = (unsigned)__builtin_ctz(ready);
            ready &= ready - 1u;
            struct ni_tx *t = tx[p];
            uint32_t total = t->n + 2u;
            if (use_dma && t->done == 0 && t->n > 0 && (tx_status >> (8u + p) & 1u)) {
                /* an empty queue (TX idle) takes head and info at once (depth >= 2) */
                ni_tx_flit(p, t->head);
                ni_tx_flit(p, NOC_INFO(node, total));
                t->done = 2;
                if (dma_tx_start(p, t->payload, t->n, 1) == NI_OK) {
                    t->done = total;
                    tx_dma |= 1u << p;
                }
                continue;
            }
            uint32_t flit = tx_flit_at(t, t->done, node);
            if (++t->done == total) {
                ni_tx_last(p, flit);
                tx_left &= ~(1u << p);
            } else {
                ni_tx_flit(p, flit);
                if (use_dma && t->done == 2u &&
                    dma_tx_start(p, t->payload, t->n, 1) == NI_OK) {
                    t->done = total;
                    tx_dma |= 1u << p;
                }
            }
        }
        uint32_t avail = ni_rx_mask() & rx_left & ~rx_dma;
        while (avail) {
            unsigned p = (unsigned)__builtin_ctz(avail);
            avail &= avail - 1u;
            const int got = rx_flit(p, rx[p], use_dma);
            if (got == RX_ENDED)
                rx_left &= ~(1u << p);
            else if (got == RX_DMA_STARTED)
                rx_dma |= 1u << p;   /* the payload by the engine */
        }
    }
    for (unsigned p = 0; p < ports; ++p)
        if (rx[p] && rx[p]->status != NI_OK)
            return rx[p]->status;
    return NI_OK;
}

/* the two variants, each compiled with use_dma constant (no DMA tests in the PIO loop) */
static int exchange_dma(struct ni_tx *const *tx, struct ni_rx *const *rx)
{
    return exchange(tx, rx, 1);
}

int ni_exchange_pio(struct ni_tx *const *tx, struct ni_rx *const *rx)
{
    return exchange(tx, rx, 0);
}

int ni_exchange(struct ni_tx *const *tx, struct ni_rx *const *rx)
{
    /* DMA needs version 2; its head-and-info shortcut a TX queue of 2 flits or more */
    if (ni_has_dma() && ((ni_read(NI_PORTS) >> 16) & 0xffu) >= 2u)
        return exchange_dma(tx, rx);
    return ni_exchange_pio(tx, rx);
}

/* ---- interrupts ---- */
#define NI_IRQ_BITS 24u   /* IRQ_ENABLE: three groups of 8 bits, bit k % 8 is the port */
static ni_irq_handler irq_fn[NI_IRQ_BITS];
static void *irq_arg[NI_IRQ_BITS];

int ni_irq_on(uint32_t mask, ni_irq_handler fn, void *arg)
{
    if (ni_version() == 0)
        return NI_EVERSION;
    const uint32_t ports = ni_ports(), port_bits = (1u << ports) - 1u;
    const uint32_t legal = port_bits | port_bits << 8 | port_bits << 16;
    if ((mask & ~legal) != 0)
        return NI_EPORT;
    for (unsigned k = 0; k < NI_IRQ_BITS; ++k)
        if (mask & (1u << k)) {
            irq_fn[k] = fn;
            irq_arg[k] = arg;
        }
    ni_write(NI_IRQ_ENABLE, ni_read(NI_IRQ_ENABLE) | mask);
    __asm__ volatile("csrs mie, %0" ::"r"(1u << 11));      /* MEIE */
    __asm__ volatile("csrsi mstatus, 8");                  /* MIE */
    return NI_OK;
}

void ni_irq_off(uint32_t mask) { ni_write(NI_IRQ_ENABLE, ni_read(NI_IRQ_ENABLE) & ~mask); }

int ni_irq_handle(uint32_t mcause)
{
    if (mcause != NI_MCAUSE_IRQ)
        return 0;
    uint32_t pending = ni_irq_pending();
    for (unsigned k = 0; pending; ++k, pending >>= 1) {
        if (!(pending & 1u))
            continue;
        if (irq_fn[k])
            irq_fn[k](k % 8u, irq_arg[k]);
        else
            ni_irq_off(1u << k);                              /* nobody to remove it */
    }
    return 1;
}

int ni_window(unsigned w, const void *base, uint32_t words)
{
    if (w >= NI_WINDOWS)
        return NI_EPORT;
    ni_plan_clear_errors(NI_PERR_WINDOW);
    if (words)   /* a base write closes the window; a closed one needs no base */
        NI_REG(NI_WIN_BASE(w)) = (uint32_t)(uintptr_t)base;
    NI_REG(NI_WIN_WORDS(w)) = words;
    if (ni_plan_errors() & NI_PERR_WINDOW) {
        ni_plan_clear_errors(NI_PERR_WINDOW);
        return NI_EDMA;
    }
    return NI_OK;
}

int ni_plan_list(unsigned port, const struct ni_desc *list, uint32_t n)
{
    if (port > ni_ports())   /* the ports, and the local one (number ni_ports()) */
        return NI_EPORT;
    ni_plan_clear_errors(NI_PERR_TXQ);
    NI_REG(NI_TXQ_ADDR(port)) = (uint32_t)(uintptr_t)list;
    NI_REG(NI_TXQ_COUNT(port)) = n;
    if (ni_plan_errors() & NI_PERR_TXQ) {
        ni_plan_clear_errors(NI_PERR_TXQ);
        return NI_EDMA;
    }
    return NI_OK;
}
