/* SPDX-License-Identifier: ISC */
/* Per-node schedule tables: writer and validating reader (format in sched_table.h).
 * Portable, no allocation: the firmware links this file. */
#include "sched_table.h"
#include "sched_coll.h"

#include <string.h>

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
/* n little-endian words from p: word loads when p is 4-aligned (the node's tables are: the
 * loader puts them there), bytes otherwise */
static void rd_words(const uint8_t *p, uint32_t *w, uint32_t n)
{
    if (((uintptr_t)p & 3u) == 0) {
        /* volatile: gcc would turn this loop into a call of memcpy, which goes by bytes */
        const volatile uint32_t *q = (const volatile uint32_t *)(const void *)p;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v = q[i];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            v = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
#endif
            w[i] = v;
        }
    } else {
        for (uint32_t i = 0; i < n; i++) w[i] = rd32(p + 4u * i);
    }
}

static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* FNV-1a 32 over p[0..len) with the 4-byte checksum field at `skip` read as 0 */
static uint32_t checksum_at(const uint8_t *p, uint32_t len, uint32_t skip)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++) {
        uint8_t b = (i >= skip && i < skip + 4u) ? 0 : p[i];
        h = (h ^ b) * 16777619u;
    }
    return h;
}
static uint32_t checksum(const uint8_t *p, uint32_t len) { return checksum_at(p, len, 40u); }

const char *sched_table_strerror(int code)
{
    switch (code) {
    case SCHED_TABLE_OK: return "ok";
    case SCHED_TABLE_ERR_SHORT: return "table truncated (buffer shorter than the table)";
    case SCHED_TABLE_ERR_MAGIC: return "not a schedule table (bad magic)";
    case SCHED_TABLE_ERR_VERSION: return "table format version not supported; regenerate it with this schedgen";
    case SCHED_TABLE_ERR_SHAPE: return "table built for another machine shape; regenerate it for this shape";
    case SCHED_TABLE_ERR_NODE: return "table belongs to another node";
    case SCHED_TABLE_ERR_LAYOUT: return "table layout inconsistent (counts vs size)";
    case SCHED_TABLE_ERR_CHECKSUM: return "table checksum mismatch (damaged)";
    case SCHED_TABLE_ERR_SPACE: return "output buffer too small for the table";
    case SCHED_AREA_ERR_MAGIC: return "no tables area (nothing written there by a loader, or not an area)";
    case SCHED_AREA_ERR_VERSION: return "tables area of another format version; rebuild the program with this schedgen";
    case SCHED_AREA_ERR_SHAPE: return "tables built for another machine shape; rebuild the program for this shape";
    case SCHED_AREA_ERR_NODE: return "tables area of another node";
    case SCHED_AREA_ERR_LAYOUT: return "tables area inconsistent or truncated";
    case SCHED_AREA_ERR_CHECKSUM: return "tables area checksum mismatch (damaged)";
    }
    return "unknown table error";
}

int sched_table_open(const uint8_t *buf, uint32_t len, const sched_shape *expect, uint32_t expect_node,
                     sched_table *t)
{
    int rc = sched_table_open_header(buf, len, expect, expect_node, t);
    if (rc != SCHED_TABLE_OK) return rc;
    if (checksum(buf, t->total_bytes) != rd32(buf + 40)) return SCHED_TABLE_ERR_CHECKSUM;
    return SCHED_TABLE_OK;
}

int sched_table_open_header(const uint8_t *buf, uint32_t len, const sched_shape *expect, uint32_t expect_node,
                            sched_table *t)
{
    /* every field from the header's words, then the checks: on the node's path to its tables
     * (read in place when aligned on a little-endian machine; no memset: picolibc's goes by
     * bytes) */
    uint32_t copy[SCHED_TABLE_HEADER_BYTES / 4u];
    const uint32_t *h = copy;
    if (len < SCHED_TABLE_HEADER_BYTES)
        for (uint32_t i = 0; i < SCHED_TABLE_HEADER_BYTES / 4u; i++) copy[i] = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    else if (((uintptr_t)buf & 3u) == 0)
        h = (const uint32_t *)(const void *)buf;
#endif
    else
        rd_words(buf, copy, SCHED_TABLE_HEADER_BYTES / 4u);
    t->base = buf;
    t->version = (uint16_t)h[1];
    t->total_bytes = h[2];
    t->shape.dims = (uint8_t)h[3];
    t->shape.torus = (uint8_t)(h[3] >> 8);
    t->algo = (uint8_t)(h[3] >> 16);
    t->collective = (uint8_t)(h[3] >> 24);
    t->shape.side[0] = (uint16_t)h[4];
    t->shape.side[1] = (uint16_t)(h[4] >> 16);
    t->shape.side[2] = (uint16_t)h[5];
    t->model = (uint8_t)(h[5] >> 16);
    t->line = (uint8_t)(h[5] >> 24);
    t->root = h[6];
    t->node = h[7];
    t->nsteps = (uint16_t)h[8];
    t->nsend = (uint16_t)(h[8] >> 16);
    t->nrecv = (uint16_t)h[9];
    t->parts = (uint16_t)(h[9] >> 16);
    if (len < SCHED_TABLE_HEADER_BYTES) return SCHED_TABLE_ERR_SHORT;
    if (h[0] != SCHED_TABLE_MAGIC) return SCHED_TABLE_ERR_MAGIC;
    if (t->version != SCHED_TABLE_VERSION || (h[1] >> 16) != SCHED_TABLE_HEADER_BYTES) return SCHED_TABLE_ERR_VERSION;
    if (expect && (t->shape.dims != expect->dims || t->shape.torus != expect->torus ||
                   t->shape.side[0] != expect->side[0] || t->shape.side[1] != expect->side[1] ||
                   t->shape.side[2] != expect->side[2]))
        return SCHED_TABLE_ERR_SHAPE;
    if (expect_node != UINT32_MAX && t->node != expect_node) return SCHED_TABLE_ERR_NODE;
    if (t->total_bytes != SCHED_TABLE_HEADER_BYTES + (uint32_t)t->nsend * SCHED_TABLE_SEND_BYTES +
                              (uint32_t)t->nrecv * SCHED_TABLE_RECV_BYTES)
        return SCHED_TABLE_ERR_LAYOUT;
    if (len < t->total_bytes) return SCHED_TABLE_ERR_SHORT;
    return SCHED_TABLE_OK;
}

/* ---- areas and packages ---- */
/* w: the words of a header from byte 12: dims | torus << 8 | count << 16, side0 | side1 << 16,
 * side2 */
static int shape_differs(const sched_shape *a, const uint32_t *w)
{
    return a->dims != (uint8_t)w[0] || a->torus != (uint8_t)(w[0] >> 8) || a->side[0] != (uint16_t)w[1] ||
           a->side[1] != (uint16_t)(w[1] >> 16) || a->side[2] != (uint16_t)w[2];
}

int sched_area_open(const uint8_t *buf, uint32_t len, const sched_shape *expect, uint32_t expect_node,
                    int check_sum, sched_area *a)
{
    uint32_t h[SCHED_AREA_HEADER_BYTES / 4u];
    a->version = 0;
    a->total_bytes = 0;
    a->shape.dims = a->shape.torus = 0;
    a->shape.side[0] = a->shape.side[1] = a->shape.side[2] = 0;
    a->count = 0;
    a->node = 0;
    a->base = buf;
    if (len < SCHED_AREA_HEADER_BYTES) return SCHED_AREA_ERR_LAYOUT;
    rd_words(buf, h, SCHED_AREA_HEADER_BYTES / 4u);
    if (h[0] != SCHED_AREA_MAGIC) return SCHED_AREA_ERR_MAGIC;
    a->version = (uint16_t)h[1];
    if (a->version != SCHED_PKG_VERSION || (h[1] >> 16) != SCHED_AREA_HEADER_BYTES) return SCHED_AREA_ERR_VERSION;
    a->total_bytes = h[2];
    a->shape.dims = (uint8_t)h[3];
    a->shape.torus = (uint8_t)(h[3] >> 8);
    a->count = (uint16_t)(h[3] >> 16);
    a->shape.side[0] = (uint16_t)h[4];
    a->shape.side[1] = (uint16_t)(h[4] >> 16);
    a->shape.side[2] = (uint16_t)h[5];
    a->node = h[6];
    if (expect && shape_differs(expect, h + 3)) return SCHED_AREA_ERR_SHAPE;
    if (expect_node != UINT32_MAX && a->node != expect_node) return SCHED_AREA_ERR_NODE;
    const uint32_t dir = SCHED_AREA_HEADER_BYTES + (uint32_t)a->count * SCHED_AREA_ENTRY_BYTES;
    if (a->total_bytes < dir || a->total_bytes > len || (a->total_bytes & 7u)) return SCHED_AREA_ERR_LAYOUT;
    for (uint32_t i = 0; i < a->count; i++) {
        uint32_t off;
        rd_words(buf + SCHED_AREA_HEADER_BYTES + i * SCHED_AREA_ENTRY_BYTES + 12u, &off, 1u);
        uint32_t tbytes = 0;
        if (off >= dir && (off & 3u) == 0 && off <= a->total_bytes - SCHED_TABLE_HEADER_BYTES)
            rd_words(buf + off + 8u, &tbytes, 1u);
        if (off < dir || (off & 3u) || off > a->total_bytes - SCHED_TABLE_HEADER_BYTES ||
            tbytes > a->total_bytes - off)
            return SCHED_AREA_ERR_LAYOUT;
    }
    if (check_sum && checksum_at(buf, a->total_bytes, 28u) != h[7]) return SCHED_AREA_ERR_CHECKSUM;
    return SCHED_TABLE_OK;
}

void sched_area_get_entry(const sched_area *a, uint32_t i, sched_area_entry *e)
{
    uint32_t w[SCHED_AREA_ENTRY_BYTES / 4u];
    rd_words(a->base + SCHED_AREA_HEADER_BYTES + i * SCHED_AREA_ENTRY_BYTES, w, SCHED_AREA_ENTRY_BYTES / 4u);
    e->collective = (uint8_t)w[0];
    e->algo = (uint8_t)(w[0] >> 8);
    e->parts = (uint16_t)(w[0] >> 16);
    e->root = w[1];
    e->min_bytes = w[2];
    e->table_off = w[3];
    e->ws_fixed = w[4];
    e->ws_transit = (uint16_t)w[5];
    e->flags = (uint8_t)(w[5] >> 16);
}

int sched_pkg_open(const uint8_t *buf, uint32_t len, const sched_shape *expect, sched_pkg *pk)
{
    memset(pk, 0, sizeof *pk);
    if (len < SCHED_PKG_HEADER_BYTES) return SCHED_AREA_ERR_LAYOUT;
    if (rd32(buf) != SCHED_PKG_MAGIC) return SCHED_AREA_ERR_MAGIC;
    pk->version = rd16(buf + 4);
    if (pk->version != SCHED_PKG_VERSION || rd16(buf + 6) != SCHED_PKG_HEADER_BYTES) return SCHED_AREA_ERR_VERSION;
    pk->total_bytes = rd32(buf + 8);
    pk->shape.dims = buf[12];
    pk->shape.torus = buf[13];
    pk->entries = rd16(buf + 14);
    pk->shape.side[0] = rd16(buf + 16);
    pk->shape.side[1] = rd16(buf + 18);
    pk->shape.side[2] = rd16(buf + 20);
    pk->nodes = rd32(buf + 24);
    pk->area_bytes = rd32(buf + 28);
    pk->base = buf;
    uint32_t h[3];
    rd_words(buf + 12, h, 3u);
    if (expect && shape_differs(expect, h)) return SCHED_AREA_ERR_SHAPE;
    /* the shape first: sched_nodes reads side[dims - 1] (a damaged dims byte read past side[]) */
    if (sched_shape_problem(&pk->shape) || pk->total_bytes != len || pk->nodes != sched_nodes(&pk->shape))
        return SCHED_AREA_ERR_LAYOUT;
    return SCHED_TABLE_OK;
}

int sched_pkg_area(const sched_pkg *pk, uint32_t node, const uint8_t **area, uint32_t *area_len)
{
    uint32_t off = SCHED_PKG_HEADER_BYTES;
    for (uint32_t v = 0; v < pk->nodes; v++) {
        if (pk->total_bytes - off < SCHED_AREA_HEADER_BYTES) return SCHED_AREA_ERR_LAYOUT;
        uint32_t bytes = rd32(pk->base + off + 8u);
        if (bytes < SCHED_AREA_HEADER_BYTES || bytes > pk->total_bytes - off || bytes > pk->area_bytes)
            return SCHED_AREA_ERR_LAYOUT;
        if (v == node) {
            *area = pk->base + off;
            *area_len = bytes;
            return SCHED_TABLE_OK;
        }
        off += bytes;
    }
    return SCHED_AREA_ERR_NODE;
}

int sched_table_find(const uint8_t *file, uint32_t len, const sched_shape *expect, uint32_t node, sched_table *t)
{
    uint32_t off = 0;
    for (;;) {
        int rc = sched_table_open(file + off, len - off, expect, UINT32_MAX, t);
        if (rc != SCHED_TABLE_OK) return rc;
        if (t->node == node) return SCHED_TABLE_OK;
        if (t->node > node) return SCHED_TABLE_ERR_NODE;
        off += t->total_bytes;
        if (off >= len) return SCHED_TABLE_ERR_NODE;
    }
}

uint32_t sched_table_parts(const sched_table *t) { return t->parts ? t->parts : 1u; }

int sched_table_kept(uint32_t collective, uint32_t nodes, uint32_t root, uint32_t parts, uint32_t node,
                     uint32_t piece)
{
    const uint32_t block = piece / (parts ? parts : 1u);
    switch (collective) {
    case SCHED_COLL_SCATTER: return block == node;
    case SCHED_COLL_GATHER: return node == root;
    case 17u:                                      /* alltoall, partial alltoall */
    case 19u:
    case 20u: return block % nodes == node;             /* partial gather */
    default: return 1;
    }
}

void sched_table_get_send(const sched_table *t, uint32_t i, sched_table_send *o)
{
    const uint8_t *p = t->base + SCHED_TABLE_HEADER_BYTES + i * SCHED_TABLE_SEND_BYTES;
    o->step = rd16(p);
    o->port = p[2];
    o->flags = p[3];
    for (unsigned d = 0; d < SCHED_MAX_DIMS; d++) o->hops[d] = (int16_t)rd16(p + 4 + 2 * d);
    o->rslot = rd16(p + 10);
    o->dst = rd32(p + 12);
    o->piece = rd32(p + 16);
}

void sched_table_get_recv(const sched_table *t, uint32_t i, sched_table_recv *o)
{
    const uint8_t *p = t->base + SCHED_TABLE_HEADER_BYTES + (uint32_t)t->nsend * SCHED_TABLE_SEND_BYTES +
                       i * SCHED_TABLE_RECV_BYTES;
    o->step = rd16(p);
    o->port = p[2];
    o->flags = p[3];
    o->src = rd32(p + 4);
    o->piece = rd32(p + 8);
}

static int table_transit(const sched_schedule *s, const sched_msg *m, uint32_t parts, uint32_t nodes);

int sched_table_transit(const sched_schedule *s, const sched_msg *m)
{
    return table_transit(s, m, sched_coll_parts(s), sched_nodes(&s->shape));
}

/* a message whose receiver only relays its piece */
static int table_transit(const sched_schedule *s, const sched_msg *m, uint32_t parts, uint32_t nodes)
{
    return (m->reserved & SCHED_MSG_TRANSIT) ||
           !sched_table_kept((uint32_t)s->coll, nodes, s->root, parts, m->dst, m->piece);
}

/* The transit slot of message k at its receiver: its transit receives before it in table
 * order (step, then arrival port, then message order). Messages are sorted by step. */
static uint32_t transit_slot(const sched_schedule *s, uint32_t k, uint32_t parts, uint32_t nodes)
{
    const sched_msg *m = &s->msgs[k];
    const uint32_t port = sched_msg_recv_port(m, s->shape.dims);
    uint32_t slot = 0;
    for (uint32_t i = 0; i < s->count && s->msgs[i].step <= m->step; i++) {
        const sched_msg *o = &s->msgs[i];
        if (i == k || o->dst != m->dst || !table_transit(s, o, parts, nodes)) continue;
        if (o->step < m->step) { slot++; continue; }
        uint32_t op = sched_msg_recv_port(o, s->shape.dims);
        if (op < port || (op == port && i < k)) slot++;
    }
    return slot;
}

uint32_t sched_table_bytes(const sched_schedule *s, uint32_t node)
{
    uint32_t ns = 0, nr = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        ns += s->msgs[i].src == node;
        nr += s->msgs[i].dst == node;
    }
    return SCHED_TABLE_HEADER_BYTES + ns * SCHED_TABLE_SEND_BYTES + nr * SCHED_TABLE_RECV_BYTES;
}

int32_t sched_table_write(const sched_schedule *s, uint32_t node, uint8_t *buf, uint32_t cap)
{
    uint32_t ns = 0, nr = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        ns += s->msgs[i].src == node;
        nr += s->msgs[i].dst == node;
    }
    uint32_t total = SCHED_TABLE_HEADER_BYTES + ns * SCHED_TABLE_SEND_BYTES + nr * SCHED_TABLE_RECV_BYTES;
    if (total > cap) return SCHED_TABLE_ERR_SPACE;
    const uint32_t parts = sched_coll_parts(s);
    if (ns > 0xffffu || nr > 0xffffu || s->nsteps > 0xffffu || parts > 0xffffu) return SCHED_TABLE_ERR_LAYOUT;
    memset(buf, 0, total);
    wr32(buf, SCHED_TABLE_MAGIC);
    wr16(buf + 4, SCHED_TABLE_VERSION);
    wr16(buf + 6, SCHED_TABLE_HEADER_BYTES);
    wr32(buf + 8, total);
    buf[12] = s->shape.dims;
    buf[13] = s->shape.torus;
    buf[14] = (uint8_t)s->algo;
    buf[15] = (uint8_t)s->coll;
    wr16(buf + 16, s->shape.side[0]);
    wr16(buf + 18, s->shape.side[1]);
    wr16(buf + 20, s->shape.side[2]);
    buf[22] = (uint8_t)s->model;
    wr32(buf + 24, s->root);
    wr32(buf + 28, node);
    wr16(buf + 32, (uint16_t)s->nsteps);
    wr16(buf + 34, (uint16_t)ns);
    wr16(buf + 36, (uint16_t)nr);
    wr16(buf + 38, (uint16_t)parts);
    /* Records sorted by step then port: messages are sorted by step; within a step, ports
     * in increasing order, then message order. The receiver of a transit send numbers its
     * transit receives in that same order: its slot (rslot) is counted over every message
     * before this one to the same receiver. */
    const uint32_t nodes = sched_nodes(&s->shape);
    uint8_t *ps = buf + SCHED_TABLE_HEADER_BYTES, *pr = ps + ns * SCHED_TABLE_SEND_BYTES;
    uint32_t i = 0;
    while (i < s->count) {
        uint32_t j = i;
        while (j < s->count && s->msgs[j].step == s->msgs[i].step) j++;
        for (uint32_t port = 0; port < 2u * SCHED_MAX_DIMS; port++) {
            for (uint32_t k = i; k < j; k++) {
                const sched_msg *m = &s->msgs[k];
                const int transit = table_transit(s, m, parts, nodes);
                if (m->src == node && sched_msg_send_port(m) == port) {
                    wr16(ps, m->step);
                    ps[2] = (uint8_t)port;
                    ps[3] = transit ? (uint8_t)SCHED_MSG_TRANSIT : 0u;
                    for (unsigned d = 0; d < SCHED_MAX_DIMS; d++) wr16(ps + 4 + 2 * d, (uint16_t)m->hops[d]);
                    if (transit) {
                        uint32_t slot = s->rslot ? s->rslot[k] : transit_slot(s, k, parts, nodes);
                        if (slot > 0xffffu) return SCHED_TABLE_ERR_LAYOUT;
                        wr16(ps + 10, (uint16_t)slot);
                    }
                    wr32(ps + 12, m->dst);
                    wr32(ps + 16, m->piece);
                    ps += SCHED_TABLE_SEND_BYTES;
                }
                if (m->dst == node && sched_msg_recv_port(m, s->shape.dims) == port) {
                    wr16(pr, m->step);
                    pr[2] = (uint8_t)port;
                    pr[3] = transit ? (uint8_t)SCHED_MSG_TRANSIT : 0u;
                    wr32(pr + 4, m->src);
                    wr32(pr + 8, m->piece);
                    pr += SCHED_TABLE_RECV_BYTES;
                }
            }
        }
        i = j;
    }
    wr32(buf + 40, checksum(buf, total));
    return (int32_t)total;
}
