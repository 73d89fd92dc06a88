/* SPDX-License-Identifier: ISC */
/* Shapes, node ids, ports, distances and lower bounds. Portable, no allocation. */
#include "sched.h"

#include <stdio.h>
#include <string.h>

sched_shape sched_shape_make(unsigned dims, unsigned x, unsigned y, unsigned z, int torus)
{
    sched_shape s;
    memset(&s, 0, sizeof s);
    s.dims = (uint8_t)dims;
    s.torus = (uint8_t)(torus != 0);
    s.side[0] = (uint16_t)x;
    s.side[1] = (uint16_t)y;
    s.side[2] = (uint16_t)(dims == 3 ? z : 1u);
    return s;
}

void sched_node_text(const sched_shape *shape, uint32_t id, char *buf, size_t len)
{
    int32_t c[SCHED_MAX_DIMS];
    if (id >= sched_nodes(shape)) { snprintf(buf, len, "#%lu", (unsigned long)id); return; }
    sched_node_coord(shape, id, c);
    if (shape->dims == 3) snprintf(buf, len, "(%ld,%ld,%ld)", (long)c[0], (long)c[1], (long)c[2]);
    else if (shape->dims == 2) snprintf(buf, len, "(%ld,%ld)", (long)c[0], (long)c[1]);
    else snprintf(buf, len, "(%ld)", (long)c[0]);
}

uint32_t sched_nodes(const sched_shape *shape)
{
    uint32_t n = 1;
    for (unsigned d = 0; d < shape->dims; d++) n *= shape->side[d];
    return n;
}

uint32_t sched_node_id(const sched_shape *shape, const int32_t coord[SCHED_MAX_DIMS])
{
    uint32_t id = 0;
    for (int d = (int)shape->dims - 1; d >= 0; d--) id = id * shape->side[d] + (uint32_t)coord[d];
    return id;
}

void sched_node_coord(const sched_shape *shape, uint32_t id, int32_t coord[SCHED_MAX_DIMS])
{
    for (unsigned d = 0; d < SCHED_MAX_DIMS; d++) {
        if (d < shape->dims) {
            coord[d] = (int32_t)(id % shape->side[d]);
            id /= shape->side[d];
        } else {
            coord[d] = 0;
        }
    }
}

const char *sched_shape_problem(const sched_shape *shape)
{
    if (shape->dims < 1 || shape->dims > SCHED_MAX_DIMS) return "the shape must have 1 to 3 dimensions";
    uint64_t n = 1;
    for (unsigned d = 0; d < shape->dims; d++) {
        if (shape->side[d] < 2) return "every side length must be at least 2";
        if (shape->side[d] > SCHED_MAX_SIDE) return "a side length is above 1024";
        n *= shape->side[d];
    }
    for (unsigned d = shape->dims; d < SCHED_MAX_DIMS; d++)
        if (shape->side[d] != 1) return "unused dimensions must have side 1";
    if (n > SCHED_MAX_NODES) return "the shape has more than 1048576 nodes";
    if (shape->torus > 1) return "torus must be 0 (mesh) or 1 (torus)";
    return 0;
}

const char *sched_subshape_problem(const sched_shape *shape)
{
    /* a line: one side of 2 or more, every other side of its dimensions 1 (a row or a column
     * of a 2-D machine, a row, column or pillar of a 3-D one), checked with those sides as 2 */
    unsigned ones = 0;
    for (unsigned d = 0; d < shape->dims && d < SCHED_MAX_DIMS; d++) ones += shape->side[d] == 1;
    if (shape->dims >= 2 && shape->dims <= SCHED_MAX_DIMS && ones == shape->dims - 1u) {
        sched_shape line = *shape;
        for (unsigned d = 0; d < shape->dims; d++)
            if (line.side[d] == 1) line.side[d] = 2;
        return sched_shape_problem(&line);
    }
    return sched_shape_problem(shape);
}

int64_t sched_neighbour(const sched_shape *shape, uint32_t id, uint8_t port)
{
    int32_t c[SCHED_MAX_DIMS];
    unsigned dim = port >> 1;
    if (dim >= shape->dims) return -1;
    sched_node_coord(shape, id, c);
    int32_t side = shape->side[dim];
    c[dim] += (port & 1u) ? -1 : 1;
    if (c[dim] < 0 || c[dim] >= side) {
        if (!shape->torus) return -1;
        c[dim] = (c[dim] + side) % side;
    }
    return (int64_t)sched_node_id(shape, c);
}

static uint32_t dist1(const sched_shape *shape, unsigned d, int32_t a, int32_t b)
{
    uint32_t diff = (uint32_t)(a > b ? a - b : b - a);
    if (shape->torus && shape->side[d] - diff < diff) diff = shape->side[d] - diff;
    return diff;
}

uint32_t sched_distance(const sched_shape *shape, uint32_t a, uint32_t b)
{
    int32_t ca[SCHED_MAX_DIMS], cb[SCHED_MAX_DIMS];
    sched_node_coord(shape, a, ca);
    sched_node_coord(shape, b, cb);
    uint32_t sum = 0;
    for (unsigned d = 0; d < shape->dims; d++) sum += dist1(shape, d, ca[d], cb[d]);
    return sum;
}

uint32_t sched_eccentricity(const sched_shape *shape, uint32_t id)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(shape, id, c);
    uint32_t sum = 0;
    for (unsigned d = 0; d < shape->dims; d++) {
        int32_t s = shape->side[d];
        if (shape->torus) sum += (uint32_t)(s / 2);
        else sum += (uint32_t)(c[d] > s - 1 - c[d] ? c[d] : s - 1 - c[d]);
    }
    return sum;
}

uint32_t sched_degree(const sched_shape *shape, uint32_t id)
{
    int32_t c[SCHED_MAX_DIMS];
    sched_node_coord(shape, id, c);
    uint32_t deg = 0;
    for (unsigned d = 0; d < shape->dims; d++) {
        int32_t s = shape->side[d];
        if (shape->torus) deg += s == 2 ? 1u : 2u;
        else deg += (uint32_t)(c[d] > 0) + (uint32_t)(c[d] < s - 1);
    }
    return deg;
}

uint32_t sched_msg_length(const sched_msg *msg, uint8_t dims)
{
    uint32_t sum = 0;
    for (unsigned d = 0; d < dims; d++) sum += (uint32_t)(msg->hops[d] < 0 ? -msg->hops[d] : msg->hops[d]);
    return sum;
}

uint8_t sched_msg_send_port(const sched_msg *msg)
{
    return sched_port(msg->start_dim, msg->hops[msg->start_dim]);
}

uint8_t sched_msg_recv_port(const sched_msg *msg, uint8_t dims)
{
    /* The last dimension moved in, in cyclic order from the start dimension; the message
     * arrives through the port on the side it comes from (opposite to its travel). */
    for (unsigned k = dims; k-- > 0;) {
        unsigned d = (msg->start_dim + k) % dims;
        if (msg->hops[d] != 0) return sched_port((uint8_t)d, msg->hops[d] > 0 ? -1 : 1);
    }
    return 0xff;
}

uint32_t sched_lb_allport_bcast(const sched_shape *shape)
{
    uint64_t q = 2u * shape->dims + 1u, reach = 1, n = sched_nodes(shape);
    uint32_t t = 0;
    while (reach < n) { reach *= q; t++; }
    return t;
}

uint32_t sched_lb_oneport_bcast(const sched_shape *shape)
{
    uint64_t reach = 1, n = sched_nodes(shape);
    uint32_t t = 0;
    while (reach < n) { reach *= 2; t++; }
    return t;
}

uint32_t sched_lb_scatter(const sched_shape *shape, uint32_t root)
{
    uint32_t deg = sched_degree(shape, root), n = sched_nodes(shape);
    return (n - 1 + deg - 1) / deg;
}
