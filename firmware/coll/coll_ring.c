/* SPDX-License-Identifier: ISC
 * rvmesh collectives: allreduce on a 2-D torus by rings, combined in the NI (combining puts,
 * ni_has_combine()). One plan: no node's core touches an element.
 *
 * The vector is cut into four quarters, one a stream; each stream is a reduce-scatter and an
 * allgather by rings, in two dimensions, on its own links:
 *   stream 0: x rings then y rings, sending +;  stream 1: the same, sending -;
 *   stream 2: y rings then x rings, sending +;  stream 3: the same, sending -.
 * In each of a stream's four phases (A: reduce-scatter along its first dimension a, B: along
 * its second b, B': allgather along b, A': allgather along a) it uses the links of one
 * dimension in one direction, and the four streams together use all four of a node's links in
 * every phase. In place each link carries (na-1)/na + (nb-1)/N = (N-1)/N of a quarter each way
 * in the reduce-scatter and as much in the allgather: the all-port bound of the two
 * (2 (N-1) m/N bytes over 2d = 4 links). Apart, phase A carries each node's own elements
 * besides what came in (na-2)/na of a quarter more; phase B and B' a little more (below).
 *
 * A quarter of W words is X segments along a (A_k, W/X words: the nodes of a ring of a end
 * with one each), each of Y sub-segments along b (B_l). Ring reduce-scatter on a ring of n
 * nodes, sending in direction s: in step j (1 .. n-1) node c sends segment c - s*j to c + s,
 * which combines it into its own (a combining put into the result buffer) and sends it on in
 * step j + 1; after step n - 1 node c holds segment c combined over the ring. Allgather: step
 * j sends segment c - s*(j-1) (its own first), plain puts. A relay waits for its piece's
 * lines to be counted on the port it came in on and follows them as they come (NI_PACED),
 * so every step is cut-through.
 *
 * The result buffer is the accumulator. In place (send == recv) it starts with the node's own
 * elements: every put of phases A and B combines. Apart, nothing is copied (the NI's local
 * port moves a word a cycle: a copy would cost as much as the whole allreduce): in phase A a
 * node sends on what came in as a plain put, then its own elements of the same segment as a
 * combining put (the first step: its own, plain), so what a receiver holds is the ring's so
 * far; in phase B (its own segment: the others' of its ring, not its own) it sends what it
 * holds and then its own, both combining; in B' its sub-segment as it holds it (plain) and
 * its own (combining), and B' goes one step further round its ring, so that each node gets its
 * own sub-segment whole from its neighbour. Phase A's last step writes a node's segment
 * plainly and phase B combines into it, so before phase B a node waits for its neighbours
 * along b to be done with phase A: each node signals the neighbour it sends phase B to on
 * counter RING_DONE(b), and itself on its local port (4 signals). Phase B then combines into
 * words that phase A's last step and B's other partials reach in any order: the ops commute.
 *
 * Order and counts: a port's list runs in order; each list holds phase A of one stream, B and
 * B' of another, A' of the first (what its links carry), and each step waits only for steps
 * of lower (phase, step), so no wait cycle can form. A port counter hears one sender (the
 * neighbour across that link), in its list's order: the receiver knows each of its receives'
 * counts. Every route is one hop.
 *
 * The reduce-scatter (coll_ring_reduce_scatter_compile, the machine's, apart): phases A and B
 * as above into an accumulator, then no B' and A': each node puts its four sub-segments, the
 * reduced ones, straight into their owners' blocks (window 1; a sub-segment of a quarter lies in
 * one block: count is a multiple of 4N), each as B' would send it (the sub-segment as held,
 * paced on phase B's last piece, then the node's own elements, combining), by the shortest
 * dimension-order route, on the list of the port its first hop leaves by (its own: the local
 * port's), after that list's steps. An owner counts its block's pieces on its local counter.
 * A line's reduce-scatter (coll_ring_line_reduce_scatter_compile) the same after its phase A:
 * each node's two segments to their owners along the line (in place too: only phase A's last
 * step writes a node's segment, so its last count says the segment is whole).
 *
 * The lines (coll_ring_line_compile: every row, column or pillar of a 2-D or 3-D torus at
 * once, each line its own ring of n): two streams, half the vector each, sending + and -, each
 * a reduce-scatter along the line (phase A, as above) and an allgather (done as phase B' above:
 * apart, the segment as held and then the node's own, one step further round). Port 2d + s
 * carries stream s; the other ports only the barrier's rounds; no "phase A done" signals (no
 * phase B combines into what phase A wrote).
 */
#include "coll_internal.h"
#include "rvmesh_rt.h"

/* the compiler runs once per kept plan: small code before fast code (it sits in every kit
 * program's RAM) */
#pragma GCC optimize("Os")

#define RING_MAX_SIDE COLL_COMM_MAX_SIZE
#define RING_PHASES 4u   /* A, B, B', A' */
#define RING_SCRATCH COLL_RING_SCRATCH
_Static_assert(COLL_RING_SCRATCH >= 2u * 4u * RING_PHASES * (RING_MAX_SIDE + 1u), "the receives' counts fit the scratch");

typedef struct {
    uint32_t word, words;   /* the range, in elements of the vector */
} ring_range;

/* x mod n for -2n <= x < 2n (no division: the compiler runs on every node's first call) */
static uint32_t mod(int32_t x, uint32_t n)
{
    while (x < 0)
        x += (int32_t)n;
    while (x >= (int32_t)n)
        x -= (int32_t)n;
    return (uint32_t)x;
}

/* stream q: the dimension of its phase (a line's: the line's, RING_NO_LINE on the whole 2-D
 * machine), its direction (+1, -1) */
#define RING_NO_LINE 255u
static unsigned stream_dim(unsigned q, unsigned phase, unsigned line)
{
    if (line != RING_NO_LINE)
        return line;
    const unsigned a = q < 2u ? 0u : 1u;
    return phase == 0u || phase == 3u ? a : 1u - a;
}
static int stream_dir(unsigned q) { return q & 1u ? -1 : 1; }

/* A stream's sizes: its quarter's first word, segment and sub-segment words, and where its own
 * segment starts (computed once: divisions are slow on the node) */
typedef struct {
    uint32_t base, seg, sub, own;
} ring_sizes;

/* the range this node sends (recv: 0) or receives (1) in step j of stream q's phase */
static ring_range ring_piece(const coll_ctx *ctx, const ring_sizes *z, unsigned q, unsigned phase, uint32_t j, int recv,
                             unsigned line)
{
    const unsigned d = stream_dim(q, phase, line);
    const int32_t c = (int32_t)ctx->ni.coord[d], s = stream_dir(q);
    const int rs = phase < 2u;
    /* reduce-scatter: sends c - s*j, receives c - s*(j+1); allgather: sends c - s*(j-1), receives c - s*j */
    const int32_t k = c - s * (int32_t)(j + (uint32_t)recv - (rs ? 0u : 1u));
    const uint32_t seg = mod(k, ctx->ni.size[d]);
    ring_range r;
    if (phase == 0u || phase == 3u) {
        r.words = z[q].seg;
        r.word = z[q].base + seg * r.words;
    } else {
        r.words = z[q].sub;
        r.word = z[q].own + seg * r.words;
    }
    return r;
}

/* RAM lines of 2^lb words that words [word, word + words) touch (1 for none) */
static uint32_t lines_of(uint32_t word, uint32_t words, unsigned lb)
{
    return words == 0 ? 1u : ((word + words - 1u) >> lb) - (word >> lb) + 1u;
}

int coll_ring_allreduce_fits(const coll_ctx *ctx, uint32_t count)
{
    if (!ctx || !ctx->initialised || ctx->ni.dims != 2u || !ctx->ni.torus || !ni_has_combine())
        return 0;
    const uint32_t X = ctx->ni.size[0], Y = ctx->ni.size[1];
    return X >= 3u && Y >= 3u && X <= RING_MAX_SIDE && Y <= RING_MAX_SIDE && count && count % (4u * X * Y) == 0 &&
           coll_barrier_rounds(ctx->ni.nodes) <= COLL_MAX_ROUNDS;
}

uint32_t coll_ring_allreduce_workspace(const coll_ctx *ctx)
{
    const uint32_t X = ctx->ni.size[0], Y = ctx->ni.size[1];
    /* a stream's puts, its own apart (the most): phase A 2 na - 3, B 2 (nb - 1), B' nb + 1,
     * A' na - 1, and two signals: 3 (na + nb) - 3, na + nb = X + Y for every stream; the
     * barrier */
    return 16u * (4u * (3u * (X + Y) - 3u) + coll_barrier_descs(coll_barrier_rounds(ctx->ni.nodes)));
}

int coll_ring_line_fits(const coll_ctx *ctx, unsigned dim, uint32_t count)
{
    if (!ctx || !ctx->initialised || ctx->ni.dims < 2u || dim >= ctx->ni.dims || !ctx->ni.torus || !ni_has_combine())
        return 0;
    const uint32_t n = ctx->ni.size[dim];
    return n >= 3u && n <= RING_MAX_SIDE && count && count % (2u * n) == 0 &&
           coll_barrier_rounds(ctx->ni.nodes) <= COLL_MAX_ROUNDS;
}

uint32_t coll_ring_line_workspace(const coll_ctx *ctx, unsigned dim)
{
    /* a stream's puts, its own apart: reduce-scatter 2 n - 3, allgather n + 1; two streams;
     * the barrier */
    return 16u * (2u * (3u * ctx->ni.size[dim] - 2u) + coll_barrier_descs(coll_barrier_rounds(ctx->ni.nodes)));
}

static int ring_compile(coll_plan *plan, coll_ctx *ctx, unsigned line, const void *send_v, void *recv_v,
                        void *block_v, uint32_t count, uint32_t kind, void *workspace, uint32_t workspace_bytes,
                        const char *name);

int coll_ring_allreduce_compile(coll_plan *plan, coll_ctx *ctx, const void *send_v, void *recv_v, uint32_t count,
                                uint32_t kind, void *workspace, uint32_t workspace_bytes, const char *name)
{
    if (!plan || !coll_ring_allreduce_fits(ctx, count))
        return COLL_EARG;
    return ring_compile(plan, ctx, RING_NO_LINE, send_v, recv_v, 0, count, kind, workspace, workspace_bytes, name);
}

int coll_ring_reduce_scatter_compile(coll_plan *plan, coll_ctx *ctx, const void *send_v, void *acc_v, void *block_v,
                                     uint32_t count, uint32_t kind, void *workspace, uint32_t workspace_bytes,
                                     const char *name)
{
    if (!plan || !block_v || !coll_ring_allreduce_fits(ctx, count))
        return COLL_EARG;
    return ring_compile(plan, ctx, RING_NO_LINE, send_v, acc_v, block_v, count, kind, workspace, workspace_bytes, name);
}

int coll_ring_line_compile(coll_plan *plan, coll_ctx *ctx, unsigned dim, const void *send_v, void *recv_v,
                           uint32_t count, uint32_t kind, void *workspace, uint32_t workspace_bytes, const char *name)
{
    if (!plan || !coll_ring_line_fits(ctx, dim, count))
        return COLL_EARG;
    return ring_compile(plan, ctx, dim, send_v, recv_v, 0, count, kind, workspace, workspace_bytes, name);
}

int coll_ring_line_reduce_scatter_compile(coll_plan *plan, coll_ctx *ctx, unsigned dim, const void *send_v, void *acc_v,
                                          void *block_v, uint32_t count, uint32_t kind, void *workspace,
                                          uint32_t workspace_bytes, const char *name)
{
    if (!plan || !block_v || !coll_ring_line_fits(ctx, dim, count))
        return COLL_EARG;
    return ring_compile(plan, ctx, dim, send_v, acc_v, block_v, count, kind, workspace, workspace_bytes, name);
}

/* A reduce-scatter's end (coll_ring_reduce_scatter_compile, coll_ring_line_reduce_scatter_compile):
 * stream q's piece of this node, whole once phase B (a line's: A) is in, put to the node whose
 * block holds it */
typedef struct {
    uint32_t head, word, words, off, trigger;   /* the route, the range (acc and send), its place in the owner's block */
    unsigned port;                               /* the list it goes on: its first hop's port, or the local one */
} ring_final;
#define RING_NO_PORT 255u

/* its descriptors on list `port`: the sub-segment as held (plain), apart then the node's own
 * elements of it (combining), each counted on the owner's local counter */
static uint32_t ring_finals(struct ni_desc *desc, uint32_t at, const ring_final *f, unsigned port, int apart,
                            uint32_t acc_word, uint32_t send_word, uint32_t put_lines, uint32_t kind, unsigned local)
{
    for (unsigned q = 0; q < 4u; ++q) {
        if (f[q].port != port)   /* (RING_NO_PORT: a line's streams 2 and 3, none) */
            continue;
        struct ni_desc *d = &desc[at++];
        d->head = f[q].head;
        d->payload = NI_DESC_PAYLOAD(acc_word + f[q].word, f[q].words);
        d->trigger = f[q].trigger;
        d->put = NI_PUT(1u, f[q].off, local) | put_lines;
        if (apart) {
            struct ni_desc *own = &desc[at++];
            own->head = f[q].head;
            own->payload = NI_DESC_PAYLOAD(send_word + f[q].word, f[q].words);
            own->trigger = NI_NO_TRIGGER;
            own->put = NI_PUT(1u, f[q].off, local) | put_lines | kind;
        }
    }
    return at;
}

/* the plan of the whole 2-D machine's rings (line RING_NO_LINE) or of every line along
 * dimension `line` at once (see the top of the file); with a block, the machine's
 * reduce-scatter (phases A and B, then the finals) */
static int ring_compile(coll_plan *plan, coll_ctx *ctx, unsigned line, const void *send_v, void *recv_v,
                        void *block_v, uint32_t count, uint32_t kind, void *workspace, uint32_t workspace_bytes,
                        const char *name)
{
    const uint32_t cycle0 = RVMESH_CSR_READ(mcycle);
    const int lines_only = line != RING_NO_LINE;
    const unsigned streams = lines_only ? 2u : 4u;
    const uint32_t bytes = 4u * count;
    const uint8_t *send = (const uint8_t *)send_v;
    uint8_t *recv = (uint8_t *)recv_v;
    const int in_place = send == recv;
    if (!coll_in_ram(send, bytes) || !coll_in_ram(recv, bytes) || !send || !recv ||
        (!in_place && coll_overlap(send, bytes, recv, bytes)))
        return COLL_EARG;
    uint8_t *block = (uint8_t *)block_v;
    const int scatter = block != 0;
    const uint32_t block_words = scatter ? count / (lines_only ? ctx->ni.size[line] : ctx->ni.nodes) : 0u;
    /* the machine's apart only: a node's finals read its sub-segment once phase B's last piece
     * is in; apart, that piece's sender waited for this node's phase A to be done (RING_DONE),
     * in place nothing orders the two (phase B' of the allreduce waits for it by its list's
     * order). A line's finals read the segment phase A's last step alone writes. */
    if (scatter && ((in_place && !lines_only) || ((uintptr_t)block & 3u) || !coll_in_ram(block, 4u * block_words) ||
                    coll_overlap(block, 4u * block_words, send, bytes) || coll_overlap(block, 4u * block_words, recv, bytes)))
        return COLL_EARG;
    const uint32_t need = lines_only ? coll_ring_line_workspace(ctx, line) : coll_ring_allreduce_workspace(ctx);
    if (((uintptr_t)workspace & 15u) || need + RING_SCRATCH > workspace_bytes ||
        !coll_in_ram(workspace, need + RING_SCRATCH))
        return COLL_EWORKSPACE;
    coll_clear_words(plan, sizeof *plan);
    plan->ctx = ctx;
    plan->name = name;
    unsigned lb = 0;
    while ((1u << lb) < ctx->line_words)
        ++lb;
    const int by_lines = coll_by_lines(ctx);
    const uint32_t put_lines = by_lines ? NI_PUT_LINES : 0u;
    const uint32_t recv_word = (uint32_t)(((uintptr_t)recv - RVMESH_RAM_BASE) / 4u);
    const uint32_t send_word = (uint32_t)(((uintptr_t)send - RVMESH_RAM_BASE) / 4u);
    const unsigned local = ctx->ni.ports;
    const uint32_t rounds = coll_barrier_rounds(ctx->ni.nodes);

    /* Steps and parts. Every phase has n - 1 steps on a ring of n, but B' has n when the
     * node's own elements are apart from the result (then each node's own elements join the
     * ring's on their way out, see the top of the file). A step is one put, or two (its
     * "parts": what came in, then the node's own), each counted on the receiver. */
    ring_sizes z[4];
    for (unsigned q = 0; q < streams; ++q) {
        const unsigned a = stream_dim(q, 0, line);
        z[q].base = q * (count / streams);
        z[q].seg = count / streams / ctx->ni.size[a];
        if (lines_only) {   /* its allgather (phase B' here) moves the reduce-scatter's segments */
            z[q].sub = z[q].seg;
            z[q].own = z[q].base;
        } else {
            z[q].sub = z[q].seg / ctx->ni.size[1u - a];
            z[q].own = z[q].base + ctx->ni.coord[a] * z[q].seg;
        }
    }
    const int apart = !in_place;
    /* a line: phase A (its reduce-scatter) and B' (its allgather, as B' on the whole machine:
     * apart, one step more, the segment as held and then the node's own) */
#define STEPS(phase, n) \
    ((lines_only && ((phase) == 1u || (phase) == 3u)) || (scatter && (phase) >= 2u) ? 0u \
     : (phase) == 2u && apart ? (n) : (n) - 1u)
#define PARTS(phase, j) \
    (apart && (((phase) == 0u && (j) > 1u) || (phase) == 1u || ((phase) == 2u && (j) == 1u)) ? 2u : 1u)
    /* the receives' counts: per arrival counter (2d + 1 for puts travelling + along d, 2d for
     * -), in the order its sender's list sends them: the port (d, s) carries phase A of the
     * stream whose first dimension is d, phases B and B' of the stream whose second is d
     * (both sending s), then A' of the first */
    /* the count once step j's receive is all in: scratch above the plan's descriptors */
    typedef uint16_t ring_counts[RING_PHASES][RING_MAX_SIDE + 1];
    ring_counts *num = (ring_counts *)(void *)((uint8_t *)workspace + need);
    uint32_t counted[NI_MAX_PORTS + 1];
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p)
        counted[p] = 0;
    for (unsigned d = 0; d < ctx->ni.dims; ++d)
        for (unsigned dir = 0; dir < 2u; ++dir) {
            if (lines_only ? d != line : d >= 2u)
                continue;
            const unsigned counter = 2u * d + (dir ? 0u : 1u);   /* dir 0: +, 1: - */
            const unsigned qa = lines_only ? dir : (d == 0u ? 0u : 2u) + dir;
            const unsigned qb = lines_only ? dir : (d == 0u ? 2u : 0u) + dir;
            for (unsigned phase = 0; phase < RING_PHASES; ++phase) {
                const unsigned q = (phase == 0u || phase == 3u) ? qa : qb;
                const uint32_t n = ctx->ni.size[d];
                for (uint32_t j = 1; j <= STEPS(phase, n); ++j) {
                    const ring_range r = ring_piece(ctx, z, q, phase, j, 1, line);
                    counted[counter] += PARTS(phase, j) * (by_lines ? lines_of(recv_word + r.word, r.words, lb) : 1u);
                    if (counted[counter] > 0xffffu)
                        return COLL_ESIZE;
                    num[q][phase][j] = (uint16_t)counted[counter];
                }
            }
        }

    /* a reduce-scatter's finals: stream q's piece, as phase B' would send it, to its owner
     * (the machine's: sub-segment g = q N + coord[a] nb + coord[b] of the vector, in node g / 4's
     * block; a line's: segment coord[line] of half q, in the block of member (q n + coord) / 2);
     * and what this node's local counter hears as an owner: its block's pieces (four, two) */
    ring_final fin[4];
    uint32_t fin_count = 0;
    const uint32_t block_word = scatter ? (uint32_t)(((uintptr_t)block - RVMESH_RAM_BASE) / 4u) : 0u;
    for (unsigned q = 0; q < 4u; ++q) {
        fin[q].port = RING_NO_PORT;
        if (!scatter || q >= streams)
            continue;
        const unsigned b = lines_only ? line : 1u - stream_dim(q, 0, line);
        const ring_range r = ring_piece(ctx, z, q, 2u, 1u, 0, line);
        const uint32_t owner = r.word / block_words, lines = lines_of(recv_word + r.word, r.words, lb);
        /* whole once phase B's last piece is in (a line's: phase A's) */
        const uint32_t last = num[q][lines_only ? 0u : 1u][ctx->ni.size[b] - 1u], here_b = 2u * b + (q & 1u ? 0u : 1u);
        /* the owner: a member of this node's line (mod 2^32: back along it when owner < coord),
         * or a node of the machine */
        const uint32_t dst = lines_only ? ctx->ni.node + (owner - ctx->ni.coord[line]) * coll_dim_stride(ctx, line) : owner;
        int16_t hops[SCHED_MAX_DIMS];
        fin[q].word = r.word;
        fin[q].words = r.words;
        fin[q].off = r.word - owner * block_words;
        fin[q].trigger = by_lines ? NI_TRIGGER(here_b, last - lines + 1u) | NI_PACED : NI_TRIGGER(here_b, last);
        if (dst == ctx->ni.node) {
            fin[q].port = local;
            fin[q].head = NOC_HEAD(0, 0, 0, 0, 56u + q);
        } else {
            fin[q].port = coll_route_to(ctx, dst, hops);
            fin[q].head = NOC_HEAD(hops[0], hops[1], hops[2], fin[q].port / 2u, 56u + q);
        }
        /* this node's block, its q-th piece (as many pieces as streams, of one size) */
        const uint32_t k_word = block_word + q * r.words;
        fin_count += (apart ? 2u : 1u) * (by_lines ? lines_of(k_word, r.words, lb) : 1u);
    }
    if (fin_count > 0xffffu)
        return COLL_ESIZE;

    /* the lists: per port its barrier rounds, then its steps; the local port: the barrier's
     * links, then (apart) the node's own "phase A done" signals */
    struct ni_desc *desc = (struct ni_desc *)workspace;
    coll_barrier_lists(ctx, rounds);
    uint32_t at = 0;
    const uint32_t own_trigger = NI_TRIGGER(COLL_BARRIER_COUNTER + rounds - 1u, coll_barrier_heard(rounds - 1u));
    /* apart: phase B combines into the result buffer's segment that phase A's last step writes
     * plainly, so a node's phase B waits until its neighbours along b are done with phase A:
     * each node counts on RING_DONE(b) its own phase A of both streams whose second dimension
     * is b (two local signals) and its two neighbours' along b (a signal from each), 4 */
#define RING_DONE(b) (5u + (b))
    _Static_assert(RING_DONE(1u) <= NI_MAX_PORTS,
                   "counters 5 and 6: past a 2-D NI's ports (0-3) and its local one (4), cleared by every start");
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p) {
        plan->list_first[p] = (uint16_t)at;
        if (p > local)
            continue;
        for (unsigned k = 0; k < ctx->barrier_count[p]; ++k)
            desc[at++] = ctx->barrier[ctx->barrier_first[p] + k];
        if (p == local) {
            for (unsigned q = 0; q < 4u && apart && !lines_only; ++q) {
                const unsigned a = stream_dim(q, 0, line), here_a = 2u * a + (q & 1u ? 0u : 1u);
                struct ni_desc *d = &desc[at++];
                d->head = NOC_HEAD(0, 0, 0, 0, 61u);
                d->payload = 0;
                d->trigger = NI_TRIGGER(here_a, num[q][0][ctx->ni.size[a] - 1u]);
                d->put = NI_SIGNAL(RING_DONE(1u - a));
            }
            if (scatter)
                at = ring_finals(desc, at, fin, p, apart, recv_word, send_word, put_lines, kind, local);
            plan->list_count[p] = (uint16_t)(at - plan->list_first[p]);
            continue;
        }
        const unsigned d = p / 2u, dir = p & 1u;   /* port 2d sends +, 2d + 1 sends - */
        if (lines_only ? d != line : d >= 2u) {
            if (scatter)   /* (no finals leave this way: every route starts along the line or a and b) */
                at = ring_finals(desc, at, fin, p, apart, recv_word, send_word, put_lines, kind, local);
            plan->list_count[p] = (uint16_t)(at - plan->list_first[p]);   /* the barrier's rounds alone */
            continue;
        }
        const unsigned qa = lines_only ? dir : (d == 0u ? 0u : 2u) + dir;
        const unsigned qb = lines_only ? dir : (d == 0u ? 2u : 0u) + dir;
        const int32_t s = dir ? -1 : 1;
        const unsigned here = 2u * d + (dir ? 0u : 1u);   /* where puts sent this way come in (its counter) */
        const uint32_t n = ctx->ni.size[d];
        const uint32_t head = NOC_HEAD(d == 0u ? s : 0, d == 1u ? s : 0, d == 2u ? s : 0, d, 0u);
        for (unsigned phase = 0; phase < RING_PHASES; ++phase) {
            const unsigned q = (phase == 0u || phase == 3u) ? qa : qb;
            const unsigned a = stream_dim(q, 0, line), b = lines_only ? a : 1u - a;
            const unsigned here_a = 2u * a + (dir ? 0u : 1u), here_b = 2u * b + (dir ? 0u : 1u);
            const uint32_t na = ctx->ni.size[a], nb = ctx->ni.size[b];
            if (phase == 1u && apart && !lines_only) {
                /* this node's phase A of the other stream whose second dimension is d (it
                 * sends -s) done: said to the neighbour it hears that stream from */
                const unsigned other = q ^ 1u, other_a = 2u * a + (dir ? 1u : 0u);
                struct ni_desc *sig = &desc[at++];
                sig->head = head | NOC_HEAD(0, 0, 0, 0, 61u);
                sig->payload = 0;
                sig->trigger = NI_TRIGGER(other_a, num[other][0][na - 1u]);
                sig->put = NI_SIGNAL(RING_DONE(b));
            }
            for (uint32_t j = 1; j <= STEPS(phase, n); ++j) {
                const ring_range r = ring_piece(ctx, z, q, phase, j, 0, line);
                const uint32_t lines = lines_of(recv_word + r.word, r.words, lb);
                /* the first part: what came in (the node's own in phase A's first step) */
                struct ni_desc *ds = &desc[at++];
                ds->head = head | NOC_HEAD(0, 0, 0, 0, (phase * 16u + j) & 63u);
                ds->payload = NI_DESC_PAYLOAD((phase == 0u && j == 1u ? send_word : recv_word) + r.word, r.words);
                uint32_t trig;
                if (phase == 0u && j == 1u)
                    trig = own_trigger;   /* its own elements, after the barrier */
                else if (j > 1u)          /* what came in at step j - 1, line by line */
                    trig = by_lines ? NI_TRIGGER(here, num[q][phase][j - 1u] - lines + 1u) | NI_PACED
                                    : NI_TRIGGER(here, num[q][phase][j - 1u]);
                else if (phase == 1u)     /* B: once phase A is done here (apart: and at both neighbours) */
                    trig = apart ? NI_TRIGGER(RING_DONE(b), 4u) : NI_TRIGGER(here_a, num[q][0][na - 1u]);
                else if (phase == 2u) {   /* B': its sub-segment, as B's last piece comes (a line: A's) */
                    const uint32_t last = lines_only ? num[q][0][na - 1u] : num[q][1][nb - 1u];
                    trig = by_lines ? NI_TRIGGER(here_b, last - lines + 1u) | NI_PACED : NI_TRIGGER(here_b, last);
                }
                else                      /* A': its segment, once B' is all in */
                    trig = NI_TRIGGER(here_b, num[q][2][STEPS(2u, nb)]);
                ds->trigger = trig;
                /* combining in phases A and B, but apart what comes into phase A's segments
                 * overwrites them (they held nothing of this call) */
                const uint32_t first_kind = phase >= 2u || (phase == 0u && apart) ? 0u : kind;
                ds->put = NI_PUT(0u, r.word, here) | put_lines | first_kind;
                if (PARTS(phase, j) == 2u) {   /* then the node's own, combining */
                    struct ni_desc *own = &desc[at++];
                    own->head = ds->head;
                    own->payload = NI_DESC_PAYLOAD(send_word + r.word, r.words);
                    own->trigger = NI_NO_TRIGGER;
                    own->put = NI_PUT(0u, r.word, here) | put_lines | kind;
                }
            }
        }
        if (scatter)
            at = ring_finals(desc, at, fin, p, apart, recv_word, send_word, put_lines, kind, local);
        plan->list_count[p] = (uint16_t)(at - plan->list_first[p]);
    }
#undef STEPS
#undef PARTS
    for (unsigned p = 0; p <= NI_MAX_PORTS; ++p)
        plan->recv_count[p] = p < local ? (uint16_t)counted[p] : p == local ? (uint16_t)fin_count : 0u;
    coll_ni_plan_finish(plan, ctx, rounds, desc, bytes, recv, count);
    if (scatter) {   /* window 1: the block */
        plan->transit = block;
        plan->transit_words = block_words;
    }
    plan->compile_cycles = RVMESH_CSR_READ(mcycle) - cycle0;
    return COLL_OK;
}
