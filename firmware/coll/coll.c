/* SPDX-License-Identifier: ISC
 * rvmesh collectives: the context, tables, and the blocking calls (a plan compiled, started
 * and waited for; coll_plan.c has the plans, coll_msg.c the error messages). See coll.h. */
#include "coll.h"

#include <stdio.h>
#include <string.h>

#include "coll_internal.h"
#include "coll_jobs.h"
#include "rvmesh_rt.h"

/* ---- setup ---- */
int coll_init(coll_ctx *ctx, void *workspace, uint32_t workspace_bytes)
{
    coll_clear_words(ctx, sizeof *ctx);
    if (ni_init(&ctx->ni) != NI_OK || !ni_has_plans())
        return COLL_ENI;
    if (((uintptr_t)workspace & 3u) != 0 || (!workspace && workspace_bytes))
        return COLL_EARG;
    ctx->shape.dims = ctx->ni.dims;
    ctx->shape.torus = ctx->ni.torus;
    for (unsigned d = 0; d < SCHED_MAX_DIMS; ++d)
        ctx->shape.side[d] = d < ctx->ni.dims ? ctx->ni.size[d] : 1u;
    ctx->workspace = workspace;
    ctx->workspace_bytes = workspace_bytes;
    ctx->line_words = (uint8_t)ni_line_words();
    /* every worm that arrives (on the ports and the local one) is a put or a signal */
    ni_plan_mode((2u << ctx->ni.ports) - 1u);
    /* counters with no port behind them (ports + 1 .. COLL_BARRIER_COUNTER - 1): no target,
     * once (a plan's start writes counters 0 .. NI_MAX_PORTS, those past the ports with none) */
    for (unsigned q = ctx->ni.ports + 1u; q < COLL_BARRIER_COUNTER; ++q) {
        NI_REG(NI_CNT(q)) = 0;
        NI_REG(NI_CNT_TARGET(q)) = 0;
    }
    ctx->initialised = 1;
    return COLL_OK;
}

static int map_table_error(int rc)
{
    switch (rc) {
    case SCHED_TABLE_OK: return COLL_OK;
    case SCHED_TABLE_ERR_SHAPE: return COLL_ESHAPE;
    case SCHED_TABLE_ERR_NODE: return COLL_ENODE;
    }
    return COLL_ETABLE;
}

int coll_open_table(coll_ctx *ctx, const void *table_bytes, uint32_t len, sched_table *table)
{
    if (!ctx || !ctx->initialised)
        return COLL_ENI;
    if (!table_bytes || !table)
        return coll_fail(ctx, COLL_EARG, "coll_open_table", "null table pointer");
    int rc = sched_table_open(table_bytes, len, &ctx->shape, ctx->ni.node, table);
    if (rc == SCHED_TABLE_ERR_SHAPE)
        coll_fail(ctx, COLL_ESHAPE, "coll_open_table", "table built for a %ux%ux%u %s, this machine is a "
                  "%ux%ux%u %s: regenerate it for this shape", table->shape.side[0], table->shape.side[1],
                  table->shape.side[2], table->shape.torus ? "torus" : "mesh", ctx->shape.side[0],
                  ctx->shape.side[1], ctx->shape.side[2], ctx->shape.torus ? "torus" : "mesh");
    else if (rc == SCHED_TABLE_ERR_NODE)
        coll_fail(ctx, COLL_ENODE, "coll_open_table", "table of node %lu, this is node %u",
                  (unsigned long)table->node, ctx->ni.node);
    else if (rc != SCHED_TABLE_OK)
        coll_fail(ctx, COLL_ETABLE, "coll_open_table", "%s", sched_table_strerror(rc));
    return map_table_error(rc);
}

uint32_t coll_workspace_bytes(const coll_ctx *ctx, const sched_table *t, uint32_t m)
{
    uint32_t bytes = coll_plan_workspace_bytes(ctx, t, m);
    return bytes ? bytes + 12u : 0u;   /* the blocking calls align the workspace to 16 bytes */
}

/* ---- the blocking calls (coll_call: coll_internal.h) ---- */

static int refused(coll_ctx *ctx, const coll_comm *comm, const sched_table *t, const char *name, int rc)
{
    /* the call counts on every node (of the communicator): take part in its barrier, or move
     * the epoch on */
    if (t && t->base && rc != COLL_ENI && !ctx->running)
        coll_skip_call_on(ctx, comm, t, name);
    return rc;
}

int coll_call_compile(coll_ctx *ctx, const sched_table *t, const coll_call *c, coll_plan *plan, void *workspace,
                      uint32_t workspace_bytes)
{
    if (!ctx || !ctx->initialised)
        return COLL_ENI;
    ctx->err_src = ctx->err_port = 0;
    ctx->setup_cycles = 0;
    if (!t || !t->base)
        return coll_fail(ctx, COLL_EARG, c->name, "no table (open it with coll_open_table)");
    if (t->collective != c->collective)
        return refused(ctx, c->comm, t, c->name,
                       coll_fail(ctx, COLL_ECOLLECTIVE, c->name, "table is a %s schedule, not %s",
                                 coll_name(t->collective), coll_name(c->collective)));
    if (c->has_root) {
        const uint32_t nodes = c->comm ? c->comm->size : ctx->ni.nodes;
        if (c->root >= nodes)
            return refused(ctx, c->comm, t, c->name,
                           coll_fail(ctx, COLL_EROOT, c->name, "root %lu is off the %s (%s 0..%lu)",
                                     (unsigned long)c->root, !c->comm ? "machine" : coll_line_name(c->comm->dim),
                                     c->comm ? "ranks" : "nodes", (unsigned long)(nodes - 1u)));
        if (c->root != t->root)
            return refused(ctx, c->comm, t, c->name,
                           coll_fail(ctx, COLL_EROOT_TABLE, c->name, "root %lu, but the table was built for root %lu",
                                     (unsigned long)c->root, (unsigned long)t->root));
    }
    int rc = coll_plan_compile(plan, ctx, c->comm, t, c->send, c->send_bytes, c->recv, c->recv_bytes, c->m,
                               workspace, workspace_bytes, c->name);
    ctx->setup_cycles = plan->compile_cycles;
    return rc == COLL_OK ? rc : refused(ctx, c->comm, t, c->name, rc);
}

int coll_blocking(coll_ctx *ctx, const sched_table *t, const coll_call *c)
{
    if (!ctx || !ctx->initialised)
        return COLL_ENI;
    /* the plan in the context's workspace, aligned to 16 bytes */
    uintptr_t ws = ((uintptr_t)ctx->workspace + 15u) & ~(uintptr_t)15u;
    uint32_t skip = (uint32_t)(ws - (uintptr_t)ctx->workspace);
    uint32_t ws_bytes = ctx->workspace_bytes > skip ? ctx->workspace_bytes - skip : 0u;
    coll_plan plan;
    int rc = coll_call_compile(ctx, t, c, &plan, (void *)ws, ws_bytes);
    if (rc != COLL_OK)
        return rc;
    rc = coll_plan_start(&plan);
    if (rc != COLL_OK)
        return rc;
    return coll_plan_wait(&plan);
}

int coll_bcast(coll_ctx *ctx, const sched_table *t, void *buf, uint32_t buf_bytes, uint32_t m, uint32_t root)
{
    coll_call c = {"coll_bcast", 1u, 0, 0, buf, buf_bytes, m, root, 1, 0};
    return coll_blocking(ctx, t, &c);
}

int coll_scatter(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                 uint32_t recv_bytes, uint32_t m, uint32_t root)
{
    coll_call c = {"coll_scatter", 2u, send, send_bytes, recv, recv_bytes, m, root, 1, 0};
    return coll_blocking(ctx, t, &c);
}

int coll_gather(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                uint32_t recv_bytes, uint32_t m, uint32_t root)
{
    coll_call c = {"coll_gather", 3u, send, send_bytes, recv, recv_bytes, m, root, 1, 0};
    return coll_blocking(ctx, t, &c);
}

int coll_allgather(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                   uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_allgather", 16u, send, send_bytes, recv, recv_bytes, m, 0, 0, 0};
    return coll_blocking(ctx, t, &c);
}

int coll_alltoall(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                  uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_alltoall", 17u, send, send_bytes, recv, recv_bytes, m, 0, 0, 0};
    return coll_blocking(ctx, t, &c);
}

int coll_allgather_partial(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                           uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_allgather_partial", 18u, send, send_bytes, recv, recv_bytes, m, 0, 0, 0};
    return coll_blocking(ctx, t, &c);
}

int coll_alltoall_partial(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                          uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_alltoall_partial", 19u, send, send_bytes, recv, recv_bytes, m, 0, 0, 0};
    return coll_blocking(ctx, t, &c);
}

int coll_gather_partial(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
                        uint32_t recv_bytes, uint32_t m)
{
    coll_call c = {"coll_gather_partial", 20u, send, send_bytes, recv, recv_bytes, m, 0, 0, 0};
    return coll_blocking(ctx, t, &c);
}

int coll_run(coll_ctx *ctx, const sched_table *t, const void *send, uint32_t send_bytes, void *recv,
             uint32_t recv_bytes, uint32_t m)
{
    if (!ctx || !ctx->initialised)
        return COLL_ENI;
    if (!t || !t->base)
        return coll_fail(ctx, COLL_EARG, "coll_run", "no table (open it with coll_open_table)");
    switch (t->collective) {
    case 1u: return coll_bcast(ctx, t, recv, recv_bytes, m, t->root);
    case 2u: return coll_scatter(ctx, t, send, send_bytes, recv, recv_bytes, m, t->root);
    case 3u: return coll_gather(ctx, t, send, send_bytes, recv, recv_bytes, m, t->root);
    case 16u: return coll_allgather(ctx, t, send, send_bytes, recv, recv_bytes, m);
    case 17u: return coll_alltoall(ctx, t, send, send_bytes, recv, recv_bytes, m);
    case 18u: return coll_allgather_partial(ctx, t, send, send_bytes, recv, recv_bytes, m);
    case 19u: return coll_alltoall_partial(ctx, t, send, send_bytes, recv, recv_bytes, m);
    case 20u: return coll_gather_partial(ctx, t, send, send_bytes, recv, recv_bytes, m);
    }
    return coll_fail(ctx, COLL_ECOLLECTIVE, "coll_run", "the table's collective %u is not one this library runs",
                     t->collective);
}
