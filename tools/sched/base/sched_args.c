/* SPDX-License-Identifier: ISC */
/* tools/sched/base: nodes and links given on a command line (sched_args.h). */
#include "base/sched_args.h"

#include "base/sched_base.h"

/* a decimal number (digits only, at most 9 of them) at p; its end in *end. 0, or -1 */
static int read_decimal(const char *p, const char **end, long *value)
{
    long v = 0;
    int k = 0;
    for (; p[k] >= '0' && p[k] <= '9'; k++) {
        if (k == 9) return -1;
        v = v * 10 + (p[k] - '0');
    }
    if (k == 0) return -1;
    *end = p + k;
    *value = v;
    return 0;
}

/* the coordinates of a node ("X,Y[,Z]", one per dimension) at text; *end after them */
static int read_coords(const sched_shape *shape, const char *text, const char **end, long c[3])
{
    const char *p = text;
    for (int d = 0; d < shape->dims; d++) {
        if (d && *p++ != ',') return -1;
        if (read_decimal(p, &p, &c[d])) return -1;
    }
    *end = p;
    return 0;
}

static int node_of(const sched_shape *shape, const char *opt, const char *text, const long c[3], uint32_t *node,
                   char *err, size_t errlen)
{
    int32_t xc[SCHED_MAX_DIMS] = {0, 0, 0};
    for (int d = 0; d < shape->dims; d++) {
        if (c[d] >= shape->side[d]) {
            if (shape->dims == 3)
                return sched_fail(err, errlen, "bad %s '%s': the node is outside the shape (%ux%ux%u)", opt, text,
                                  (unsigned)shape->side[0], (unsigned)shape->side[1], (unsigned)shape->side[2]);
            return sched_fail(err, errlen, "bad %s '%s': the node is outside the shape (%ux%u)", opt, text,
                              (unsigned)shape->side[0], (unsigned)shape->side[1]);
        }
        xc[d] = (int32_t)c[d];
    }
    *node = sched_node_id(shape, xc);
    return 0;
}

int sched_parse_node_arg(const sched_shape *shape, const char *opt, const char *text, const char **rest,
                         uint32_t *node, char *err, size_t errlen)
{
    long c[3] = {0, 0, 0};
    const char *end = text;
    if (read_coords(shape, text, &end, c) || (!rest && *end))
        return sched_fail(err, errlen, "bad %s '%s': give the node as one coordinate per dimension, like %s", opt, text,
                          shape->dims == 3 ? "1,2,0" : "1,2");
    if (node_of(shape, opt, text, c, node, err, errlen)) return -1;
    if (rest) *rest = end;
    return 0;
}

int sched_parse_link_arg(const sched_shape *shape, const char *opt, const char *role, const char *text,
                         const char **rest, sched_link_arg *link, char *err, size_t errlen)
{
    long c[3] = {0, 0, 0}, port = 0;
    const char *end = text;
    if (read_coords(shape, text, &end, c) || *end != ':' || read_decimal(end + 1, &end, &port) || (!rest && *end))
        return sched_fail(err, errlen, "bad %s '%s': give the node and the port %s, like %s", opt, text, role,
                          shape->dims == 3 ? "1,2,0:3" : "1,2:3");
    uint32_t node = 0;
    if (node_of(shape, opt, text, c, &node, err, errlen)) return -1;
    if (port >= 2 * shape->dims)
        return sched_fail(err, errlen, "bad %s '%s': ports are 0..%d (2 dim, + 1 for the - side)", opt, text,
                          2 * shape->dims - 1);
    const int64_t far = sched_neighbour(shape, node, (uint8_t)port);
    if (far < 0 || far == (int64_t)node)
        return sched_fail(err, errlen, "bad %s '%s': no link leaves that node by that port (the mesh's edge)", opt,
                          text);
    link->node = node;
    link->port = (uint8_t)port;
    link->far = (uint32_t)far;
    if (rest) *rest = end;
    return 0;
}
