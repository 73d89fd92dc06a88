/* SPDX-License-Identifier: ISC */
/* tools/sched/base: a node or a link of a machine as a command line gives it, parsed once for
 * every tool that takes one (schedgen --dead-link; mesh-sim --dead-link, --drop-flit,
 * --stall-link, --stop-node, which add their own "@CYCLE" after it). */
#ifndef RVMESH_SCHED_ARGS_H
#define RVMESH_SCHED_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* (C++ tools include firmware/sched/sched.h by its path first: a -I of firmware/sched would
 * shadow the system's <sched.h>) */
#ifndef RVMESH_SCHED_H
#include "sched.h"
#endif

/* A link: the cable at port `port` (2 dim, + 1 for the - side) of node `node`; its other
 * end is port `port ^ 1` of node `far`. */
typedef struct {
    uint32_t node;
    uint8_t port;
    uint32_t far;
} sched_link_arg;

/* "X,Y[,Z]": a node of `shape` (decimal coordinates, one per dimension). With `rest` NULL the
 * node must be the whole text; otherwise *rest is set to what follows it (for a suffix the
 * caller reads). 0, or -1 with a message in err (errlen bytes), naming option `opt` and
 * quoting `text`: "bad OPT 'TEXT': give the node as ..." or "... the node is outside the
 * shape (4x4)". */
int sched_parse_node_arg(const sched_shape *shape, const char *opt, const char *text, const char **rest,
                         uint32_t *node, char *err, size_t errlen);

/* "X,Y[,Z]:P": a link of `shape`, as schedgen's --dead-link takes it. `role` says what port P
 * is in the message of a malformed value ("it leaves by": "give the node and the port it
 * leaves by, like 1,2:3"). `rest` as above. Refused with a message: malformed, the node is
 * outside the shape, the port is not 0 .. 2 dims - 1, or no link is there (a mesh's edge). */
int sched_parse_link_arg(const sched_shape *shape, const char *opt, const char *role, const char *text,
                         const char **rest, sched_link_arg *link, char *err, size_t errlen);

#endif
