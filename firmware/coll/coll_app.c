/* SPDX-License-Identifier: ISC
 * rvmesh application kit: rvm_init and the MPI-like calls of rvmesh.h on the tables the
 * loader wrote into this node's RAM (sched_table.h: the node's area, at rvmesh_tables).
 *
 * Which table a call runs: the area has one entry per table, in the order the program's
 * Makefile declared them; "default" declares a collective's variants least preferred first
 * (schedgen --package). A call runs the LAST entry of its collective (and root) whose
 * smallest block is at most m, whose parts divide m / 4, and whose workspace (the most any
 * node needs, recorded in the entry) fits the free RAM. Every input of that choice is the
 * same on every node, so every node runs the same schedule.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "board_regs.h"
#include "coll_internal.h"
#include "rvmesh.h"
#include "sched_table.h"

/* the image: the area the loader fills (schedgen --asm; absent when nothing is declared) and
 * the free RAM between the program's data and its stack (linker/node.ld) */
extern const uint8_t rvmesh_tables[] __attribute__((weak));
extern const uint8_t rvmesh_tables_end[] __attribute__((weak));
extern uint8_t __heap_start[], __heap_end[];

#define RVM_MAX_TABLES 48u   /* a line bcast's default is 2 tables on a ring (saf-bcast, bcast-edst) */
#define RVM_PLANS 16u   /* SUMMA on the 8x8 torus: 16 broadcasts a product (8 made it compile every call) */

/* A compiled call kept for the next one with the same table, buffers and m (as an MPI-4
 * persistent collective, without the program asking): the next call only posts it. Plans
 * live in the free RAM, one after the other; when it is full they are all dropped. */
typedef struct {
    coll_plan plan;
    const void *send;
    void *recv;
    uint32_t m;
    int32_t entry;             /* the table's entry; -1: this slot is free */
} rvm_cached;

/* the communicators (rvm_comm): RVM_COMM_WORLD, then the row, the column, the pillar, the XY
 * plane and the block, which are comm[RVM_COMM_ROW - 1] ... comm[RVM_COMM_BLOCK - 1] (the line
 * along dimension group - 1; the plane; the block); an entry's flags say whose its table is (a block's
 * entries are RVM_COMM_BLOCK here, their tables' byte 23 in block_line) */
#define RVM_COMMS 6u
_Static_assert(RVM_COMM_ROW == 1 && RVM_COMM_COL == 2 && RVM_COMM_PILLAR == 3 && RVM_COMM_PLANE == 1 + COLL_COMM_PLANE &&
               RVM_COMM_BLOCK == 1 + COLL_COMM_BLOCK,
               "rvm_comm g is the line along dim g - 1, the XY plane (coll_comm.dim 3) or the block (4)");

static struct {
    coll_ctx ctx;
    coll_comm comm[RVM_COMMS - 1u];
    uint8_t has_comm[RVM_COMMS];   /* 0: not made yet, 1: made, 2: this machine has none */
    uint8_t block_line;            /* the blocks' tables' byte 23 (SCHED_LINE_BLOCK): their shape; 0: none */
    char block_prefix[16];         /* "blk2x2." */
    uint32_t count;
    uint32_t area_bytes;
    sched_table table[RVM_MAX_TABLES];
    sched_area_entry entry[RVM_MAX_TABLES];
    uint8_t *ws;
    uint32_t ws_bytes;
    uint32_t init_cycles;
    rvm_cached plans[RVM_PLANS];
    uint32_t arena_used;       /* free RAM taken by the kept plans */
    uint32_t next_slot;
    uint32_t last_kept;        /* the slot of the plan kept() found (or made) last */
    uint32_t plan_hits;        /* rvm_plan_stats: calls that reused a kept plan, */
    uint32_t plans_compiled;   /* plans compiled, */
    uint32_t plan_drops;       /* times kept plans were dropped for room in the free RAM */
    const char *reduce_path;
    uint32_t reserved;         /* top of the free RAM a reduction holds during its call */
    uint8_t initialised;
    uint8_t errors_return;
    uint8_t rings_off;         /* rvm_allreduce_rings(0) */
    uint8_t rings_checked;     /* rings_ws is known */
    uint32_t rings_ws;         /* the rings' workspace (rings_workspace), 0: this machine has none */
    uint8_t dbl_checked;       /* dbl_rounds and dbl_ws0 are known (dbl_here) */
    uint8_t dbl_rounds;        /* the doubling's rounds on this machine, 0: it has none */
    uint32_t dbl_ws0;          /* its workspace less its blocks (coll_dbl_allreduce_workspace(ctx, 0)) */
    struct rvmesh_region *comm_region;   /* RVM_COMM_REGION, found on the first call */
} kit;

/* every call's region timer, by its handle (no name search a call) */
static void comm_begin(void)
{
    if (!kit.comm_region)
        kit.comm_region = rvmesh_region_of(RVM_COMM_REGION);
    rvmesh_region_enter(kit.comm_region);
}
static void comm_end(void) { rvmesh_region_leave(kit.comm_region, 0); }

/* "node (x,y): " */
static void node_prefix(void)
{
    const struct ni_shape *s = &kit.ctx.ni;
    if (s->dims == 3)
        printf("node (%u,%u,%u): ", s->coord[0], s->coord[1], s->coord[2]);
    else
        printf("node (%u,%u): ", s->coord[0], s->coord[1]);
}

/* a failed call (its reason printed): end the node, unless errors return */
static int failed(int code, const char *name)
{
    if (kit.errors_return || code >= 0)
        return code;
    if (code == COLL_ETIMEOUT && !strcmp(name, "rvm_barrier")) {
        node_prefix();
        printf("%s: no progress for %lu cycles: did every node call rvm_barrier? (a node that computes longer "
               "than that before it: raise TIMEOUT in the Makefile, or call rvm_set_timeout)\n", name,
               (unsigned long)kit.ctx.timeout_cycles);
    } else if (code == COLL_ETIMEOUT) {
        node_prefix();
        printf("%s: no progress for %lu cycles: did every node make this call, with the same m and root? (a node "
               "that computes longer than that before a call: raise TIMEOUT in the Makefile, or call "
               "rvm_set_timeout)\n", name, (unsigned long)kit.ctx.timeout_cycles);
    }
    node_prefix();
    printf("%s failed with error %d: exit status %lu\n", name, code, (unsigned long)RVM_EXIT_STATUS(code));
    rvmesh_exit(RVM_EXIT_STATUS(code));
}

static int fail(int code, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(int code, const char *name, const char *fmt, ...)
{
    if (!kit.ctx.quiet) {
        node_prefix();
        printf("%s: ", name);
        va_list ap;
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf(" (%s)\n", coll_strerror(code));
    }
    return failed(code, name);
}

/* communicator `group` (RVM_COMM_ROW ... RVM_COMM_BLOCK) of this node, made on its first use (its
 * barrier's lists take about 1,100 cycles: rvm_init stays as quick for a program without
 * lines); NULL where the machine has none */
static const coll_comm *line_comm(uint32_t group)
{
    if (group == RVM_COMM_WORLD || group >= RVM_COMMS || !kit.ctx.initialised)
        return 0;
    if (!kit.has_comm[group])
        kit.has_comm[group] = (group == RVM_COMM_PLANE ? coll_comm_plane(&kit.ctx, &kit.comm[group - 1u])
                               : group == RVM_COMM_BLOCK ? (kit.block_line ? coll_comm_block(&kit.ctx,
                                 SCHED_LINE_BLOCK_X(kit.block_line), SCHED_LINE_BLOCK_Y(kit.block_line),
                                 &kit.comm[group - 1u]) : COLL_EARG)
                               : coll_comm_line(&kit.ctx, group - 1u, &kit.comm[group - 1u])) == COLL_OK ? 1u : 2u;
    return kit.has_comm[group] == 1u ? &kit.comm[group - 1u] : 0;
}

/* ---- On a board (boards/README.md): its boot ROM starts the firmware with BOARD_ID_VALUE in
 * mscratch (0 after reset anywhere else, mesh-sim included). Boards started by hand are
 * seconds apart, longer than any call's timeout, so there rvm_init returns only when every
 * node has called it, as MPI's launch does: it waits until each of this board's cabled
 * links is up (printing, after a timeout's worth of cycles, the ones still down: a cable or
 * a board that is missing), then for every node at the network interface's barrier, neither
 * with a timeout. mesh-sim starts every node at once: nothing of this runs there. */
static int on_board(void)
{
    uint32_t mark;
    __asm__ volatile("csrr %0, mscratch" : "=r"(mark));
    return mark == BOARD_ID_VALUE;
}

static int board_start(void)
{
    const struct ni_shape *s = &kit.ctx.ni;
    uint32_t cabled = 0, told = 0;
    for (unsigned k = 0; k < s->ports; ++k)
        if (ni_neighbour(s, s->node, k) != NI_NO_NODE)
            cabled |= 1u << k;
    const uint32_t t0 = RVMESH_CSR_READ(mcycle), patience = kit.ctx.timeout_cycles;
    for (;;) {
        const uint32_t down = cabled & ~*board_reg(BOARD_LINK_STATUS);
        if (!down)
            break;
        if (!patience || RVMESH_CSR_READ(mcycle) - t0 < patience || !(down & ~told))
            continue;
        for (unsigned k = 0; k < s->ports; ++k) {
            if (!(down & ~told & (1u << k)))
                continue;
            int32_t c[3];
            sched_node_coord(&kit.ctx.shape, ni_neighbour(s, s->node, k), c);
            node_prefix();
            if (s->dims == 3)
                printf("rvm_init: waiting for link %c%c to node (%ld,%ld,%ld): it is down (its LED dark): check "
                       "that cable and that the board is on\n", "+-"[k & 1u], "xyz"[k / 2u], (long)c[0], (long)c[1],
                       (long)c[2]);
            else
                printf("rvm_init: waiting for link %c%c to node (%ld,%ld): it is down (its LED dark): check that "
                       "cable and that the board is on\n", "+-"[k & 1u], "xyz"[k / 2u], (long)c[0], (long)c[1]);
        }
        told |= down;
    }
    kit.ctx.timeout_cycles = 0;
    const int rc = coll_barrier_only(&kit.ctx, "rvm_init");
    kit.ctx.timeout_cycles = patience;
    return rc;
}

int rvm_init(void)
{
    if (kit.initialised)
        return COLL_OK;
    const uint32_t t0 = RVMESH_CSR_READ(mcycle);
    int rc = coll_init(&kit.ctx, 0, 0);
    if (rc != COLL_OK)
        return fail(rc, "rvm_init", "no network interface with plans: run the image on mesh-sim (or a board with "
                    "the NI of version 3)");
    kit.ctx.sync_start = 1;
    kit.ctx.timeout_cycles = RVM_TIMEOUT_CYCLES;
    /* the workspace: the free RAM, 16-byte aligned */
    uintptr_t lo = ((uintptr_t)__heap_start + 15u) & ~(uintptr_t)15u, hi = (uintptr_t)__heap_end & ~(uintptr_t)15u;
    kit.ws = (uint8_t *)lo;
    kit.ws_bytes = hi > lo ? (uint32_t)(hi - lo) : 0u;
    kit.ctx.workspace = kit.ws;
    kit.ctx.workspace_bytes = kit.ws_bytes;
    kit.count = 0;
    kit.arena_used = 0;
    kit.plan_hits = kit.plans_compiled = kit.plan_drops = 0;
    for (uint32_t k = 0; k < RVM_PLANS; ++k)
        kit.plans[k].entry = -1;
    if (rvmesh_tables) {
        const uint32_t len = (uint32_t)(rvmesh_tables_end - rvmesh_tables);
        sched_area area;
        rc = sched_area_open(rvmesh_tables, len, &kit.ctx.shape, kit.ctx.ni.node, 0, &area);
        if (rc == SCHED_AREA_ERR_MAGIC)
            return fail(COLL_ENOTABLES, "rvm_init", "no tables in this node's RAM (rvmesh_tables): run the image on "
                        "mesh-sim, which writes every node's tables into it before reset, or on boards flash "
                        "the images of `make board-images`");
        if (rc == SCHED_AREA_ERR_SHAPE)
            return fail(COLL_ENOTABLES, "rvm_init", "the tables in RAM are for a %ux%ux%u %s, this machine is a "
                        "%ux%ux%u %s: build the program for this shape (SHAPE in its Makefile)", area.shape.side[0],
                        area.shape.side[1], area.shape.side[2], area.shape.torus ? "torus" : "mesh",
                        kit.ctx.shape.side[0], kit.ctx.shape.side[1], kit.ctx.shape.side[2],
                        kit.ctx.shape.torus ? "torus" : "mesh");
        if (rc == SCHED_AREA_ERR_NODE)
            return fail(COLL_ENOTABLES, "rvm_init", "the tables in RAM are node %lu's, this is node %u: the loader "
                        "wrote the wrong node's area", (unsigned long)area.node, kit.ctx.ni.node);
        if (rc != SCHED_TABLE_OK)
            return fail(COLL_ENOTABLES, "rvm_init", "%s", sched_table_strerror(rc));
        if (area.count > RVM_MAX_TABLES)
            return fail(COLL_ENOTABLES, "rvm_init", "%u tables, at most %u", area.count, RVM_MAX_TABLES);
        /* the entries by words (the area is 8-aligned; sched_table.h has the layout). Not by
         * sched_area_get_entry, which reads each through a copy: 1,840 cycles of rvm_init
         * instead of 1,518 on the 4x4 torus, of a budget of 2,000 (issue 18). */
        const uint32_t *w = (const uint32_t *)(const void *)(rvmesh_tables + SCHED_AREA_HEADER_BYTES);
        for (uint32_t i = 0; i < area.count; ++i, w += SCHED_AREA_ENTRY_BYTES / 4u) {
            sched_area_entry *e = &kit.entry[i];
            e->collective = (uint8_t)w[0];
            e->algo = (uint8_t)(w[0] >> 8);
            e->parts = (uint16_t)(w[0] >> 16);
            e->root = w[1];
            e->min_bytes = w[2];
            e->table_off = w[3];
            e->ws_fixed = w[4];
            e->ws_transit = (uint16_t)w[5];
            e->flags = (uint8_t)(w[5] >> 16);
            const uint8_t line = e->flags;
            if (SCHED_LINE_IS_BLOCK(line)) {   /* a block's: one shape of blocks a program */
                if (kit.block_line && kit.block_line != line)
                    return fail(COLL_ENOTABLES, "rvm_init", "tables for blocks of two shapes (%lux%lu and %lux%lu): "
                                "declare blocks of one shape", (unsigned long)SCHED_LINE_BLOCK_X(kit.block_line),
                                (unsigned long)SCHED_LINE_BLOCK_Y(kit.block_line),
                                (unsigned long)SCHED_LINE_BLOCK_X(line), (unsigned long)SCHED_LINE_BLOCK_Y(line));
                kit.block_line = line;
                snprintf(kit.block_prefix, sizeof kit.block_prefix, "blk%lux%lu.",
                         (unsigned long)SCHED_LINE_BLOCK_X(line), (unsigned long)SCHED_LINE_BLOCK_Y(line));
                e->flags = RVM_COMM_BLOCK;
            }
            /* a line's, a plane's or a block's table: this node's rank's in it (sched_table.h, line) */
            if (e->flags >= RVM_COMMS || (e->flags && !line_comm(e->flags)))
                return fail(COLL_ENOTABLES, "rvm_init", "table %lu of this node's area is for %s, which this machine "
                            "cannot run (rows and columns on 2-D and 3-D machines, pillars on 3-D ones, XY planes "
                            "on 3-D ones of up to 32 nodes, blocks on 2-D ones; lines, planes and blocks of up to "
                            "%u nodes)", (unsigned long)i,
                            e->flags == RVM_COMM_ROW ? "its rows" : e->flags == RVM_COMM_COL ? "its columns"
                            : e->flags == RVM_COMM_PILLAR ? "its pillars" : e->flags == RVM_COMM_PLANE ? "its planes"
                            : e->flags == RVM_COMM_BLOCK ? "its blocks" : "another communicator", COLL_COMM_MAX_SIZE);
            rc = sched_table_open_header(rvmesh_tables + e->table_off, area.total_bytes - e->table_off,
                                         &kit.ctx.shape, kit.ctx.ni.node, &kit.table[i]);
            if (rc != SCHED_TABLE_OK || kit.table[i].collective != e->collective || kit.table[i].line != line ||
                (kit.table[i].parts ? kit.table[i].parts : 1u) != e->parts)
                return fail(COLL_ENOTABLES, "rvm_init", "table %lu of this node's area: %s", (unsigned long)i,
                            rc != SCHED_TABLE_OK ? sched_table_strerror(rc) : "disagrees with its entry");
        }
        kit.count = area.count;
        kit.area_bytes = area.total_bytes;
    }
    kit.initialised = 1;
    kit.init_cycles = RVMESH_CSR_READ(mcycle) - t0;
    if (on_board() && (rc = board_start()) != COLL_OK)
        return failed(rc, "rvm_init");
    return COLL_OK;
}

uint32_t rvm_node(void) { return kit.ctx.ni.node; }
uint32_t rvm_nodes(void) { return kit.ctx.ni.nodes; }
const struct ni_shape *rvm_shape(void) { return &kit.ctx.ni; }
void rvm_set_timeout(uint32_t cycles) { kit.ctx.timeout_cycles = cycles; }
uint32_t rvm_timeout(void) { return kit.ctx.timeout_cycles; }
void rvm_errors_return(int on) { kit.errors_return = on ? 1u : 0u; }
uint32_t rvm_workspace_bytes(void) { return kit.ws_bytes; }
uint32_t rvm_tables_bytes(void) { return kit.area_bytes; }
uint32_t rvm_init_cycles(void) { return kit.init_cycles; }
uint32_t rvm_last_setup_cycles(void) { return kit.ctx.setup_cycles; }
coll_ctx *rvm_ctx(void) { return &kit.ctx; }

static int rooted(uint32_t collective)
{
    return collective == COLL_BCAST || collective == COLL_SCATTER || collective == COLL_GATHER;
}

/* the communicator of entry e's table (NULL: the machine) */
static const coll_comm *comm_of_entry(const sched_area_entry *e)
{
    return line_comm(e->flags);
}

/* the workspace a call of entry e with blocks of m bytes needs on any node (the blocking
 * calls align it to 16 bytes: + 12): its start barrier's descriptors are the machine's rounds
 * and links, or a signal to each other member of its line */
static uint32_t ws_need(const sched_area_entry *e, uint32_t m)
{
    const coll_comm *comm = comm_of_entry(e);
    const uint32_t barrier = comm ? comm->size - 1u : coll_barrier_descs(coll_barrier_rounds(kit.ctx.ni.nodes));
    return e->ws_fixed + 16u * barrier + (uint32_t)e->ws_transit * (m / e->parts) + 12u;
}

/* the table a call on communicator `group` runs, or -1 (*why: COLL_EUNDECLARED, COLL_ESIZE or
 * COLL_EWORKSPACE) */
static int pick(uint32_t group, uint32_t collective, uint32_t root, uint32_t m, int *why, uint32_t *need)
{
    int best = -1, declared = 0, root_declared = 0, sized = 0;
    *need = 0;
    for (uint32_t i = 0; i < kit.count; ++i) {
        const sched_area_entry *e = &kit.entry[i];
        if (e->collective != collective || e->flags != group)
            continue;
        declared = 1;
        if (rooted(collective) && e->root != root)
            continue;
        root_declared = 1;
        if (m == 0 || m < e->min_bytes || m % (4u * e->parts) != 0)
            continue;
        const uint32_t n = ws_need(e, m);
        sized = 1;
        if (n > kit.ws_bytes) {
            if (!*need || n < *need)
                *need = n;
            continue;
        }
        best = (int)i;
    }
    *why = !declared || !root_declared ? COLL_EUNDECLARED : !sized ? COLL_ESIZE : COLL_EWORKSPACE;
    return best;
}

const sched_table *rvm_table(uint32_t collective, uint32_t root, uint32_t m)
{
    return rvm_comm_table(RVM_COMM_WORLD, collective, root, m);
}

const sched_table *rvm_comm_table(rvm_comm comm, uint32_t collective, uint32_t root, uint32_t m)
{
    int why;
    uint32_t need;
    const int i = (uint32_t)comm < RVM_COMMS ? pick((uint32_t)comm, collective, root, m, &why, &need) : -1;
    return i < 0 ? 0 : &kit.table[i];
}

const coll_comm *rvm_comm_of(rvm_comm comm)
{
    return line_comm((uint32_t)comm);
}

uint32_t rvm_comm_rank(rvm_comm comm)
{
    const coll_comm *c = rvm_comm_of(comm);
    return comm == RVM_COMM_WORLD ? kit.ctx.ni.node : c ? c->rank : 0u;
}

uint32_t rvm_comm_size(rvm_comm comm)
{
    const coll_comm *c = rvm_comm_of(comm);
    return comm == RVM_COMM_WORLD ? kit.ctx.ni.nodes : c ? c->size : 0u;
}

/* the prefix of a communicator's declarations: "", "row.", "col.", "pil.", "pln.", "blk2x2." */
static const char *group_prefix(uint32_t group)
{
    return group == RVM_COMM_ROW ? "row." : group == RVM_COMM_COL ? "col." : group == RVM_COMM_PILLAR ? "pil."
           : group == RVM_COMM_PLANE ? "pln." : group == RVM_COMM_BLOCK ? kit.block_prefix : "";
}

/* "row", "column", "pillar", "plane", "block"; "machine" */
static const char *group_name(uint32_t group)
{
    return group && group < RVM_COMMS ? coll_line_name(group - 1u) : "machine";
}

/* "rows", "columns", "pillars", "planes", "blocks" */
static const char *group_plural(uint32_t group)
{
    return group == RVM_COMM_ROW ? "rows" : group == RVM_COMM_COL ? "columns" : group == RVM_COMM_PILLAR ? "pillars"
           : group == RVM_COMM_PLANE ? "planes" : "blocks";
}

/* "bcast@0 bcast@5 allgather row.bcast@1" */
static void declared_list(char *text, uint32_t cap)
{
    uint32_t len = 0;
    text[0] = 0;
    for (uint32_t i = 0; i < kit.count && len + 24u < cap; ++i) {
        const sched_area_entry *e = &kit.entry[i];
        int again = 0;
        for (uint32_t j = 0; j < i; ++j)
            again |= kit.entry[j].collective == e->collective && kit.entry[j].root == e->root &&
                     kit.entry[j].flags == e->flags;
        if (again)
            continue;
        if (rooted(e->collective))
            len += (uint32_t)snprintf(text + len, cap - len, " %s%s@%lu", group_prefix(e->flags),
                                      coll_name(e->collective), (unsigned long)e->root);
        else
            len += (uint32_t)snprintf(text + len, cap - len, " %s%s", group_prefix(e->flags),
                                      coll_name(e->collective));
    }
    if (!len)
        snprintf(text, cap, " none");
}

static void drop_plans(void)
{
    for (uint32_t k = 0; k < RVM_PLANS; ++k)
        kit.plans[k].entry = -1;
    kit.arena_used = 0;
}

/* the kept plans dropped for room: counted (rvm_plan_stats) when there were any */
static void drop_plans_for_room(void)
{
    if (kit.arena_used)
        kit.plan_drops++;
    drop_plans();
}

/* The kept plan of entry `entry` (a table's number, or RING_ENTRY) for these buffers and m,
 * or NULL; the one found last is tried first (a loop of one call finds it at once) */
static rvm_cached *kept(int32_t entry, const void *send, const void *recv, uint32_t m)
{
    const rvm_cached *last = &kit.plans[kit.last_kept];
    if (last->entry == entry && last->send == send && last->recv == recv && last->m == m)
        return &kit.plans[kit.last_kept];
    for (uint32_t k = 0; k < RVM_PLANS; ++k)
        if (kit.plans[k].entry == entry && kit.plans[k].send == send && kit.plans[k].recv == recv &&
            kit.plans[k].m == m) {
            kit.last_kept = k;
            return &kit.plans[k];
        }
    return 0;
}

/* a slot for a new plan of `need` bytes of the free RAM (the kept ones dropped when it is
 * full), marked free until the plan is compiled (keep) */
static rvm_cached *fresh_slot(uint32_t need)
{
    if (kit.arena_used + need > kit.ws_bytes)
        drop_plans_for_room();
    uint32_t k = 0;
    while (k < RVM_PLANS && kit.plans[k].entry >= 0)
        ++k;
    if (k == RVM_PLANS)
        k = kit.next_slot++ % RVM_PLANS;   /* its workspace stays taken until the drop */
    kit.plans[k].entry = -1;
    kit.last_kept = k;
    return &kit.plans[k];
}

static void keep(rvm_cached *p, int32_t entry, const void *send, void *recv, uint32_t m, uint32_t need)
{
    kit.arena_used += need;
    kit.plans_compiled++;
    p->entry = entry;
    p->send = send;
    p->recv = recv;
    p->m = m;
}

/* a kept or new plan run: started, waited for; after a failed call, start from scratch */
static int start_and_wait(rvm_cached *p, const char *name)
{
    p->plan.name = name;
    int rc = coll_plan_start(&p->plan);
    if (rc == COLL_OK)
        rc = coll_plan_wait(&p->plan);
    if (rc != COLL_OK)
        drop_plans();
    return rc;
}

/* table i's call: its kept plan started again, or a new one compiled (and kept) */
static int run(int i, const char *name, uint32_t collective, const void *send, uint32_t send_bytes, void *recv,
               uint32_t recv_bytes, uint32_t m, uint32_t root)
{
    kit.ctx.setup_cycles = 0;
    rvm_cached *p = kept(i, send, recv, m);
    if (p) {
        kit.plan_hits++;
    } else {
        const coll_comm *comm = comm_of_entry(&kit.entry[i]);
        const uint32_t need = (coll_plan_workspace_on(&kit.ctx, comm, &kit.table[i], m) + 15u) & ~15u;
        p = fresh_slot(need);
        coll_call c = {name, collective, send, send_bytes, recv, recv_bytes, m, root, rooted(collective), comm};
        int rc = coll_call_compile(&kit.ctx, &kit.table[i], &c, &p->plan, kit.ws + kit.arena_used,
                                   kit.ws_bytes - kit.arena_used);
        if (rc != COLL_OK)
            return rc;
        keep(p, i, send, recv, m, need);
    }
    return start_and_wait(p, name);
}

static int not_initialised(const char *name)
{
    printf("%s: call rvm_init() first\n", name);
    if (!kit.errors_return)
        rvmesh_exit(RVM_EXIT_STATUS(COLL_ENI));
    return COLL_ENI;
}

int rvm_plan_stats(struct rvm_plan_stats *out)
{
    if (!kit.initialised)
        return not_initialised("rvm_plan_stats");
    if (!out)
        return fail(COLL_EARG, "rvm_plan_stats", "out is NULL: pass a struct rvm_plan_stats to fill");
    out->reused = kit.plan_hits;
    out->compiled = kit.plans_compiled;
    out->drops = kit.plan_drops;
    out->kept_bytes = kit.arena_used;
    out->workspace_bytes = kit.ws_bytes + kit.reserved;
    return COLL_OK;
}

/* a communicator this machine has none of: refused (COLL_EARG); 0 if it has */
static int comm_refused(uint32_t group, const char *name)
{
    if (group < RVM_COMMS && (!group || line_comm(group)))
        return 0;
    return fail(COLL_EARG, name, "communicator %lu: this machine has none such (RVM_COMM_WORLD; RVM_COMM_ROW, "
                "RVM_COMM_COL on 2-D and 3-D machines, RVM_COMM_PILLAR on 3-D ones, RVM_COMM_PLANE on 3-D ones of up "
                "to 32 nodes, RVM_COMM_BLOCK on 2-D ones whose program declares blkBXxBY. collectives; lines, planes "
                "and blocks of up to %u nodes)",
                (unsigned long)group, COLL_COMM_MAX_SIZE);
}

/* a root that is not a rank of communicator `group` (made): refused (COLL_EROOT); 0 if it is */
static int root_refused(uint32_t group, const char *name, uint32_t root)
{
    if (group == RVM_COMM_BLOCK && root >= kit.comm[group - 1u].size) {
        const unsigned long bx = kit.comm[group - 1u].block[0], by = kit.comm[group - 1u].block[1];
        return fail(COLL_EROOT, name, "root %lu is not a rank of this block (ranks 0..%lu: a root on a %lux%lu block "
                    "is its x %% %lu + %lu*(y %% %lu))", (unsigned long)root, bx * by - 1u, bx, by, bx, bx, by);
    }
    if (group && group < RVM_COMMS && root >= kit.comm[group - 1u].size)   /* (comm_refused checked group) */
        return fail(COLL_EROOT, name, "root %lu is not a rank of this %s (ranks 0..%lu: a root on a %s is its %s)",
                    (unsigned long)root, group_name(group), (unsigned long)(kit.comm[group - 1u].size - 1u),
                    group_name(group), group == RVM_COMM_ROW ? "x" : group == RVM_COMM_COL ? "y"
                    : group == RVM_COMM_PLANE ? "x + X*y" : "z");
    if (!group && root >= kit.ctx.ni.nodes)
        return fail(COLL_EROOT, name, "root %lu is off the machine (nodes 0..%u)", (unsigned long)root,
                    kit.ctx.ni.nodes - 1u);
    return 0;
}

/* the call on communicator `group` (0: the machine), outside the "comm" region (the reductions
 * make two in one region) */
static int call_in(uint32_t group, uint32_t collective, const char *name, const void *send, uint32_t send_bytes,
                   void *recv, uint32_t recv_bytes, uint32_t m, uint32_t root)
{
    if (!kit.initialised)
        return not_initialised(name);
    if (comm_refused(group, name))
        return COLL_EARG;
    if (rooted(collective) && root_refused(group, name, root))
        return COLL_EROOT;
    int why;
    uint32_t need;
    const int i = pick(group, collective, root, m, &why, &need);
    int rc;
    if (i < 0) {
        char list[160];
        declared_list(list, sizeof list);
        int any = 0;
        for (uint32_t k = 0; k < kit.count; ++k)
            any |= kit.entry[k].collective == collective && kit.entry[k].flags == group;
        if (why == COLL_EUNDECLARED && any)
            rc = fail(why, name, "%s%s with root %lu is not declared: add %s%s@%lu to COLLECTIVES in the program's "
                      "Makefile (it declares:%s)", group_prefix(group), coll_name(collective), (unsigned long)root,
                      group_prefix(group), coll_name(collective), (unsigned long)root, list);
        else if (why == COLL_EUNDECLARED && group)
            rc = fail(why, name, "%s%s is not declared for the %s: add %s%s to COLLECTIVES in the program's Makefile "
                      "(it declares:%s)", group_prefix(group), coll_name(collective),
                      group_plural(group), group_prefix(group), coll_name(collective), list);
        else if (why == COLL_EUNDECLARED)
            rc = fail(why, name, "%s is not declared: add it to COLLECTIVES in the program's Makefile (it "
                      "declares:%s)", coll_name(collective), list);
        else if (why == COLL_EWORKSPACE)
            rc = fail(why, name, "blocks of %lu bytes need %lu bytes of workspace, the program leaves %lu free "
                      "between its data and its stack: make its arrays (or m) smaller", (unsigned long)m,
                      (unsigned long)(need + kit.reserved), (unsigned long)(kit.ws_bytes + kit.reserved));
        else {
            char takes[96];
            uint32_t len = 0;
            takes[0] = 0;
            for (uint32_t k = 0; k < kit.count && len + 32u < sizeof takes; ++k)
                if (kit.entry[k].collective == collective && kit.entry[k].flags == group &&
                    (!rooted(collective) || kit.entry[k].root == root))
                {
                    len += (uint32_t)snprintf(takes + len, sizeof takes - len, "%s%lu", len ? ", " : " ",
                                              (unsigned long)(4u * kit.entry[k].parts));
                    if (kit.entry[k].min_bytes)
                        len += (uint32_t)snprintf(takes + len, sizeof takes - len, " (m >= %lu)",
                                                  (unsigned long)kit.entry[k].min_bytes);
                }
            rc = fail(COLL_ESIZE, name, "m = %lu bytes: the declared %s schedules take a non-zero multiple of%s",
                      (unsigned long)m, coll_name(collective), takes);
        }
        return rc;
    }
    rc = run(i, name, collective, send, send_bytes, recv, recv_bytes, m, root);
    return rc == COLL_OK ? rc : failed(rc, name);
}

static int call(uint32_t group, uint32_t collective, const char *name, const void *send, uint32_t send_bytes,
                void *recv, uint32_t recv_bytes, uint32_t m, uint32_t root)
{
    comm_begin();
    const int rc = call_in(group, collective, name, send, send_bytes, recv, recv_bytes, m, root);
    comm_end();
    return rc;
}

int rvm_bcast(void *buf, uint32_t m, uint32_t root)
{
    return call(RVM_COMM_WORLD, COLL_BCAST, "rvm_bcast", 0, 0, buf, m, m, root);
}

int rvm_scatter(const void *send, void *recv, uint32_t m, uint32_t root)
{
    return call(RVM_COMM_WORLD, COLL_SCATTER, "rvm_scatter", send, send ? kit.ctx.ni.nodes * m : 0u, recv, m, m, root);
}

int rvm_gather(const void *send, void *recv, uint32_t m, uint32_t root)
{
    return call(RVM_COMM_WORLD, COLL_GATHER, "rvm_gather", send, m, recv, recv ? kit.ctx.ni.nodes * m : 0u, m, root);
}

int rvm_allgather(const void *send, void *recv, uint32_t m)
{
    return call(RVM_COMM_WORLD, COLL_ALLGATHER, "rvm_allgather", send, m, recv, kit.ctx.ni.nodes * m, m, 0);
}

int rvm_bcast_on(rvm_comm comm, void *buf, uint32_t m, uint32_t root)
{
    return call((uint32_t)comm, COLL_BCAST, "rvm_bcast_on", 0, 0, buf, m, m, root);
}

int rvm_allgather_on(rvm_comm comm, const void *send, void *recv, uint32_t m)
{
    return call((uint32_t)comm, COLL_ALLGATHER, "rvm_allgather_on", send, m, recv, rvm_comm_size(comm) * m, m, 0);
}

int rvm_alltoall(const void *send, void *recv, uint32_t m)
{
    return call(RVM_COMM_WORLD, COLL_ALLTOALL, "rvm_alltoall", send, kit.ctx.ni.nodes * m, recv, kit.ctx.ni.nodes * m, m, 0);
}

int rvm_scatter_on(rvm_comm comm, const void *send, void *recv, uint32_t m, uint32_t root)
{
    return call((uint32_t)comm, COLL_SCATTER, "rvm_scatter_on", send, send ? rvm_comm_size(comm) * m : 0u, recv, m, m,
                root);
}

int rvm_gather_on(rvm_comm comm, const void *send, void *recv, uint32_t m, uint32_t root)
{
    return call((uint32_t)comm, COLL_GATHER, "rvm_gather_on", send, m, recv, recv ? rvm_comm_size(comm) * m : 0u, m,
                root);
}

int rvm_alltoall_on(rvm_comm comm, const void *send, void *recv, uint32_t m)
{
    const uint32_t n = rvm_comm_size(comm);
    return call((uint32_t)comm, COLL_ALLTOALL, "rvm_alltoall_on", send, n * m, recv, n * m, m, 0);
}

/* ---- the barrier and the reductions (rvmesh.h) */

static uint8_t *reserve(uint32_t bytes);
static void unreserve(void);

int rvm_barrier(void)
{
    if (!kit.initialised)
        return not_initialised("rvm_barrier");
    /* the network interface's dissemination barrier alone: signals, no tables, no workspace
     * (coll_barrier_only); no node leaves it before every node has entered it */
    comm_begin();
    const int rc = coll_barrier_only(&kit.ctx, "rvm_barrier");
    comm_end();
    return rc == COLL_OK ? rc : failed(rc, "rvm_barrier");
}

/* the program's own ops (rvm_op_create): op RVM_OP_USER + k combines by user_op[k] */
static rvm_combine_fn user_op[RVM_MAX_USER_OPS];
static uint32_t user_ops;

rvm_op rvm_op_create(rvm_combine_fn fn)
{
    if (!fn) {
        (void)fail(COLL_EARG, "rvm_op_create", "the combine function is NULL");
        return (rvm_op)0;
    }
    if (user_ops == RVM_MAX_USER_OPS) {
        (void)fail(COLL_EARG, "rvm_op_create", "%u ops exist already, the most a program makes (RVM_MAX_USER_OPS)",
                   (unsigned)RVM_MAX_USER_OPS);
        return (rvm_op)0;
    }
    user_op[user_ops] = fn;
    return (rvm_op)(RVM_OP_USER + user_ops++);
}

static int op_valid(rvm_op op)
{
    return ((uint32_t)op >= RVM_SUM && (uint32_t)op <= RVM_UMAX) ||
           ((uint32_t)op >= RVM_OP_USER && (uint32_t)op < RVM_OP_USER + user_ops);
}

static int op_refused(const char *name, rvm_op op)
{
    return fail(COLL_EARG, name, "op %ld is not an operation: use RVM_SUM, RVM_MIN, RVM_MAX, RVM_UMIN, RVM_UMAX, "
                "RVM_BAND, RVM_BOR, RVM_BXOR or one rvm_op_create made", (long)op);
}

/* out[i] = v_0[i] op v_1[i] op ... op v_{n-1}[i] for i < count: the N nodes' vectors, in node
 * order, `stride` elements apart in vs (out is not among them). One pass per element with
 * the op chosen once: a 4-byte allreduce on 64 nodes folds 64 words, not 63 calls. */
#define FOLD(STEP)                                                                               \
    for (uint32_t i = 0; i < count; ++i) {                                                       \
        const uint32_t *p = vs + i;                                                              \
        uint32_t a = *p;                                                                         \
        for (uint32_t s = 1; s < n; ++s) {                                                       \
            p += stride;                                                                         \
            const uint32_t x = *p;                                                               \
            STEP;                                                                                \
        }                                                                                        \
        out[i] = a;                                                                              \
    }
static void combine_all(uint32_t *out, const uint32_t *vs, uint32_t n, uint32_t count, uint32_t stride, rvm_op op)
{
    if ((uint32_t)op >= RVM_OP_USER) {   /* the program's own: node by node */
        memcpy(out, vs, 4u * count);
        for (uint32_t s = 1; s < n; ++s)
            user_op[(uint32_t)op - RVM_OP_USER](out, vs + s * stride, count);
        return;
    }
    switch (op) {
    case RVM_SUM: FOLD(a += x) break;   /* int32 and uint32 alike: modulo 2^32 */
    case RVM_MIN: FOLD(if ((int32_t)x < (int32_t)a) a = x) break;
    case RVM_MAX: FOLD(if ((int32_t)x > (int32_t)a) a = x) break;
    case RVM_UMIN: FOLD(if (x < a) a = x) break;
    case RVM_UMAX: FOLD(if (x > a) a = x) break;
    case RVM_BAND: FOLD(a &= x) break;
    case RVM_BOR: FOLD(a |= x) break;
    case RVM_BXOR: FOLD(a ^= x) break;
    default: break;
    }
}
#undef FOLD

/* is the collective declared on communicator `group`? */
static int declared(uint32_t group, uint32_t collective)
{
    for (uint32_t i = 0; i < kit.count; ++i)
        if (kit.entry[i].collective == collective && kit.entry[i].flags == group)
            return 1;
    return 0;
}

/* the top `bytes` of the free RAM for a reduction's blocks, for the length of its call: the
 * plans compiled meanwhile (and kept) stay below it */
static uint8_t *reserve(uint32_t bytes)
{
    bytes = (bytes + 15u) & ~15u;
    kit.ws_bytes -= bytes;
    kit.reserved = bytes;
    if (kit.arena_used > kit.ws_bytes)
        drop_plans_for_room();
    return kit.ws + kit.ws_bytes;
}

static void unreserve(void)
{
    kit.ws_bytes += kit.reserved;
    kit.reserved = 0;
}

#define RVM_ALL_NODES 0xffffffffu

/* the NI's combining put of a built-in op (0: the op has none: the program's own) */
static uint32_t combine_kind(rvm_op op)
{
    switch (op) {
    case RVM_SUM: return NI_COMBINE_SUM;
    case RVM_MIN: return NI_COMBINE_MIN;
    case RVM_MAX: return NI_COMBINE_MAX;
    case RVM_UMIN: return NI_COMBINE_MINU;
    case RVM_UMAX: return NI_COMBINE_MAXU;
    case RVM_BAND: return NI_COMBINE_AND;
    case RVM_BOR: return NI_COMBINE_OR;
    case RVM_BXOR: return NI_COMBINE_XOR;
    default: return 0;
    }
}

/* the kept plans' entry of the rings' allreduce (coll_ring.c) on communicator `group` combined
 * by `kind`: past every table's */
#define RING_ENTRY(group, kind) ((int32_t)(RVM_MAX_TABLES + 16u * (group) + ((kind) >> 28)))

/* the workspace of the NI's rings on this machine, 0 where it has none (found on the first
 * reduction: rvm_init stays as quick) */
static uint32_t rings_workspace(void)
{
    if (!kit.rings_checked) {
        kit.rings_checked = 1;
        const int fits = coll_ring_allreduce_fits(&kit.ctx, 4u * kit.ctx.ni.nodes);
        kit.rings_ws = fits ? coll_ring_allreduce_workspace(&kit.ctx) : 0u;
    }
    return kit.rings_ws;
}

/* the workspace of the NI's rings for a reduction of `total` elements on communicator `group`
 * (n members) combined by `kind` (0: none), or 0 where they do not take it: the machine's (a 2-D torus,
 * total a multiple of 4N), a line's (every row, column or pillar of a torus at once, total a
 * multiple of 2n); what decides is the same on every member */
static uint32_t rings_need(uint32_t group, uint32_t total, uint32_t n, uint32_t kind)
{
    if (total < 2u * n || !kind || kit.rings_off)
        return 0;   /* (first: a small vector's call decides at once) */
    if (!group) {
        const uint32_t ws = rings_workspace(), q = 4u * kit.ctx.ni.nodes;
        return ws && total % q == 0 ? ws : 0u;
    }
    if (group > RVM_COMM_PILLAR)
        return 0;   /* planes and blocks: their own schedules */
    return coll_ring_line_fits(&kit.ctx, group - 1u, total) ? coll_ring_line_workspace(&kit.ctx, group - 1u) : 0u;
}

/* the kept plans' entry of the doubling allreduce (coll_dbl.c) combined by `kind`: past the
 * rings' */
#define DBL_ENTRY(kind) ((int32_t)(RVM_MAX_TABLES + 16u * 16u + ((kind) >> 28)))
/* the kept plans' entry of the rings' reduce-scatter straight to the blocks' owners on
 * communicator `group` (the machine, or its lines): past the doubling's */
#define SCATTER_ENTRY(group, kind) ((int32_t)(RVM_MAX_TABLES + 17u * 16u + 16u * (group) + ((kind) >> 28)))

/* an allreduce of count elements by a plan of the NI's own: the rings (coll_ring.c) on
 * communicator `group` (the machine, or every line along dimension group - 1 at once), or
 * with `dbl` the doubling (coll_dbl.c, the machine); its plan takes ws bytes (rings_need,
 * dbl_need) and is kept as a table's is (run). The doubling's plan depends on send and count
 * alone (its result stays in its workspace: recv is not part of its key); *ran (if not NULL)
 * is the plan that ran. With a block (the rings), the reduce-scatter instead: the vector
 * reduced into recv (the free RAM), each node's block put straight into its block
 * (coll_ring_reduce_scatter_compile, coll_ring_line_reduce_scatter_compile; its plan is keyed
 * on send and block: recv, the top of the free RAM for this count, is the same on every call
 * of that count). */
static int ni_allreduce(const char *name, uint32_t group, int dbl, const void *send, void *recv, void *block,
                        uint32_t count, uint32_t kind, uint32_t ws, const coll_plan **ran)
{
    kit.ctx.setup_cycles = 0;
    const int32_t entry = dbl ? DBL_ENTRY(kind) : block ? SCATTER_ENTRY(group, kind) : RING_ENTRY(group, kind);
    void *const key = dbl ? 0 : block ? block : recv;
    const uint32_t bytes = 4u * count;
    rvm_cached *p = kept(entry, send, key, bytes);
    if (p && block && p->plan.recv != recv) {
        p->entry = -1;   /* another accumulator (cannot happen while the free RAM stays as it is) */
        p = 0;
    }
    if (p) {
        kit.plan_hits++;
    } else {
        const uint32_t need = (ws + 15u) & ~15u;
        p = fresh_slot(need + (dbl ? 0u : COLL_RING_SCRATCH));   /* the rings' scratch is free again after */
        const uint32_t cycle0 = RVMESH_CSR_READ(mcycle);
        void *at = kit.ws + kit.arena_used;
        const uint32_t room = kit.ws_bytes - kit.arena_used;
        const int rc = dbl     ? coll_dbl_allreduce_compile(&p->plan, &kit.ctx, send, count, kind, at, room, name)
                       : block && group ? coll_ring_line_reduce_scatter_compile(&p->plan, &kit.ctx, group - 1u, send,
                                                                               recv, block, count, kind, at, room, name)
                       : block ? coll_ring_reduce_scatter_compile(&p->plan, &kit.ctx, send, recv, block, count, kind, at,
                                                                  room, name)
                       : group ? coll_ring_line_compile(&p->plan, &kit.ctx, group - 1u, send, recv, count, kind, at, room, name)
                               : coll_ring_allreduce_compile(&p->plan, &kit.ctx, send, recv, count, kind, at, room, name);
        if (rc != COLL_OK)
            return fail(rc, name, "the NI's %s refused this call (error %d): a bug in the kit", dbl ? "doubling" : "rings", rc);
        kit.ctx.setup_cycles = RVMESH_CSR_READ(mcycle) - cycle0;
        keep(p, entry, send, key, bytes, need);
    }
    if (ran)
        *ran = &p->plan;
    const int rc = start_and_wait(p, name);
    return rc == COLL_OK ? rc : failed(rc, name);
}

/* the doubling's workspace for an allreduce of `total` elements combined by `kind` on
 * communicator `group`, or 0 where it does not take it: the machine's (sides powers of two,
 * an NI that combines), at most RVM_DOUBLING_MAX_BYTES, and where a path by alltoall is there
 * too (`by_alltoall`) at most log2(N) x 4 x total <= 3 KiB: its rounds move log2(N) times the
 * vector, one after the other (8x8 torus, an allreduce: 128 elements 3,802 cycles against
 * 3,974 by alltoall + allgather, 192 elements 5,343 against 4,553). What decides is the same
 * on every node. */
static uint32_t dbl_need(uint32_t group, uint32_t total, uint32_t kind, const void *send, int by_alltoall)
{
    if (group || !kind || kit.rings_off || total > RVM_DOUBLING_MAX_BYTES / 4u || total > COLL_DBL_MAX_COUNT)
        return 0;
    /* what depends on the machine alone, found on the first call (a call's fixed cost) */
    if (!kit.dbl_checked) {
        kit.dbl_checked = 1;
        const int fits = coll_dbl_allreduce_fits(&kit.ctx, 1u);
        kit.dbl_rounds = (uint8_t)(fits ? coll_dbl_rounds(&kit.ctx) : 0u);
        kit.dbl_ws0 = fits ? coll_dbl_allreduce_workspace(&kit.ctx, 0u) : 0u;
    }
    const uint32_t rounds = kit.dbl_rounds;
    if (!rounds || !coll_in_ram(send, 4u * total) || (by_alltoall && rounds * 4u * total > 3072u))
        return 0;
    const uint32_t ws = kit.dbl_ws0 + 4u * rounds * total;
    return ws + 16u <= kit.ws_bytes ? ws : 0u;
}

/* an allreduce of count elements by the doubling (ni_allreduce), whose plan takes dbl_ws bytes
 * (dbl_need); words [first, first + words) of its result copied to out (none when out is
 * NULL): rvm_allreduce, rvm_reduce and rvm_reduce_scatter of the same vector share its plan */
static int dbl_allreduce(const char *name, const void *send, uint32_t count, uint32_t kind, uint32_t dbl_ws, void *out,
                         uint32_t first, uint32_t words)
{
    const coll_plan *plan;
    const int rc = ni_allreduce(name, 0, 1, send, 0, 0, count, kind, dbl_ws, &plan);
    if (rc == COLL_OK && out)
        memcpy(out, (const uint32_t *)coll_dbl_result(plan) + first, 4u * (size_t)words);
    return rc;
}

/* rvm_allreduce (root RVM_ALL_NODES) and rvm_reduce, on communicator `group` (the machine, a
 * row, a column: n its members, ranks for nodes): the path is chosen from what is the same on
 * every member (count, the declarations, the free RAM), so every member takes the same one */
static int reduction(uint32_t group, const char *name, const void *send, void *recv, uint32_t count, rvm_op op,
                     uint32_t root)
{
    if (!kit.initialised)
        return not_initialised(name);
    kit.reduce_path = "";
    if (comm_refused(group, name))
        return COLL_EARG;
    if (!op_valid(op))
        return op_refused(name, op);
    const uint32_t n = rvm_comm_size((rvm_comm)group), me = rvm_comm_rank((rvm_comm)group);
    if (root != RVM_ALL_NODES && root_refused(group, name, root))
        return COLL_EROOT;
    if (count == 0)
        return COLL_OK;   /* as MPI: nothing to combine, nothing sent */
    const int keeps = root == RVM_ALL_NODES || root == me;
    if (!send || ((uintptr_t)send & 3u) || (keeps && (!recv || ((uintptr_t)recv & 3u))))
        return fail(COLL_EARG, name, "buffers must be word-aligned, not null (off the root, rvm_reduce's recv may "
                    "be NULL)");
    const uint64_t bytes = 4ull * count;
    int rc;
    /* the NI's rings (rings_need): a reduction of the machine (a 2-D torus whose NI combines,
     * count a multiple of 4N) or of every line of a torus at once (count a multiple of 2n), a
     * built-in op (every node decides alike). The checks are a call's
     * fixed cost: what depends on the machine alone is found once (rings_workspace), and the
     * other paths' 64-bit divisions come after. An rvm_reduce runs the allreduce with its
     * result off the root in the free RAM (a reduce to one node moves as much over the root's
     * links as the allreduce's second half does over every node's), so it needs count words
     * of free RAM on every node, the root's too (every node decides alike). */
    const uint32_t kind = combine_kind(op);
    const uint64_t held_off_root = root == RVM_ALL_NODES ? 0u : (bytes + 15u) & ~15ull;
    uint32_t ring_ws;
    if ((ring_ws = rings_need(group, count, n, kind)) != 0 && coll_in_ram(send, (uint32_t)bytes) &&
        (!keeps || coll_in_ram(recv, (uint32_t)bytes)) && ring_ws + COLL_RING_SCRATCH + 16u + held_off_root <= kit.ws_bytes) {
        if (root == RVM_ALL_NODES && send != recv && coll_overlap(send, bytes, recv, bytes))
            return fail(COLL_EARG, name, "send and recv overlap but are not the same buffer: pass the same pointer "
                        "for an allreduce in place, or buffers apart");
        kit.reduce_path = "rings";
        comm_begin();
        if (root == RVM_ALL_NODES) {
            rc = ni_allreduce(name, group, 0, send, recv, 0, count, kind, ring_ws, 0);
        } else {
            /* the root's result straight into recv when recv is apart from send, else (and off
             * the root) into the free RAM, then to recv: every node runs the rings apart */
            uint8_t *held = reserve((uint32_t)bytes);
            const int straight = keeps && !coll_overlap(send, bytes, recv, bytes);
            rc = ni_allreduce(name, group, 0, send, straight ? recv : held, 0, count, kind, ring_ws, 0);
            if (rc == COLL_OK && keeps && !straight)
                memcpy(recv, held, (size_t)bytes);
            unreserve();
        }
        comm_end();
        return rc;
    }
    /* a reduction of the machine the rings do not take (a count under 4N or not a multiple
     * of it), short: recursive doubling in the NI (sides powers of two), log2(N) rounds of a
     * put each, the result on every node (a reduce keeps it on the root); every node decides
     * alike (count, op, the machine). send is read before the result is copied out: recv
     * may overlap it. */
    uint32_t dbl_ws;
    if ((dbl_ws = dbl_need(group, count, kind, send,
                           count % n == 0 && bytes >= RVM_ALLREDUCE_LARGE_BYTES && declared(group, COLL_ALLTOALL))) != 0) {
        kit.reduce_path = "doubling";
        comm_begin();
        rc = dbl_allreduce(name, send, count, kind, dbl_ws, keeps ? recv : 0, 0, count);
        comm_end();
        return rc;
    }
    const uint64_t small = bytes * n, large = bytes + bytes / n;
    const uint32_t free_ram = kit.ws_bytes;
    const uint32_t cb = count / n, blk = 4u * cb;   /* the large path's block: count / N elements */
    /* the large path's blocks: an allreduce apart takes them in recv itself (then only its
     * reduced block, count/N elements, is held in the free RAM), an rvm_reduce or an
     * allreduce in place (send and recv overlapping) holds all of them. The choice counts
     * with the allreduce apart on every node (each decides alike), so a node in place with
     * too little free RAM for the rest says so. */
    const int into_recv = root == RVM_ALL_NODES && !coll_overlap(send, bytes, recv, bytes);
    const uint64_t plan_large = root == RVM_ALL_NODES ? bytes / n : large, hold = into_recv ? bytes / n : large;
    comm_begin();
    int use_large = 0;
    if (count % n == 0 && bytes >= RVM_ALLREDUCE_LARGE_BYTES && plan_large + 16u <= free_ram &&
        declared(group, COLL_ALLTOALL)) {
        reserve((uint32_t)plan_large);
        int why;
        uint32_t need;
        use_large = pick(group, COLL_ALLTOALL, 0, blk, &why, &need) >= 0 && pick(group, COLL_ALLGATHER, 0, blk, &why, &need) >= 0;
        unreserve();
    }
    if (use_large) {
        /* reduce-scatter by alltoall (block t of every node to node t), the blocks combined in
         * node order, then the reduced blocks to every node by allgather (Rabenseifner) */
        kit.reduce_path = "alltoall+allgather";
        if (hold + 16u > free_ram) {
            rc = fail(COLL_EWORKSPACE, name, "count %lu in place needs %lu bytes of workspace for the %lu %s' "
                      "blocks, the program leaves %lu free between its data and its stack: pass recv apart from "
                      "send (then it needs %lu), or make its arrays smaller", (unsigned long)count,
                      (unsigned long)((hold + 15u) & ~15ull), (unsigned long)n, group ? "members" : "nodes",
                      (unsigned long)free_ram, (unsigned long)((plan_large + 15u) & ~15ull));
            comm_end();
            return rc;
        }
        uint32_t *held = (uint32_t *)(void *)reserve((uint32_t)hold);
        uint32_t *parts = into_recv ? (uint32_t *)recv : held, *mine = into_recv ? held : held + count;
        rc = call_in(group, COLL_ALLTOALL, name, send, (uint32_t)bytes, parts, (uint32_t)bytes, blk, 0);
        if (rc == COLL_OK) {
            combine_all(mine, parts, n, cb, cb, op);
            rc = call_in(group, COLL_ALLGATHER, name, mine, blk, keeps ? recv : (void *)parts, (uint32_t)bytes, blk, 0);
        }
    } else if (small + 16u > free_ram) {
        char hint[112] = "";
        if (count % n == 0 && !declared(group, COLL_ALLTOALL) && plan_large + 16u <= free_ram)
            snprintf(hint, sizeof hint, " (or declare %salltoall: with it a count that is a multiple of %lu needs %lu)",
                     group_prefix(group), (unsigned long)n, (unsigned long)((plan_large + 15u) & ~15ull));
        rc = fail(COLL_EWORKSPACE, name, "count %lu needs %lu bytes of workspace for the %lu %s' vectors, the "
                  "program leaves %lu free between its data and its stack: make its arrays (or count) smaller%s",
                  (unsigned long)count, (unsigned long)((small + 15u) & ~15ull), (unsigned long)n,
                  group ? "members" : "nodes", (unsigned long)free_ram, hint);
        comm_end();
        return rc;
    } else {
        /* every node's vector to every node by allgather, combined in node order */
        kit.reduce_path = "allgather";
        uint32_t *all = (uint32_t *)(void *)reserve((uint32_t)small);
        rc = call_in(group, COLL_ALLGATHER, name, send, (uint32_t)bytes, all, (uint32_t)small, (uint32_t)bytes, 0);
        if (rc == COLL_OK && keeps) {
            uint32_t *out = recv;
            combine_all(out, all, n, count, count, op);
        }
    }
    unreserve();
    comm_end();
    return rc;
}

const char *rvm_last_reduce_path(void) { return kit.reduce_path ? kit.reduce_path : ""; }

void rvm_allreduce_rings(int on) { kit.rings_off = !on; }

int rvm_allreduce(const void *send, void *recv, uint32_t count, rvm_op op)
{
    return reduction(RVM_COMM_WORLD, "rvm_allreduce", send, recv, count, op, RVM_ALL_NODES);
}

int rvm_reduce(const void *send, void *recv, uint32_t count, rvm_op op, uint32_t root)
{
    return reduction(RVM_COMM_WORLD, "rvm_reduce", send, recv, count, op, root);
}

int rvm_allreduce_on(rvm_comm comm, const void *send, void *recv, uint32_t count, rvm_op op)
{
    return reduction((uint32_t)comm, "rvm_allreduce_on", send, recv, count, op, RVM_ALL_NODES);
}

int rvm_reduce_on(rvm_comm comm, const void *send, void *recv, uint32_t count, rvm_op op, uint32_t root)
{
    return reduction((uint32_t)comm, "rvm_reduce_on", send, recv, count, op, root);
}

static int reduce_scatter(uint32_t group, const char *name, const void *send, void *recv, uint32_t count, rvm_op op)
{
    if (!kit.initialised)
        return not_initialised(name);
    if (comm_refused(group, name))
        return COLL_EARG;
    if (!op_valid(op))
        return op_refused(name, op);
    if (count == 0)
        return COLL_OK;
    if (!send || !recv || ((uintptr_t)send & 3u) || ((uintptr_t)recv & 3u))
        return fail(COLL_EARG, name, "buffers must be word-aligned, not null");
    const uint32_t n = rvm_comm_size((rvm_comm)group), me = rvm_comm_rank((rvm_comm)group);
    const uint64_t blk = 4ull * count, all = blk * n;
    kit.reduce_path = "";
    if (all + 16u > kit.ws_bytes)
        return fail(COLL_EWORKSPACE, name, "count %lu needs %lu bytes of workspace for the %lu %s' blocks, the "
                    "program leaves %lu free between its data and its stack: make its arrays (or count) smaller",
                    (unsigned long)count, (unsigned long)((all + 15u) & ~15ull), (unsigned long)n,
                    group ? "members" : "nodes", (unsigned long)kit.ws_bytes);
    int rc;
    const uint32_t kind = combine_kind(op);
    /* a short vector of the machine the rings do not take: recursive doubling in the NI (as
     * rvm_allreduce), block me of its result to recv */
    uint32_t dbl_ws;
    if (rings_need(group, count * n, n, kind) == 0 &&
        (dbl_ws = dbl_need(group, count * n, kind, send, declared(group, COLL_ALLTOALL))) != 0) {
        kit.reduce_path = "doubling";
        comm_begin();
        rc = dbl_allreduce(name, send, count * n, kind, dbl_ws, recv, me * count, count);
        comm_end();
        return rc;
    }
    comm_begin();
    uint32_t *parts = (uint32_t *)(void *)reserve((uint32_t)all);
    /* the NI's rings (as rvm_allreduce: a built-in op; the machine's, a 2-D torus whose NI
     * combines, count a multiple of 4; a line's of a torus, count even): the whole vector
     * reduced into the free RAM (the rings' reduce-scatter half), then each block put straight
     * into its owner's recv (no allgather); when recv overlaps send, the rings' allreduce and
     * block me copied to recv */
    uint32_t ring_ws;
    if ((ring_ws = rings_need(group, count * n, n, kind)) != 0 && coll_in_ram(send, (uint32_t)all) &&
        ring_ws + COLL_RING_SCRATCH + 16u <= kit.ws_bytes) {
        kit.reduce_path = "rings";
        const int straight = coll_in_ram(recv, (uint32_t)blk) && !coll_overlap(recv, blk, send, all);
        rc = ni_allreduce(name, group, 0, send, parts, straight ? recv : 0, count * n, kind, ring_ws, 0);
        if (rc == COLL_OK && !straight)
            memcpy(recv, parts + (size_t)me * count, (size_t)blk);
    } else {
        /* block t of every member to member t (alltoall), then the n blocks combined in rank order */
        kit.reduce_path = "alltoall";
        rc = call_in(group, COLL_ALLTOALL, name, send, (uint32_t)all, parts, (uint32_t)all, (uint32_t)blk, 0);
        if (rc == COLL_OK) {
            uint32_t *out = recv;
            combine_all(out, parts, n, count, count, op);
        }
    }
    unreserve();
    comm_end();
    return rc;
}

int rvm_reduce_scatter(const void *send, void *recv, uint32_t count, rvm_op op)
{
    return reduce_scatter(RVM_COMM_WORLD, "rvm_reduce_scatter", send, recv, count, op);
}

int rvm_reduce_scatter_on(rvm_comm comm, const void *send, void *recv, uint32_t count, rvm_op op)
{
    return reduce_scatter((uint32_t)comm, "rvm_reduce_scatter_on", send, recv, count, op);
}
