/* SPDX-License-Identifier: ISC
 * Fuzz harness: the schedule table validators of firmware/sched/sched_table.c, as the
 * loaders use them (mesh-sim's --job, schedgen --verify-tables, the kit's runtime). The input
 * is a file as any of them may be handed: a tables file (one table per node), one node's
 * area, or a program's package. Every validator runs on it; whatever one accepts is then
 * read entry by entry, so a validator that lets a bad layout through shows as an
 * out-of-bounds read under AddressSanitizer. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sched.h"
#include "sched_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint32_t sink;

static void walk_table(const sched_table *t)
{
    uint32_t acc = sched_table_parts(t);
    for (uint32_t i = 0; i < t->nsend; i++) {
        sched_table_send s;
        sched_table_get_send(t, i, &s);
        acc += s.dst + s.piece + s.step + s.rslot;
    }
    for (uint32_t i = 0; i < t->nrecv; i++) {
        sched_table_recv r;
        sched_table_get_recv(t, i, &r);
        acc += r.src + r.piece + r.step;
    }
    sink += acc;
}

static void walk_area(const uint8_t *buf, uint32_t len, const sched_shape *expect, uint32_t node, int check_sum)
{
    sched_area a;
    if (sched_area_open(buf, len, expect, node, check_sum, &a) != SCHED_TABLE_OK) return;
    for (uint32_t i = 0; i < a.count; i++) {
        sched_area_entry e;
        sched_area_get_entry(&a, i, &e);
        sched_table t;
        /* the area said the entry's table lies inside it: the loader opens it without the checksum */
        if (e.table_off <= a.total_bytes &&
            sched_table_open_header(a.base + e.table_off, a.total_bytes - e.table_off, expect, node, &t) ==
                SCHED_TABLE_OK)
            walk_table(&t);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1u << 20) return 0;
    const uint32_t len = (uint32_t)size;
    /* the shapes of the tests: the 4x4 torus of config.mk and a 3x3x3 mesh */
    sched_shape shapes[2];
    memset(shapes, 0, sizeof shapes);
    shapes[0].dims = 2; shapes[0].torus = 1; shapes[0].side[0] = 4; shapes[0].side[1] = 4; shapes[0].side[2] = 1;
    shapes[1].dims = 3; shapes[1].torus = 0; shapes[1].side[0] = 3; shapes[1].side[1] = 3; shapes[1].side[2] = 3;

    sched_table t;
    if (sched_table_open(data, len, NULL, UINT32_MAX, &t) == SCHED_TABLE_OK) walk_table(&t);
    if (sched_table_open_header(data, len, NULL, UINT32_MAX, &t) == SCHED_TABLE_OK) walk_table(&t);
    /* a tables file: a node's table found by walking the file (mesh-sim --job), for the
     * first, second and last node (the walk below reads every table of the file) */
    for (int k = 0; k < 2; k++) {
        const uint32_t nodes = sched_nodes(&shapes[k]);
        const uint32_t which[3] = {0, 1, nodes - 1u};
        for (int i = 0; i < 3; i++)
            if (sched_table_find(data, len, &shapes[k], which[i], &t) == SCHED_TABLE_OK) walk_table(&t);
    }
    /* schedgen --verify-tables: tables back to back, node after node */
    for (uint32_t off = 0, n = 0; off < len && n < 64; n++) {
        if (sched_table_open(data + off, len - off, NULL, UINT32_MAX, &t) != SCHED_TABLE_OK) break;
        walk_table(&t);
        if (t.total_bytes == 0) break;
        off += t.total_bytes;
    }
    /* one node's area (as the runtime finds it in RAM), with and without the checksum */
    walk_area(data, len, NULL, UINT32_MAX, 1);
    walk_area(data, len, NULL, UINT32_MAX, 0);
    /* a program's package: every node's area (mesh-sim, before reset) */
    sched_pkg p;
    if (sched_pkg_open(data, len, NULL, &p) == SCHED_TABLE_OK) {
        for (uint32_t n = 0; n < p.nodes && n < 4096; n++) {
            const uint8_t *area;
            uint32_t area_len;
            if (sched_pkg_area(&p, n, &area, &area_len) != SCHED_TABLE_OK) continue;
            walk_area(area, area_len, &p.shape, n, 1);
        }
    }
    return 0;
}
