/* SPDX-License-Identifier: ISC */
/* rvmesh link-port driver: the network interface (NI) of a tile as 2d transmit and 2d
 * receive ports. The register map is defined in rtl/tile/README.md; the flit and packet
 * format in rtl/README.md ("Flit and packet format").
 *
 * Ports: port k = 2*d + s faces the neighbour in dimension d (0 = x, 1 = y, 2 = z) on the
 * + side (s = 0) or the - side (s = 1). A worm written on port p leaves by link p when its
 * first hop goes that way (the convention; see ni_port_for); a worm read from port p came
 * in over link p, i.e. from the neighbour on side s of dimension d.
 *
 * A worm as this driver writes and reads it: head (NOC_HEAD), info (NOC_INFO: source node,
 * length in flits), then the payload words. No allocation. The calls poll; a program may
 * also take the NI's interrupts (ni_irq_on, ni_irq_handle; ni_rx_poll reads a worm a piece
 * at a time in a handler). Blocking calls wait in the NI (the core stalls on a full TX or
 * empty RX queue); ni_exchange never does, so it is safe when all nodes send at once.
 *
 * DMA (NI version 2): every port has a TX engine (RAM -> TX queue) and an RX engine
 * (RX queue -> RAM). The core writes a worm's head and info flit and reads them on
 * arrival; the payload is handed to the engines (ni_dma_tx, ni_dma_rx), which run on
 * all ports at once while the core goes on. ni_exchange uses them when the NI has them.
 */
#ifndef RVMESH_LINKPORT_H
#define RVMESH_LINKPORT_H

#include <stdint.h>

/* ---- the packet format (rtl/README.md) ---- */
#define NOC_HEAD(dx, dy, dz, start, tag)                                            \
    ((uint32_t)(uint8_t)(int8_t)(dx) | (uint32_t)(uint8_t)(int8_t)(dy) << 8 |        \
     (uint32_t)(uint8_t)(int8_t)(dz) << 16 | (uint32_t)((start) & 3u) << 24 |        \
     (uint32_t)((tag) & 63u) << 26)
#define NOC_INFO(source, worm_flits) ((uint32_t)((source) & 0xffffu) | (uint32_t)(worm_flits) << 16)
#define NOC_HEAD_COUNT(head, dim) ((int8_t)(uint8_t)((head) >> (8 * (dim))))
#define NOC_HEAD_START(head) (((head) >> 24) & 3u)
#define NOC_HEAD_TAG(head) ((head) >> 26)
#define NOC_INFO_SOURCE(info) ((info) & 0xffffu)
#define NOC_INFO_FLITS(info) ((info) >> 16)

/* ---- the NI register map (rtl/tile/README.md) ---- */
#define NI_BASE 0x20000000u
#define NI_VERSION 0x000u
#define NI_COORD 0x004u
#define NI_SHAPE 0x008u
#define NI_NODE 0x00cu
#define NI_PORTS 0x010u
#define NI_RX_AVAIL 0x014u
#define NI_TX_STATUS 0x018u
#define NI_ERROR 0x01cu
#define NI_REFUSED 0x020u
#define NI_IRQ_ENABLE 0x024u
#define NI_IRQ_PENDING 0x028u
#define NI_TX_DATA(p) (0x100u + 0x10u * (uint32_t)(p))
#define NI_TX_LAST(p) (0x104u + 0x10u * (uint32_t)(p))
#define NI_RX_DATA(p) (0x108u + 0x10u * (uint32_t)(p))
#define NI_PORT_STATUS(p) (0x10cu + 0x10u * (uint32_t)(p))
#define NI_DMA_STATUS 0x02cu
#define NI_DMA_ERROR 0x030u
#define NI_TX_DMA_ADDR(p) (0x800u + 0x20u * (uint32_t)(p))
#define NI_TX_DMA_COUNT(p) (0x804u + 0x20u * (uint32_t)(p))
#define NI_RX_DMA_ADDR(p) (0x808u + 0x20u * (uint32_t)(p))
#define NI_RX_DMA_COUNT(p) (0x80cu + 0x20u * (uint32_t)(p))
/* version 3: plans (rtl/tile/README.md, "Plans") */
#define NI_EPOCH 0x034u
#define NI_RX_MODE 0x038u
#define NI_PLAN_STATUS 0x03cu
#define NI_PLAN_ERROR 0x040u
#define NI_PLAN_ERR_INFO 0x044u
#define NI_LINE 0x048u
#define NI_CNT(c) (0x080u + 4u * (uint32_t)(c))
#define NI_CNT_TARGET(c) (0x0c0u + 4u * (uint32_t)(c))
#define NI_CNT_SUB(c) (0x600u + 4u * (uint32_t)(c))
/* the links' counters of port p (read-only): [15:0] words the receiving end of input link p
 * refused (damaged, out of sequence), [31:16] flits the sending end of output link p sent
 * again; both 0 on links without protection */
#define NI_LINK_STATUS(p) (0x700u + 4u * (uint32_t)(p))
#define NI_WIN_BASE(w) (0x900u + 8u * (uint32_t)(w))
#define NI_WIN_WORDS(w) (0x904u + 8u * (uint32_t)(w))
#define NI_TXQ_ADDR(p) (0xa00u + 0x10u * (uint32_t)(p))
#define NI_TXQ_COUNT(p) (0xa04u + 0x10u * (uint32_t)(p))
#define NI_TXQ_DONE(p) (0xa08u + 0x10u * (uint32_t)(p))
#define NI_VERSION_1 0x4e490001u
#define NI_VERSION_2 0x4e490002u /* version 1 + the DMA engines */
#define NI_VERSION_3 0x4e490003u /* version 2 + plans (descriptor lists, counters, puts) */

/* PORT_STATUS bits */
#define NI_PS_RX_VALID (1u << 0)
#define NI_PS_RX_HEAD (1u << 1)
#define NI_PS_RX_LAST (1u << 2)
#define NI_PS_TX_READY (1u << 8)
#define NI_PS_TX_IDLE (1u << 9)

/* DMA_STATUS bits; bit p of ni_dma_busy_mask() is TX engine p, bit 8 + p RX engine p */
#define NI_DMA_TX_BUSY(p) (1u << (p))
#define NI_DMA_RX_BUSY(p) (1u << (8u + (p)))
#define NI_DMA_RX_ENDED(p) (1u << (16u + (p))) /* RX engine p stopped after a worm's last flit */
#define NI_DMA_ERR (1u << 31)                  /* some bit of DMA_ERROR is set */
/* TX_DMA_COUNT: bit 31 marks the engine's last word as the worm's last flit */
#define NI_DMA_LAST (1u << 31)
/* IRQ_ENABLE / IRQ_PENDING: [7:0] RX flit waiting, [15:8] TX engine idle, [23:16] RX engine idle */
#define NI_IRQ_RX(p) (1u << (p))
#define NI_IRQ_TX_DMA(p) (1u << (8u + (p)))
#define NI_IRQ_RX_DMA(p) (1u << (16u + (p)))

#define NI_MAX_PORTS 6

/* ---- plans (NI version 3) ----
 * A send descriptor: 16 bytes, 16-byte aligned, in RAM; a plan's list of a port is an array
 * of them that the port's TX engine runs in order (NI_TXQ_ADDR, NI_TXQ_COUNT). */
struct ni_desc {
    uint32_t head;      /* the worm's head (NOC_HEAD) */
    uint32_t payload;   /* [15:0] payload word index in RAM ((address - RAM_BASE) / 4); [31:16] words */
    uint32_t trigger;   /* [15:0] threshold, [19:16] counter, [20] wait for counter >= threshold */
    uint32_t put;       /* the put flit (NI_PUT / NI_SIGNAL; the NI fills in the epoch) */
};
#define NI_DESC_PAYLOAD(word_index, words) ((uint32_t)(word_index) | (uint32_t)(words) << 16)
#define NI_TRIGGER(counter, threshold) ((1u << 20) | (uint32_t)((counter) & 15u) << 16 | ((threshold) & 0xffffu))
/* with a trigger: paced, line j of the payload is read only once the counter reaches
 * threshold + j (a relay that follows a piece counted by lines as it arrives; NIs with lines
 * of 4 words or more, ni_line_words()) */
#define NI_PACED (1u << 21)
#define NI_NO_TRIGGER 0u
/* the put flit: write the payload at word `offset` of window `win` of the receiver, then
 * count the worm on its counter `counter`; a signal only counts (no payload) */
#define NI_PUT(win, offset, counter) \
    ((uint32_t)((offset) & 0xffffu) | (uint32_t)((win) & 3u) << 16 | (uint32_t)((counter) & 15u) << 18)
#define NI_SIGNAL(counter) ((uint32_t)((counter) & 15u) << 18 | 1u << 28)
/* or'ed into a put: its receiver counts it a line at a time, 1 for each RAM line of it
 * written, as it is written (1 for a put with no payload), not once at its end */
#define NI_PUT_LINES (1u << 26)
#define NI_PUT_EPOCH(put) (((put) >> 22) & 15u)
/* or'ed into a put (NIs with ni_has_combine()): a combining put, its words combined with the
 * receiver's words in RAM instead of written over them, at the receiver's RAM port (lines
 * that several ports combine into at once all count): NI_COMBINE_SUM (mod 2**32), AND, OR,
 * XOR, MIN / MAX of int32, MINU / MAXU of uint32 */
#define NI_COMBINE_SUM (2u << 28)
#define NI_COMBINE_AND (3u << 28)
#define NI_COMBINE_OR (4u << 28)
#define NI_COMBINE_XOR (5u << 28)
#define NI_COMBINE_MIN (6u << 28)
#define NI_COMBINE_MAX (7u << 28)
#define NI_COMBINE_MINU (8u << 28)
#define NI_COMBINE_MAXU (9u << 28)
#define NI_COUNTERS 16
#define NI_WINDOWS 4
/* PLAN_STATUS bits */
#define NI_PLAN_TX_BUSY(p) (1u << (p))
#define NI_PLAN_RX_BUSY(p) (1u << (8u + (p)))
#define NI_PLAN_TARGETS_MET (1u << 16)
#define NI_PLAN_DONE (1u << 17)
#define NI_PLAN_ERR (1u << 31)
/* PLAN_ERROR bits (write 1s to clear) */
#define NI_PERR_DESC(p) (1u << (p))           /* a descriptor of port p's list was refused */
#define NI_PERR_UNEXPECTED(p) (1u << (8u + (p))) /* a worm on port p fit no window or epoch */
#define NI_PERR_MALFORMED(p) (1u << (16u + (p)))  /* a worm on port p of the wrong length */
#define NI_PERR_OVERFLOW (1u << 24)            /* a counter passed 0xffff */
#define NI_PERR_WINDOW (1u << 25)              /* a window write refused (outside RAM) */
#define NI_PERR_TXQ (1u << 26)                 /* a list start or TXQ_ADDR write refused */
#define NI_PERR_REFUSED (1u << 27)             /* the router refused a descriptor's worm */
/* PLAN_ERR_INFO: [15:0] source and [19:16] port of the last refused worm, [21:20] 1
 * unexpected / 2 malformed; [27:24] port and [29:28] reason of the last refused descriptor
 * (1 payload outside RAM, 2 length, 3 reserved bits) */
#define NI_ERRINFO_SOURCE(i) ((i) & 0xffffu)
#define NI_ERRINFO_PORT(i) (((i) >> 16) & 15u)
#define NI_ERRINFO_KIND(i) (((i) >> 20) & 3u)
#define NI_ERRINFO_TX_PORT(i) (((i) >> 24) & 15u)
#define NI_ERRINFO_TX_REASON(i) (((i) >> 28) & 3u)
#define NI_IRQ_PLAN_DONE (1u << 24)
#define NI_IRQ_PLAN_ERROR (1u << 25)

#define NI_REG(offset) (*(volatile uint32_t *)(NI_BASE + (offset)))

/* Return codes (negative: error) */
#define NI_OK 0
#define NI_EPORT (-1)    /* port >= 2*DIMS */
#define NI_ESYNC (-2)    /* the flit at the front of the RX queue is not a worm's head */
#define NI_ELENGTH (-3)  /* the info flit's length disagrees with the worm's last flit */
#define NI_ETOOLONG (-4) /* the payload did not fit the buffer (the rest was drained) */
#define NI_EREFUSED (-5) /* the NI refused the worm (it would leave the mesh, ...) */
#define NI_EVERSION (-6) /* no NI, or an NI of another version (or without DMA) */
#define NI_EDMA (-7)     /* the NI refused a DMA start (buffer not in RAM or misaligned,
                            engine busy) */

/* ---- raw register access (one load or store each) ---- */
static inline uint32_t ni_read(uint32_t offset) { return NI_REG(offset); }
static inline void ni_write(uint32_t offset, uint32_t value) { NI_REG(offset) = value; }
/* append a flit to port p's worm (waits while the TX queue is full) */
static inline void ni_tx_flit(unsigned port, uint32_t flit) { NI_REG(NI_TX_DATA(port)) = flit; }
static inline void ni_tx_last(unsigned port, uint32_t flit) { NI_REG(NI_TX_LAST(port)) = flit; }
/* pop the next flit of port p (waits while the RX queue is empty) */
static inline uint32_t ni_rx_flit(unsigned port) { return NI_REG(NI_RX_DATA(port)); }
static inline uint32_t ni_port_status(unsigned port) { return NI_REG(NI_PORT_STATUS(port)); }
/* bit p: a flit is waiting on RX port p */
static inline uint32_t ni_rx_mask(void) { return NI_REG(NI_RX_AVAIL) & 0xffu; }

/* ---- machine description ---- */
struct ni_shape {
    uint8_t dims;       /* 2 or 3 */
    uint8_t torus;      /* 1: torus, 0: mesh */
    uint8_t ports;      /* 2 * dims */
    uint8_t size[3];    /* X, Y, Z (Z = 1 in 2-D) */
    uint8_t coord[3];   /* this node's x, y, z */
    uint16_t node;      /* this node's index x + X*(y + Y*z) */
    uint16_t nodes;     /* X*Y*Z */
};

/* Reads the shape and coordinates from the NI; NI_EVERSION if there is no NI of version 1
 * or 2. */
int ni_init(struct ni_shape *shape);
/* 1 or 2 (DMA engines), 0: no NI of this family */
unsigned ni_version(void);
static inline int ni_has_dma(void) { return ni_version() >= 2u; }
/* words the NI's engines move per RAM access (version 3: the LINE register) */
static inline unsigned ni_line_words(void) { return (NI_REG(NI_LINE) >> 8) & 0xffu; }
/* 1 when the NI takes combining puts (NI_COMBINE_*; the LINE register's bit 24) */
static inline int ni_has_combine(void) { return (int)((NI_REG(NI_LINE) >> 24) & 1u); }
unsigned ni_node(void);
unsigned ni_nodes(void);
unsigned ni_coord(unsigned dim);
unsigned ni_size(unsigned dim);
unsigned ni_dims(void);
unsigned ni_torus(void);
unsigned ni_ports(void);

/* The port a worm with these hop counts leaves by when it starts in dimension `start`
 * (the first dimension, cyclically from start, whose count is non-zero); -1 if all are 0.
 * Inline: it touches no register (host checkers of plans use it as the firmware does). */
static inline int ni_port_for(int dx, int dy, int dz, unsigned start)
{
    const int counts[3] = {dx, dy, dz};
    for (unsigned i = 0; i < 3u; ++i) {
        const unsigned d = (start + i) % 3u;
        if (counts[d] != 0)
            return (int)(2u * d + (counts[d] < 0 ? 1u : 0u));
    }
    return -1;
}
/* The node at the other end of `port` of node `node` (the neighbour on side port & 1 of
 * dimension port / 2); NI_NO_NODE on a mesh's edge or for a port the machine lacks. A
 * worm that node sends on its port `port ^ 1` arrives here on `port`. */
#define NI_NO_NODE 0xffffffffu
uint32_t ni_neighbour(const struct ni_shape *shape, uint32_t node, unsigned port);
/* The head of a worm to the neighbour through `port` (one hop) */
static inline uint32_t ni_one_hop_head(unsigned port, unsigned tag)
{
    int count[3] = {0, 0, 0};
    count[(port / 2u) % 3u] = (port & 1u) ? -1 : 1;
    return NOC_HEAD(count[0], count[1], count[2], port / 2u, tag);
}

/* ---- whole worms, blocking ---- */
/* Sends head, info (this node, n + 2 flits), payload[0..n-1] on `port`. Waits while the
 * TX queue is full, so a long worm needs a receiver that drains (see ni_exchange). The
 * NI checks the header when it reaches the router: use ni_wait_sent for the verdict. */
int ni_send(unsigned port, uint32_t head, const uint32_t *payload, uint32_t n);
/* Waits until every worm written to `port` has entered the network or been refused;
 * NI_EREFUSED (and clears the port's ERROR bit) if one was refused since the last call. */
int ni_wait_sent(unsigned port);

struct ni_msg {
    uint32_t head;      /* the head as it arrived (counts 0, start dimension and tag intact) */
    uint32_t source;    /* node index from the info flit */
    uint32_t n;         /* payload words in the worm */
};
/* Receives one worm from `port` (waits for it): payload words go to payload[0..max-1];
 * NI_ETOOLONG if there were more (they are drained and dropped: the caller learns it),
 * NI_ESYNC / NI_ELENGTH if the queue does not hold a well-formed worm. */
int ni_recv(unsigned port, struct ni_msg *msg, uint32_t *payload, uint32_t max);
/* The lowest port with a flit waiting, or -1 (never waits). */
int ni_poll_any(void);

/* ---- all ports at once, never stalling ---- */
struct ni_tx {          /* one worm to send; fill head, payload, n */
    uint32_t head;
    const uint32_t *payload;
    uint32_t n;
    uint32_t done;      /* flits written so far (set by ni_exchange) */
};
struct ni_rx {          /* one worm to receive; fill payload, max */
    uint32_t *payload;
    uint32_t max;
    struct ni_msg msg;  /* results: head, source, payload words */
    uint32_t done;      /* flits read so far */
    int status;         /* NI_OK or an error as for ni_recv */
};
/* Sends tx[p] on port p and receives one worm into rx[p] from port p for every non-NULL
 * entry (arrays of ni_ports() entries), interleaving flits so that it never waits on one
 * port while another could move: safe when every node exchanges with its neighbours at
 * the same time, whatever the worm lengths. Returns NI_OK or the first receive error.
 * With DMA (NI version 2) the core moves heads and info flits and the engines the
 * payloads (every port at once); it returns when every payload has left RAM, so the
 * buffers may be reused. Payload buffers must be word-aligned RAM (else that worm falls
 * back to the core). A worm longer than its receive buffer: the engine fills the buffer,
 * the core drains the rest (NI_ETOOLONG). */
int ni_exchange(struct ni_tx *const *tx, struct ni_rx *const *rx);
/* ni_exchange with every flit moved by the core (the version 1 way), whatever the NI */
int ni_exchange_pio(struct ni_tx *const *tx, struct ni_rx *const *rx);

/* ---- one worm, a piece at a time (for RX interrupt handlers) ---- */
/* Makes rx (payload and max filled in) ready for the next worm. */
void ni_rx_begin(struct ni_rx *rx);
/* Reads the flits waiting on `port` into rx, never waiting for more: 1 once the worm's last
 * flit is in (rx->status and rx->msg as ni_recv's result and msg), 0 while more is to come.
 * An interrupt handler must not wait for a worm's rest: its sender may itself be held up in
 * an interrupt, with the rest of its worm not yet written. */
int ni_rx_poll(unsigned port, struct ni_rx *rx);

/* ---- DMA (NI version 2; NI_EVERSION on version 1) ----
 * The core writes (reads) a worm's head and info flit itself, then hands the rest to the
 * port's engine, which runs while the core goes on. While an engine of port p is busy,
 * the core's accesses to that port's TX (RX) queue wait and the status registers show
 * the port as not ready (no flit), so nothing is reordered. */
/* Streams words from src (word-aligned RAM) into TX queue `port`; with last != 0 the last
 * word ends the worm. NI_EDMA if the NI refused the start (and clears its error bit). */
int ni_dma_tx(unsigned port, const uint32_t *src, uint32_t words, int last);
/* Pops up to `words` flits of RX queue `port` into dst; the engine also stops after a
 * worm's last flit (ni_dma_rx_left tells how many words it did not move, and
 * NI_DMA_RX_ENDED(port) in the status whether it stopped at a worm's end). */
int ni_dma_rx(unsigned port, uint32_t *dst, uint32_t words);
/* DMA_STATUS[15:0]: bit p TX engine p busy, bit 8 + p RX engine p busy */
static inline uint32_t ni_dma_busy_mask(void) { return NI_REG(NI_DMA_STATUS) & 0xffffu; }
/* Waits until no engine of `mask` (as ni_dma_busy_mask) is busy; returns DMA_STATUS. */
uint32_t ni_dma_wait(uint32_t mask);
/* words the TX / RX engine of `port` has still to move (0 once it is done) */
static inline uint32_t ni_dma_tx_left(unsigned port) { return NI_REG(NI_TX_DMA_COUNT(port)) & 0x7fffffffu; }
static inline uint32_t ni_dma_rx_left(unsigned port) { return NI_REG(NI_RX_DMA_COUNT(port)); }
/* stops an engine (a word already read from RAM still enters the queue) */
static inline void ni_dma_tx_stop(unsigned port) { NI_REG(NI_TX_DMA_COUNT(port)) = 0; }
static inline void ni_dma_rx_stop(unsigned port) { NI_REG(NI_RX_DMA_COUNT(port)) = 0; }
/* sticky refused-start bits (DMA_ERROR: [7:0] TX engine p, [15:8] RX engine p), clearing */
static inline uint32_t ni_dma_errors(void) { return NI_REG(NI_DMA_ERROR) & 0xffffu; }
static inline void ni_dma_clear_errors(uint32_t mask) { NI_REG(NI_DMA_ERROR) = mask; }

/* ---- interrupts ----
 * The NI raises the core's machine external interrupt (mcause 0x8000000b) while a condition
 * enabled in IRQ_ENABLE holds; the conditions are levels: NI_IRQ_RX(p) while RX port p holds
 * a flit for the core, NI_IRQ_TX_DMA(p) / NI_IRQ_RX_DMA(p) while engine p is idle. A program
 * installs a handler per condition with ni_irq_on and calls ni_irq_handle from its
 * rvmesh_trap (firmware/rt/rvmesh_rt.h). A handler must remove its condition (read the
 * worm, or ni_irq_off its bit): while the condition holds, it is called again. */
typedef void (*ni_irq_handler)(unsigned port, void *arg);
/* Installs fn (with arg) for every condition of `mask` (IRQ_ENABLE bits), enables them and
 * the core's external interrupt (mie.MEIE, mstatus.MIE). NI_EVERSION without an NI, NI_EPORT
 * for a bit of no port. */
int ni_irq_on(uint32_t mask, ni_irq_handler fn, void *arg);
/* Disables the conditions of `mask` (the handlers stay installed). */
void ni_irq_off(uint32_t mask);
/* For rvmesh_trap: 1 when mcause is the NI's interrupt, after calling the handler of every
 * pending condition (a pending condition without a handler is disabled); 0 otherwise. */
int ni_irq_handle(uint32_t mcause);
/* IRQ_PENDING: the enabled conditions that hold now */
static inline uint32_t ni_irq_pending(void) { return NI_REG(NI_IRQ_PENDING); }
#define NI_MCAUSE_IRQ 0x8000000bu

/* ---- plans (NI version 3): see struct ni_desc above and rtl/tile/README.md ---- */
static inline int ni_has_plans(void) { return ni_version() >= 3u; }
/* RX ports in plan mode (bit p): their worms are puts and signals, handled by the NI */
static inline void ni_plan_mode(uint32_t mask) { NI_REG(NI_RX_MODE) = mask; }
static inline uint32_t ni_plan_status(void) { return NI_REG(NI_PLAN_STATUS); }
static inline uint32_t ni_plan_errors(void) { return NI_REG(NI_PLAN_ERROR); }
static inline void ni_plan_clear_errors(uint32_t mask) { NI_REG(NI_PLAN_ERROR) = mask; }
static inline uint32_t ni_counter(unsigned c) { return NI_REG(NI_CNT(c)) & 0xffffu; }
static inline void ni_counter_set(unsigned c, uint32_t value) { NI_REG(NI_CNT(c)) = value; }
/* subtracts `value` from counter c in one step (worms counted in the same cycle still count) */
static inline void ni_counter_sub(unsigned c, uint32_t value) { NI_REG(NI_CNT_SUB(c)) = value; }
/* PLAN_STATUS.done needs counter c >= target (0xffffffff: no target) */
static inline void ni_counter_target(unsigned c, uint32_t target)
{
    NI_REG(NI_CNT_TARGET(c)) = target == 0xffffffffu ? 0u : (1u << 31) | (target & 0xffffu);
}
/* window w: puts may write words [0, words) from base (word-aligned RAM); NI_EDMA if refused */
int ni_window(unsigned w, const void *base, uint32_t words);
/* starts port p's list of n descriptors at list (16-byte aligned RAM); NI_EDMA if refused.
 * Port ni_ports() is the NI's local port: its worms go straight to its own RX engine (a
 * RAM-to-RAM copy as a put), which counts them on the counter they name. */
int ni_plan_list(unsigned port, const struct ni_desc *list, uint32_t n);
/* stops port p's list (a worm being sent is finished first only if its head is out: call
 * this only to abandon a plan after an error) */
static inline void ni_plan_list_stop(unsigned port) { NI_REG(NI_TXQ_COUNT(port)) = 0; }
static inline uint32_t ni_epoch(void) { return NI_REG(NI_EPOCH) & 15u; }
static inline void ni_set_epoch(uint32_t epoch) { NI_REG(NI_EPOCH) = epoch & 15u; }

/* sticky refusal bits of all ports (ERROR register), and clearing them */
static inline uint32_t ni_errors(void) { return NI_REG(NI_ERROR) & 0xffu; }
static inline void ni_clear_errors(uint32_t mask) { NI_REG(NI_ERROR) = mask; }
static inline uint32_t ni_refused_count(void) { return NI_REG(NI_REFUSED) & 0xffffu; }
static inline uint32_t ni_router_errors(void) { return NI_REG(NI_REFUSED) >> 16; }
/* port p's links (saturating 16-bit counts since reset): errors the protection caught on
 * the words coming in, and flits it sent again going out (0 on unprotected links) */
static inline uint32_t ni_link_errors(unsigned port) { return NI_REG(NI_LINK_STATUS(port)) & 0xffffu; }
static inline uint32_t ni_link_retries(unsigned port) { return NI_REG(NI_LINK_STATUS(port)) >> 16; }

#endif
