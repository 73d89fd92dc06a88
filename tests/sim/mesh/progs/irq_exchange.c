/* SPDX-License-Identifier: ISC */
/* The link-port driver's interrupts (ni_irq_on, ni_irq_handle), on every node of a torus at
 * once: every node enables the RX interrupt of each of its 2d ports, sends one worm on each
 * port (two payload words: its node index and the port) and then only waits; the worms are
 * taken in by the interrupt handler, a piece at a time (ni_rx_poll: a node is interrupted
 * while it writes its own worms), and each is checked to come from the neighbour on that
 * port's side. Node 0 prints how long it took. Exit status 0
 * when all 2d worms came by interrupt and were right; else a check's number. */
#include <stdio.h>

#include "linkport.h"
#include "rvmesh_rt.h"

static struct ni_shape shape;
static volatile uint32_t received, wrong, interrupts;
static volatile uint32_t from_port[NI_MAX_PORTS];
static struct ni_rx rx[NI_MAX_PORTS];
static uint32_t payload[NI_MAX_PORTS][4];

/* the RX interrupt of a port: take what has come of the port's worm (never wait for the
 * rest: its sender may be in an interrupt itself, mid-worm) */
static void on_rx(unsigned port, void *arg)
{
    (void)arg;
    struct ni_rx *r = &rx[port];
    if (!ni_rx_poll(port, r))
        return;
    /* a worm arriving on port p travelled away from the neighbour on side p & 1: it sent it
     * on its port p ^ 1 */
    if (r->status != NI_OK || r->msg.n != 2 || r->msg.source != ni_neighbour(&shape, shape.node, port) ||
        payload[port][0] != r->msg.source || payload[port][1] != (port ^ 1u))
        wrong = wrong + 1;
    from_port[port] = from_port[port] + 1;
    received = received + 1;
    ni_rx_begin(r);
}

uint32_t rvmesh_trap(struct rvmesh_trap_frame *frame)
{
    (void)frame;
    uint32_t cause = RVMESH_CSR_READ(mcause);
    if (ni_irq_handle(cause)) {
        interrupts = interrupts + 1;
        return RVMESH_CSR_READ(mepc);
    }
    printf("unexpected trap: mcause %lu at 0x%08lx\n", (unsigned long)cause,
           (unsigned long)RVMESH_CSR_READ(mepc));
    rvmesh_exit(90);
}

int main(void)
{
    if (ni_init(&shape) != NI_OK || !shape.torus)
        return 2;
    const unsigned ports = shape.ports;
    if (ni_irq_on(1u << 24, on_rx, 0) != NI_EPORT)           /* bit 24 is no condition */
        return 3;
    if (ni_irq_on(NI_IRQ_RX(ports), on_rx, 0) != NI_EPORT)   /* a port this machine lacks */
        return 4;
    for (unsigned p = 0; p < ports; ++p) {
        rx[p].payload = payload[p];
        rx[p].max = 4;
        ni_rx_begin(&rx[p]);
    }
    if (ni_irq_on((1u << ports) - 1u, on_rx, 0) != NI_OK)
        return 5;
    const uint64_t start = rvmesh_cycles();
    for (unsigned p = 0; p < ports; ++p) {
        const uint32_t out[2] = {shape.node, p};
        ni_send(p, ni_one_hop_head(p, 0), out, 2);
    }
    while (received < ports && rvmesh_cycles() - start < 200000u)
        ;
    const uint64_t cycles = rvmesh_cycles() - start;
    ni_irq_off(0xffffffu);
    if (received != ports)
        return 6;
    if (wrong != 0)
        return 7;
    for (unsigned p = 0; p < ports; ++p)
        if (from_port[p] != 1)
            return 8;
    if (interrupts == 0 || ni_irq_pending() != 0)
        return 9;
    if (shape.node == 0)
        printf("%u worms received by interrupt (%lu interrupts) in %lu cycles\n", ports,
               (unsigned long)interrupts, (unsigned long)cycles);
    return 0;
}
