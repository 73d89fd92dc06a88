/* SPDX-License-Identifier: ISC */
/* Host-side writers: the text dump, the tables file and the SVG picture. */
#include "out/sched_out.h"
#include "check/sched_check.h"
#include "sched_coll.h"   /* issue-5 collectives in the dump */

#include <stdlib.h>
#include <string.h>

void sched_coord_text(const sched_shape *sh, uint32_t id, char *buf, size_t len)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(sh, id, c);
    if (sh->dims == 3) snprintf(buf, len, "%ld,%ld,%ld", (long)c[0], (long)c[1], (long)c[2]);
    else snprintf(buf, len, "%ld,%ld", (long)c[0], (long)c[1]);
}

void sched_shape_text(const sched_shape *sh, char *buf, size_t len)
{
    if (sh->dims == 3) snprintf(buf, len, "%ux%ux%u", sh->side[0], sh->side[1], sh->side[2]);
    else snprintf(buf, len, "%ux%u", sh->side[0], sh->side[1]);
}

int sched_write_dump(const sched_schedule *s, FILE *f)
{
    char shape[40], root[40], a[40], b[40];
    sched_shape_text(&s->shape, shape, sizeof shape);
    sched_coord_text(&s->shape, s->root, root, sizeof root);
    fprintf(f, "# rvmesh schedule dump v1: shape %s %s, algo %s, collective %s, model %s, root %s, steps %lu, messages %lu\n",
            shape, s->shape.torus ? "torus" : "mesh", sched_algo_name(s->algo), sched_coll_name(s->coll),
            sched_model_name(s->model), root, (unsigned long)s->nsteps, (unsigned long)s->count);
    /* a broadcast's pieces only when its block is cut into parts (bcast-edst) */
    const int bcast_parts = s->coll == SCHED_COLL_BCAST && sched_coll_parts(s) > 1u;
    fprintf(f, "# step src dst start_dim dir%s\n", s->coll == SCHED_COLL_BCAST && !bcast_parts ? "" : " piece");
    for (uint32_t i = 0; i < s->count; i++) {
        const sched_msg *m = &s->msgs[i];
        sched_coord_text(&s->shape, m->src, a, sizeof a);
        sched_coord_text(&s->shape, m->dst, b, sizeof b);
        fprintf(f, "%u %s %s %u %c", (unsigned)m->step, a, b, (unsigned)m->start_dim,
                m->hops[m->start_dim] < 0 ? '-' : '+');
        if (bcast_parts) {
            fprintf(f, " %lu", (unsigned long)m->piece);
        } else if (sched_coll_is_collective((int)s->coll)) {   /* issue 5: piece number, relay flag */
            fprintf(f, " %lu%s", (unsigned long)m->piece, (m->reserved & SCHED_MSG_TRANSIT) ? " relay" : "");
        } else if (s->coll != SCHED_COLL_BCAST) {
            sched_coord_text(&s->shape, m->piece, a, sizeof a);
            fprintf(f, " %s", a);
        }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

typedef struct {
    FILE *f;
    uint32_t biggest;
    uint64_t total;
} file_sink;

static int to_file(void *ctx, uint32_t node, const uint8_t *table, uint32_t bytes)
{
    file_sink *k = ctx;
    (void)node;
    if (fwrite(table, 1, bytes, k->f) != bytes) return -1;
    if (bytes > k->biggest) k->biggest = bytes;
    k->total += bytes;
    return 0;
}

int sched_write_tables(const sched_schedule *s, FILE *f, uint32_t *max_bytes, uint64_t *total_bytes)
{
    file_sink k = {f, 0, 0};
    int rc = sched_each_table(s, to_file, &k);
    if (max_bytes) *max_bytes = k.biggest;
    if (total_bytes) *total_bytes = k.total;
    return rc;
}

int sched_each_table(const sched_schedule *s, sched_table_sink sink, void *ctx)
{
    uint32_t n = sched_nodes(&s->shape);
    /* Per-node sub-schedules make the writer O(messages) overall instead of O(N * messages). */
    uint32_t *count = calloc((size_t)n + 1u, sizeof *count);
    sched_msg *sorted = malloc((size_t)(2u * s->count + 1u) * sizeof *sorted);
    uint8_t *buf = 0;
    uint16_t *sorted_rslot = 0;
    int rc = -1;
    if (!count || !sorted) goto out;
    for (uint32_t i = 0; i < s->count; i++) { count[s->msgs[i].src + 1]++; count[s->msgs[i].dst + 1]++; }
    for (uint32_t v = 0; v < n; v++) count[v + 1] += count[v];
    uint32_t *fill = malloc(((size_t)n + 1u) * sizeof *fill);
    if (!fill) goto out;
    memcpy(fill, count, ((size_t)n + 1u) * sizeof *fill);
    /* every message's transit slot at its receiver, from the whole schedule: its transit
     * receives in table order (step, then arrival port, then message order) */
    uint16_t *rslot = malloc((size_t)(s->count + 1u) * sizeof *rslot);
    sorted_rslot = malloc((size_t)(2u * s->count + 1u) * sizeof *sorted_rslot);
    uint32_t *next_slot = calloc((size_t)n + 1u, sizeof *next_slot);
    if (!rslot || !sorted_rslot || !next_slot) {
        free(fill);
        free(rslot);
        free(next_slot);
        goto out;
    }
    for (uint32_t i = 0; i < s->count;) {
        uint32_t j = i;
        while (j < s->count && s->msgs[j].step == s->msgs[i].step) j++;
        for (uint32_t port = 0; port < 2u * SCHED_MAX_DIMS; port++)
            for (uint32_t k = i; k < j; k++) {
                const sched_msg *m = &s->msgs[k];
                if (sched_msg_recv_port(m, s->shape.dims) != port) continue;
                rslot[k] = 0;
                if (sched_table_transit(s, m)) rslot[k] = (uint16_t)next_slot[m->dst]++;
            }
        i = j;
    }
    for (uint32_t i = 0; i < s->count; i++) {   /* stable: keeps step order per node */
        sorted_rslot[fill[s->msgs[i].src]] = rslot[i];
        sorted[fill[s->msgs[i].src]++] = s->msgs[i];
        sorted_rslot[fill[s->msgs[i].dst]] = rslot[i];
        sorted[fill[s->msgs[i].dst]++] = s->msgs[i];
    }
    free(fill);
    free(rslot);
    free(next_slot);
    for (uint32_t v = 0; v < n; v++) {
        sched_schedule sub = *s;
        sub.msgs = sorted + count[v];
        sub.count = count[v + 1] - count[v];
        sub.rslot = sorted_rslot + count[v];
        uint32_t bytes = sched_table_bytes(&sub, v);
        uint8_t *grown = realloc(buf, bytes);
        if (!grown) goto out;
        buf = grown;
        int32_t w = sched_table_write(&sub, v, buf, bytes);
        if (w < 0 || sink(ctx, v, buf, (uint32_t)w)) goto out;
    }
    rc = 0;
out:
    free(count);
    free(sorted);
    free(sorted_rslot);
    free(buf);
    return rc;
}

/* ---- a program's package: every node's area (sched_table.h) ---- */
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }
static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | get16(p + 2) << 16; }

typedef struct {
    uint8_t **tables;     /* per node: a copy of its table */
    uint32_t *bytes;
    uint32_t ws_fixed, ws_transit;
} item_tables;

static int keep_table(void *ctx, uint32_t node, const uint8_t *table, uint32_t bytes)
{
    item_tables *it = ctx;
    it->tables[node] = malloc(bytes);
    if (!it->tables[node]) return -1;
    memcpy(it->tables[node], table, bytes);
    it->bytes[node] = bytes;
    const uint32_t nsend = get16(table + 34), nrecv = get16(table + 36);
    uint32_t transit = 0;
    for (uint32_t r = 0; r < nrecv; r++)
        transit += (table[SCHED_TABLE_HEADER_BYTES + nsend * SCHED_TABLE_SEND_BYTES + r * SCHED_TABLE_RECV_BYTES + 3u] &
                    SCHED_MSG_TRANSIT) != 0;
    const uint32_t fixed = 16u * (nsend + 1u) + 12u * nrecv;
    if (fixed > it->ws_fixed) it->ws_fixed = fixed;
    if (transit > it->ws_transit) it->ws_transit = transit;
    return 0;
}

static uint32_t fnv_skip(const uint8_t *p, uint32_t len, uint32_t skip)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < len; i++) h = (h ^ ((i >= skip && i < skip + 4u) ? 0u : p[i])) * 16777619u;
    return h;
}

/* the node of item's schedule whose table machine node v holds: v, or its rank in its line
 * (group 1 .. 3: its coordinate along it) or in its XY plane (group 4: x + X*y) */
static uint32_t table_node(const sched_shape *shape, const sched_pkg_item *item, uint32_t v)
{
    if (!item->group) return v;
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(shape, v, c);
    if (item->group == 4) return (uint32_t)c[0] + (uint32_t)shape->side[0] * (uint32_t)c[1];
    if (SCHED_LINE_IS_BLOCK(item->group)) {   /* a block's rank: x % bx + bx * (y % by) */
        const uint32_t bx = SCHED_LINE_BLOCK_X(item->group), by = SCHED_LINE_BLOCK_Y(item->group);
        return (uint32_t)c[0] % bx + bx * ((uint32_t)c[1] % by);
    }
    return (uint32_t)c[item->group - 1u];
}

int sched_write_package(const sched_shape *shape, const sched_pkg_item *items, uint32_t count, FILE *f,
                        sched_pkg_info *info)
{
    const uint32_t n = sched_nodes(shape);
    item_tables *it = calloc(count ? count : 1u, sizeof *it);
    uint8_t *area = 0;
    int rc = -1;
    memset(info, 0, sizeof *info);
    if (!it || count > 0xffffu) goto out;
    for (uint32_t i = 0; i < count; i++) {
        it[i].tables = calloc(n, sizeof *it[i].tables);
        it[i].bytes = calloc(n, sizeof *it[i].bytes);
        if (!it[i].tables || !it[i].bytes || sched_each_table(items[i].s, keep_table, &it[i])) goto out;
        if (it[i].ws_transit > 0xffffu) goto out;
    }
    /* sizes: every area, the largest */
    const uint32_t dir = SCHED_AREA_HEADER_BYTES + count * SCHED_AREA_ENTRY_BYTES;
    uint32_t largest = 0;
    uint64_t total = SCHED_PKG_HEADER_BYTES;
    for (uint32_t v = 0; v < n; v++) {
        uint64_t bytes = dir;
        for (uint32_t i = 0; i < count; i++) bytes += it[i].bytes[table_node(shape, &items[i], v)];
        bytes = (bytes + 7u) & ~(uint64_t)7u;
        if (bytes > 0xffffffffu) goto out;
        if (bytes > largest) largest = (uint32_t)bytes;
        total += bytes;
        info->mean_area_bytes += (double)bytes / n;
    }
    if (total > 0xffffffffu) goto out;
    uint8_t head[SCHED_PKG_HEADER_BYTES] = {0};
    put32(head, SCHED_PKG_MAGIC);
    put16(head + 4, SCHED_PKG_VERSION);
    put16(head + 6, SCHED_PKG_HEADER_BYTES);
    put32(head + 8, (uint32_t)total);
    head[12] = shape->dims;
    head[13] = shape->torus;
    put16(head + 14, count);
    put16(head + 16, shape->side[0]);
    put16(head + 18, shape->side[1]);
    put16(head + 20, shape->side[2]);
    put32(head + 24, n);
    put32(head + 28, largest);
    if (fwrite(head, 1, sizeof head, f) != sizeof head) goto out;
    area = malloc(largest ? largest : 1u);
    if (!area) goto out;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t at = dir;
        memset(area, 0, largest);
        put32(area, SCHED_AREA_MAGIC);
        put16(area + 4, SCHED_PKG_VERSION);
        put16(area + 6, SCHED_AREA_HEADER_BYTES);
        area[12] = shape->dims;
        area[13] = shape->torus;
        put16(area + 14, count);
        put16(area + 16, shape->side[0]);
        put16(area + 18, shape->side[1]);
        put16(area + 20, shape->side[2]);
        put32(area + 24, v);
        for (uint32_t i = 0; i < count; i++) {
            uint8_t *e = area + SCHED_AREA_HEADER_BYTES + i * SCHED_AREA_ENTRY_BYTES;
            const uint32_t tv = table_node(shape, &items[i], v);
            const uint8_t *t = it[i].tables[tv];
            e[0] = t[15];                                 /* collective */
            e[1] = t[14];                                 /* algo */
            put16(e + 2, get16(t + 38) ? get16(t + 38) : 1u);
            put32(e + 4, sched_coll_is_collective(t[15]) ? 0u : get32(t + 24));
            put32(e + 8, items[i].min_bytes);
            put32(e + 12, at);
            put32(e + 16, it[i].ws_fixed);
            put16(e + 20, it[i].ws_transit);
            e[22] = items[i].group;
            memcpy(area + at, t, it[i].bytes[tv]);
            if (items[i].group) {
                /* a line's or a plane's table: the machine's shape and node, its line in byte 23
                 * (sched_table.h), its checksum again */
                uint8_t *h = area + at;
                h[12] = shape->dims;
                h[13] = shape->torus;
                put16(h + 16, shape->side[0]);
                put16(h + 18, shape->side[1]);
                put16(h + 20, shape->side[2]);
                h[23] = items[i].group;
                put32(h + 28, v);
                put32(h + 40, fnv_skip(h, it[i].bytes[tv], 40u));
            }
            at += it[i].bytes[tv];
        }
        at = (at + 7u) & ~7u;
        put32(area + 8, at);
        put32(area + 28, fnv_skip(area, at, 28u));
        if (fwrite(area, 1, at, f) != at) goto out;
    }
    info->area_bytes = largest;
    info->total_bytes = (uint32_t)total;
    rc = 0;
out:
    if (it)
        for (uint32_t i = 0; i < count; i++) {
            if (it[i].tables)
                for (uint32_t v = 0; v < n; v++) free(it[i].tables[v]);
            free(it[i].tables);
            free(it[i].bytes);
        }
    free(it);
    free(area);
    return rc;
}

/* ---- SVG: one panel per step, nodes as dots, every hop of every message as a line in the
 * step's colour; wrap-around hops leave the grid and come back on the other side. */

typedef struct { double x, y; } xy;

static xy node_xy(const sched_shape *sh, const int32_t c[SCHED_MAX_DIMS], double cell, double ox, double oy)
{
    double layer_w = (sh->side[0] + 1) * cell;
    xy p;
    p.x = ox + cell * (c[0] + 1) + (sh->dims == 3 ? layer_w * c[2] : 0);
    p.y = oy + 20 + cell * (c[1] + 1);
    return p;
}

int sched_write_svg(const sched_schedule *s, FILE *f)
{
    const sched_shape *sh = &s->shape;
    uint32_t maxside = sh->side[0] > sh->side[1] ? sh->side[0] : sh->side[1];
    double cell = 360.0 / (maxside + 1);
    if (cell > 28) cell = 28;
    if (cell < 5) cell = 5;
    uint32_t layers = sh->dims == 3 ? sh->side[2] : 1;
    double pw = (sh->side[0] + 1) * cell * layers + 10, ph = (sh->side[1] + 1) * cell + 30;
    uint32_t steps = s->nsteps ? s->nsteps : 1, cols = steps < 4 ? steps : 4;
    if (pw > 600) cols = steps < 2 ? steps : 2;
    uint32_t rows = (steps + cols - 1) / cols;
    char shape[40], root[40];
    sched_shape_text(sh, shape, sizeof shape);
    sched_coord_text(sh, s->root, root, sizeof root);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n", cols * pw + 10, rows * ph + 40);
    fprintf(f, "<title>%s %s %s, root %s, %lu steps</title>\n", sched_algo_name(s->algo), shape,
            sh->torus ? "torus" : "mesh", root, (unsigned long)s->nsteps);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">%s on %s %s, root %s (%s): %lu steps, %lu messages</text>\n",
            sched_algo_name(s->algo), shape, sh->torus ? "torus" : "mesh", root, sched_model_name(s->model),
            (unsigned long)s->nsteps, (unsigned long)s->count);
    uint32_t n = sched_nodes(sh), i = 0;
    for (uint32_t t = 1; t <= steps; t++) {
        double ox = 5 + ((t - 1) % cols) * pw, oy = 30 + ((t - 1) / cols) * ph;
        double hue = (t - 1) * 300.0 / steps;
        fprintf(f, "<g id=\"step%lu\">\n<text x=\"%.1f\" y=\"%.1f\">step %lu</text>\n", (unsigned long)t, ox + cell,
                oy + 14, (unsigned long)t);
        for (uint32_t v = 0; v < n; v++) {
            int32_t c[SCHED_MAX_DIMS];
            sched_node_coord(sh, v, c);
            xy p = node_xy(sh, c, cell, ox, oy);
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", p.x, p.y, cell * 0.12,
                    v == s->root ? "black" : "#bbb");
        }
        for (; i < s->count && s->msgs[i].step == t; i++) {
            const sched_msg *m = &s->msgs[i];
            int32_t c[SCHED_MAX_DIMS];
            sched_node_coord(sh, m->src, c);
            fprintf(f, "<g stroke=\"hsl(%.0f,75%%,42%%)\" stroke-width=\"%.1f\">", hue, cell > 12 ? 2.0 : 1.0);
            for (uint32_t k = 0; k < sh->dims; k++) {
                uint32_t d = (m->start_dim + k) % sh->dims;
                int32_t h = m->hops[d], dir = h < 0 ? -1 : 1;
                for (int32_t j = 0; j < (h < 0 ? -h : h); j++) {
                    int32_t nc[SCHED_MAX_DIMS];
                    memcpy(nc, c, sizeof nc);
                    nc[d] += dir;
                    xy a = node_xy(sh, c, cell, ox, oy);
                    if (nc[d] < 0 || nc[d] >= sh->side[d]) {
                        nc[d] = (nc[d] + sh->side[d]) % sh->side[d];
                        xy b = node_xy(sh, nc, cell, ox, oy);
                        double ex = d == 0 ? dir * cell * 0.5 : 0, ey = d == 1 ? dir * cell * 0.5 : 0;
                        if (d == 2) ey = -cell * 0.4;   /* z wrap: a short tick */
                        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", a.x, a.y, a.x + ex, a.y + ey);
                        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", b.x - ex, b.y - ey, b.x, b.y);
                    } else {
                        xy b = node_xy(sh, nc, cell, ox, oy);
                        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", a.x, a.y, b.x, b.y);
                    }
                    memcpy(c, nc, sizeof c);
                }
            }
            xy dst = node_xy(sh, c, cell, ox, oy);
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"none\"/></g>\n", dst.x, dst.y, cell * 0.25);
        }
        fprintf(f, "</g>\n");
    }
    fprintf(f, "</svg>\n");
    return ferror(f) ? -1 : 0;
}
