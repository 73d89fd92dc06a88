/* SPDX-License-Identifier: ISC
 * rvmesh collectives: the error messages (coll_fail prints one unless the context is quiet),
 * the error codes and the collectives by name. Below coll.c and coll_plan.c, which both use it.
 * See coll.h. */
#include "coll.h"

#include <stdarg.h>
#include <stdio.h>

#include "coll_internal.h"

/* ---- messages ---- */
int coll_fail(const coll_ctx *ctx, int code, const char *name, const char *fmt, ...)
{
    if (!ctx->quiet) {
        if (ctx->ni.dims == 3)
            printf("node (%u,%u,%u): %s: ", ctx->ni.coord[0], ctx->ni.coord[1], ctx->ni.coord[2], name);
        else
            printf("node (%u,%u): %s: ", ctx->ni.coord[0], ctx->ni.coord[1], name);
        va_list ap;
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf(" (%s)\n", coll_strerror(code));
    }
    return code;
}

const char *coll_strerror(int code)
{
    switch (code) {
    case COLL_OK: return "ok";
    case COLL_ENI: return "no network interface with plans (or coll_init not called)";
    case COLL_EARG: return "null or misaligned pointer, a buffer outside RAM, or buffers that overlap";
    case COLL_EROOT: return "root is not a node of this machine (or a rank of the communicator)";
    case COLL_EROOT_TABLE: return "root differs from the table's root";
    case COLL_ESIZE: return "message size m must be a non-zero multiple of 4 * parts";
    case COLL_ESEND_SPACE: return "send buffer too small";
    case COLL_ERECV_SPACE: return "result buffer too small";
    case COLL_EWORKSPACE: return "workspace too small";
    case COLL_ESHAPE: return "table built for another machine shape (or another part of the machine)";
    case COLL_ENODE: return "table belongs to another node";
    case COLL_ETABLE: return "table damaged, inconsistent or not runnable";
    case COLL_ECOLLECTIVE: return "table is for another collective";
    case COLL_EUNEXPECTED: return "unexpected worm (no window or plan of this node)";
    case COLL_EWORM: return "malformed worm";
    case COLL_EREFUSED: return "a worm was refused by the network interface";
    case COLL_ETIMEOUT: return "timed out waiting for the network";
    case COLL_EDESC: return "the network interface refused a descriptor or window";
    case COLL_EBUSY: return "a plan is running";
    case COLL_EOVERFLOW: return "a network interface counter overflowed";
    case COLL_EUNDECLARED: return "collective not declared";
    case COLL_ENOTABLES: return "no usable tables in this node's RAM";
    }
    return "unknown collectives error";
}

/* a communicator's name by its index (coll_comm.dim): a row (x), a column (y), a pillar (z,
 * 3-D machines), an XY plane (3 on 3-D machines) */
const char *coll_line_name(uint32_t dim)
{
    return dim == 0 ? "row" : dim == 1 ? "column" : dim == 2 ? "pillar" : dim == 3 ? "plane" : dim == 4 ? "block"
           : "line";
}

const char *coll_name(uint32_t collective)
{
    switch (collective) {
    case 1u: return "bcast";
    case 2u: return "scatter";
    case 3u: return "gather";
    case 16u: return "allgather";
    case 17u: return "alltoall";
    case 18u: return "partial allgather";
    case 19u: return "partial alltoall";
    case 20u: return "partial gather";
    }
    return "unknown";
}
