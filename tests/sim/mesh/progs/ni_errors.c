/* SPDX-License-Identifier: ISC */
/* The NI's error handling, on every node of a torus at once:
 *  - worms the router refuses at injection (a ring count |dx| >= n, no hop at all, a start
 *    dimension >= DIMS, dz != 0 in 2-D, and a long refused worm) set the port's ERROR bit,
 *    count in REFUSED and disturb nothing: a good worm sent afterwards arrives intact;
 *  - accesses the register map does not define fault (mcause 5/7, mtval = the address)
 *    instead of being ignored;
 *  - the RX interrupt: IRQ_ENABLE routes "a flit waits on port p" to the core's external
 *    interrupt, and IRQ_PENDING names the port.
 * Exits 0 when all is right, else the number of the failed check. */
#include <stdio.h>

#include "linkport.h"
#include "rvmesh_rt.h"

static volatile uint32_t trap_count, trap_cause, trap_tval, irq_pending;

uint32_t rvmesh_trap(struct rvmesh_trap_frame *frame)
{
    (void)frame;
    uint32_t cause = RVMESH_CSR_READ(mcause);
    if (cause == 0x8000000bu) {              /* external interrupt: the NI */
        irq_pending = ni_read(NI_IRQ_PENDING);
        ni_write(NI_IRQ_ENABLE, 0);          /* level-triggered: silence it */
        return RVMESH_CSR_READ(mepc);
    }
    trap_count = trap_count + 1;
    trap_cause = cause;
    trap_tval = RVMESH_CSR_READ(mtval);
    return RVMESH_CSR_READ(mepc) + 4;       /* skip the faulting access (no C extension) */
}

static void check(unsigned code, int ok, const char *what, uint32_t got)
{
    if (!ok) {
        printf("FAIL check %u: %s (0x%08lx)\n", code, what, (unsigned long)got);
        rvmesh_exit(code);
    }
}

/* one access that must fault with `cause` at `addr` */
static void expect_fault(unsigned code, uint32_t cause, uint32_t addr, int store, int byte)
{
    uint32_t before = trap_count;
    if (store && byte)
        *(volatile uint8_t *)addr = 1;
    else if (store)
        *(volatile uint32_t *)addr = 1;
    else
        (void)*(volatile uint32_t *)addr;
    check(code, trap_count == before + 1, "the access did not fault exactly once", trap_count - before);
    check(code, trap_cause == cause, "wrong mcause", trap_cause);
    check(code, trap_tval == addr, "wrong mtval", trap_tval);
}

static int refused(unsigned port, uint32_t head, uint32_t payload_words)
{
    static const uint32_t words[32] = {0};
    ni_send(port, head, words, payload_words);
    return ni_wait_sent(port) == NI_EREFUSED;
}

int main(void)
{
    struct ni_shape s;
    check(1, ni_init(&s) == NI_OK, "NI version", ni_read(NI_VERSION));
    check(2, s.torus && s.dims == 2 && s.size[0] >= 2, "this test wants a 2-D torus", s.torus);
    check(3, ni_errors() == 0 && ni_refused_count() == 0, "errors at reset", ni_read(NI_ERROR));

    /* refused worms */
    int n = s.size[0];
    check(10, refused(0, NOC_HEAD(n, 0, 0, 0, 1), 0), "|dx| = n not refused", ni_errors());
    check(11, ni_errors() == 0, "ni_wait_sent did not clear the bit", ni_errors());
    check(12, refused(1, NOC_HEAD(-n, 0, 0, 0, 1), 3), "dx = -n not refused", ni_errors());
    check(13, refused(2, NOC_HEAD(0, 0, 0, 1, 1), 1), "no hop not refused", ni_errors());
    check(14, refused(3, NOC_HEAD(0, 1, 0, 2, 1), 1), "start dimension 2 in 2-D not refused", 0);
    check(15, refused(2, NOC_HEAD(0, 1, 1, 1, 1), 1), "dz != 0 in 2-D not refused", 0);
    check(16, refused(0, NOC_HEAD(n + 3, 0, 0, 0, 1), 30), "a long worm not refused", 0);
    check(17, ni_refused_count() == 6, "REFUSED count", ni_refused_count());
    /* the sticky bit without the driver: set, visible, cleared by writing 1 */
    ni_tx_last(1, NOC_HEAD(0, 0, 0, 0, 1));
    while (!(ni_read(NI_TX_STATUS) & (1u << (8 + 1))))
        ;
    check(18, ni_errors() == 2u, "ERROR bit of port 1", ni_errors());
    ni_clear_errors(1u);
    check(19, ni_errors() == 2u, "clearing port 0 cleared port 1", ni_errors());
    ni_clear_errors(2u);
    check(20, ni_errors() == 0, "ERROR not cleared", ni_errors());

    /* a good worm after the refused ones: n-1 hops along +x arrives at x-1 on port 1
     * (its last hop came in over the - side); this node receives x+1's on port 1 */
    uint32_t words[5] = {s.node, 0x11111111u * s.node, 3, 4, 0xfeedf00du};
    check(30, ni_send(0, NOC_HEAD(n - 1, 0, 0, 0, 7), words, 5) == NI_OK, "send", 0);
    struct ni_msg msg;
    uint32_t got[8];
    int rc = ni_recv(1, &msg, got, 8);
    unsigned from = (s.coord[0] + 1u) % s.size[0] + s.size[0] * s.coord[1];
    check(31, rc == NI_OK, "ni_recv status", (uint32_t)rc);
    check(32, msg.source == from && msg.n == 5, "source or length", msg.source);
    check(33, msg.head == NOC_HEAD(0, 0, 0, 0, 7), "head", msg.head);
    check(34, got[0] == from && got[1] == 0x11111111u * from && got[4] == 0xfeedf00du, "payload", got[0]);
    check(35, ni_wait_sent(0) == NI_OK, "the good worm refused", ni_errors());
    check(36, ni_router_errors() == 0, "router err_count", ni_router_errors());

    /* accesses outside the map fault */
    expect_fault(40, 7, NI_BASE + NI_TX_DATA(0), 1, 1);           /* byte store */
    expect_fault(41, 5, NI_BASE + NI_TX_DATA(0), 0, 0);           /* load of a write-only */
    expect_fault(42, 7, NI_BASE + NI_VERSION, 1, 0);              /* store to read-only */
    expect_fault(43, 7, NI_BASE + NI_TX_DATA(s.ports), 1, 0);     /* no such port */
    expect_fault(44, 5, NI_BASE + NI_RX_DATA(s.ports), 0, 0);
    expect_fault(45, 5, NI_BASE + 0x300u, 0, 0);                  /* unmapped offset */
    expect_fault(46, 5, NI_BASE + 0x1000u, 0, 0);                 /* beyond the window */
    expect_fault(47, 7, 0x2ffffff0u, 1, 0);
    check(48, ni_errors() == 0 && ni_refused_count() == 7, "a faulting access had an effect", ni_read(NI_REFUSED));

    /* RX interrupt on port 1: x-1 sends us one hop along +x */
    ni_write(NI_IRQ_ENABLE, 2u);
    check(50, ni_read(NI_IRQ_ENABLE) == 2u, "IRQ_ENABLE reads back", ni_read(NI_IRQ_ENABLE));
    __asm__ volatile("csrs mie, %0" ::"r"(1u << 11));
    __asm__ volatile("csrs mstatus, %0" ::"r"(1u << 3));
    ni_send(0, NOC_HEAD(1, 0, 0, 0, 9), words, 1);
    uint64_t start = rvmesh_cycles();
    while (irq_pending == 0 && rvmesh_cycles() - start < 10000)
        ;
    __asm__ volatile("csrc mstatus, %0" ::"r"(1u << 3));
    check(51, irq_pending == 2u, "no interrupt, or IRQ_PENDING not port 1", irq_pending);
    check(52, ni_recv(1, &msg, got, 8) == NI_OK && msg.n == 1, "the interrupting worm", msg.n);
    check(53, ni_read(NI_IRQ_PENDING) == 0, "IRQ_PENDING after the interrupt", ni_read(NI_IRQ_PENDING));
    if (s.node == 0)
        printf("ni_errors: 6 refused worms, 8 faulting accesses, 1 interrupt: all as documented\n");
    return 0;
}
