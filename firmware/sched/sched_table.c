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
static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

static uint32_t checksum(const uint8_t *p, uint32_t len)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++) {
        uint8_t b = (i >= 40 && i < 44) ? 0 : p[i];
        h = (h ^ b) * 16777619u;
    }
    return h;
}

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
    }
    return "unknown table error";
}

int sched_table_open(const uint8_t *buf, uint32_t len, const sched_shape *expect, uint32_t expect_node,
                     sched_table *t)
{
    memset(t, 0, sizeof *t);
    if (len < SCHED_TABLE_HEADER_BYTES) return SCHED_TABLE_ERR_SHORT;
    if (rd32(buf) != SCHED_TABLE_MAGIC) return SCHED_TABLE_ERR_MAGIC;
    t->version = rd16(buf + 4);
    if (t->version != SCHED_TABLE_VERSION || rd16(buf + 6) != SCHED_TABLE_HEADER_BYTES) return SCHED_TABLE_ERR_VERSION;
    t->total_bytes = rd32(buf + 8);
    t->shape.dims = buf[12];
    t->shape.torus = buf[13];
    t->algo = buf[14];
    t->collective = buf[15];
    t->shape.side[0] = rd16(buf + 16);
    t->shape.side[1] = rd16(buf + 18);
    t->shape.side[2] = rd16(buf + 20);
    t->model = buf[22];
    t->root = rd32(buf + 24);
    t->node = rd32(buf + 28);
    t->nsteps = rd16(buf + 32);
    t->nsend = rd16(buf + 34);
    t->nrecv = rd16(buf + 36);
    t->parts = rd16(buf + 38);
    t->base = buf;
    if (expect && (t->shape.dims != expect->dims || t->shape.torus != expect->torus ||
                   t->shape.side[0] != expect->side[0] || t->shape.side[1] != expect->side[1] ||
                   t->shape.side[2] != expect->side[2]))
        return SCHED_TABLE_ERR_SHAPE;
    if (expect_node != UINT32_MAX && t->node != expect_node) return SCHED_TABLE_ERR_NODE;
    if (t->total_bytes != SCHED_TABLE_HEADER_BYTES + (uint32_t)t->nsend * SCHED_TABLE_SEND_BYTES +
                              (uint32_t)t->nrecv * SCHED_TABLE_RECV_BYTES)
        return SCHED_TABLE_ERR_LAYOUT;
    if (len < t->total_bytes) return SCHED_TABLE_ERR_SHORT;
    if (checksum(buf, t->total_bytes) != rd32(buf + 40)) return SCHED_TABLE_ERR_CHECKSUM;
    return SCHED_TABLE_OK;
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

uint32_t sched_table_parts(const sched_table *t)
{
    if (t->parts) return t->parts;
    return (t->algo == (uint8_t)SCHED_ALGO_MNB_SPLIT || t->algo == (uint8_t)SCHED_ALGO_PMNB_SPLIT) ? t->shape.dims : 1u;
}

void sched_table_get_send(const sched_table *t, uint32_t i, sched_table_send *o)
{
    const uint8_t *p = t->base + SCHED_TABLE_HEADER_BYTES + i * SCHED_TABLE_SEND_BYTES;
    o->step = rd16(p);
    o->port = p[2];
    o->flags = p[3];
    for (unsigned d = 0; d < SCHED_MAX_DIMS; d++) o->hops[d] = (int16_t)rd16(p + 4 + 2 * d);
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
    /* Records sorted by step then port: messages are sorted by step; within a step,
     * emit ports in increasing order. */
    uint8_t *ps = buf + SCHED_TABLE_HEADER_BYTES, *pr = ps + ns * SCHED_TABLE_SEND_BYTES;
    uint32_t i = 0;
    while (i < s->count) {
        uint32_t j = i;
        while (j < s->count && s->msgs[j].step == s->msgs[i].step) j++;
        for (uint32_t port = 0; port < 2u * SCHED_MAX_DIMS; port++) {
            for (uint32_t k = i; k < j; k++) {
                const sched_msg *m = &s->msgs[k];
                if (m->src == node && sched_msg_send_port(m) == port) {
                    wr16(ps, m->step);
                    ps[2] = (uint8_t)port;
                    ps[3] = (uint8_t)(m->reserved & SCHED_MSG_TRANSIT);
                    for (unsigned d = 0; d < SCHED_MAX_DIMS; d++) wr16(ps + 4 + 2 * d, (uint16_t)m->hops[d]);
                    wr32(ps + 12, m->dst);
                    wr32(ps + 16, m->piece);
                    ps += SCHED_TABLE_SEND_BYTES;
                }
                if (m->dst == node && sched_msg_recv_port(m, s->shape.dims) == port) {
                    wr16(pr, m->step);
                    pr[2] = (uint8_t)port;
                    pr[3] = (uint8_t)(m->reserved & SCHED_MSG_TRANSIT);
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
