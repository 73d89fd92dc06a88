/* SPDX-License-Identifier: ISC */
/* rvmesh schedule library: collective-communication schedules on 2-D/3-D meshes and tori.
 *
 * A schedule is a flat list of messages sorted by step. Every message names its sender,
 * its receiver, the data piece it carries and its route: a start dimension and a signed
 * hop count per dimension (the router goes dimension by dimension, cyclically from the
 * start dimension, in the direction of each sign). Two models:
 *   - wormhole steps: a message may cross many hops in one step;
 *   - store-and-forward slots: every message is one hop on one port, and a node can only
 *     send a piece it already holds.
 * Pieces: broadcast carries piece 0 everywhere (bcast-edst: pieces 0 .. parts-1, the parts of
 * the root's block, all due everywhere); in scatter and gather the piece is the id of the node
 * whose item it is (later collectives may number pieces as they like).
 *
 * Portable C11, the part of the schedule library a node runs: this header, sched_shape.c,
 * sched_names.c and sched_table.c use no dynamic allocation (the caller provides buffers) and
 * build for the RV32IM core. The generators, the checker and the writers are host tools, in
 * tools/sched/. See firmware/sched/README.md.
 */
#ifndef RVMESH_SCHED_H
#define RVMESH_SCHED_H

#include <stddef.h>
#include <stdint.h>

#define SCHED_MAX_DIMS 3
#define SCHED_MAX_SIDE 1024u
#define SCHED_MAX_NODES 1048576u

typedef struct {
    uint8_t dims;                  /* 2 or 3 (1 is accepted by the shape helpers) */
    uint8_t torus;                 /* 1: wrap links in every dimension, 0: mesh */
    uint16_t side[SCHED_MAX_DIMS]; /* side lengths; unused dimensions are 1 */
} sched_shape;

typedef enum {
    SCHED_ALGO_TSAY_WANG = 1,  /* all-port wormhole broadcast on an n^d torus */
    SCHED_ALGO_CANG_WU = 2,    /* one-port wormhole broadcast, 2^k x 2^k, Algorithm 1 + orientation */
    SCHED_ALGO_CANG_WU_DP = 3, /* one-port wormhole broadcast, 2^k x 2^k, quadrant-recursive optimum */
    SCHED_ALGO_SAF_BCAST = 4,  /* all-port store-and-forward broadcast, product tree */
    SCHED_ALGO_SCATTER = 5,    /* all-port store-and-forward scatter, balanced tree */
    SCHED_ALGO_GATHER = 6,     /* all-port store-and-forward gather, balanced tree */
    SCHED_ALGO_BCAST_EDST = 7, /* store-and-forward broadcast of 2d (mesh: d) parts over arc-disjoint
                                * spanning trees, optionally pipelined in chunks (sched_edst.c) */
    SCHED_ALGO_BCAST_BINOMIAL = 8 /* binomial tree over relative ids, dimension-order worms that may
                                   * share links (model wormhole-contended, sched_baseline.c) */
} sched_algo;

typedef enum {
    SCHED_COLL_BCAST = 1,
    SCHED_COLL_SCATTER = 2,
    SCHED_COLL_GATHER = 3
} sched_collective;

typedef enum {
    SCHED_MODEL_WORMHOLE_ALLPORT = 1, /* up to 2d sends per node per step, distinct ports */
    SCHED_MODEL_WORMHOLE_ONEPORT = 2, /* at most one send and one receive per node per step */
    SCHED_MODEL_SAF_ALLPORT = 3       /* one hop per message, one packet per directed link per slot */
} sched_model;

typedef struct {
    uint32_t src;    /* sending node id */
    uint32_t dst;    /* receiving node id */
    uint32_t piece;  /* data piece carried */
    uint16_t step;   /* 1-based step (wormhole) or slot (store-and-forward) */
    uint8_t start_dim;                 /* first dimension of the route (0-based) */
    uint8_t reserved;
    int16_t hops[SCHED_MAX_DIMS];      /* signed hop count per dimension */
} sched_msg;

typedef struct {
    sched_shape shape;
    sched_algo algo;
    sched_collective coll;
    sched_model model;
    uint32_t root;
    uint32_t nsteps;   /* largest step number used */
    uint32_t count;    /* messages */
    uint32_t cap;      /* allocated messages (host generators) */
    sched_msg *msgs;   /* sorted by step */
    uint32_t parts;    /* pieces each block is cut into; 0: the algorithm's fixed number
                        * (sched_coll_parts: dims for the split MNBs, else 1) */
    const uint16_t *rslot;  /* per message: the receiver's transit slot (sched_table.h), for
                             * a writer given part of a schedule; NULL: counted from msgs */
    const uint32_t *dead;   /* directed links no message may cross (node * 2d + send port: a
                             * failed cable is both its directions), or NULL; the checker
                             * rejects a route over one, the -ft generators avoid them */
    uint32_t ndead;
} sched_schedule;

/* ---- shapes (sched_shape.c, portable) ---- */
/* A shape from its sides (z is ignored unless dims is 3); check it with sched_shape_problem. */
sched_shape sched_shape_make(unsigned dims, unsigned x, unsigned y, unsigned z, int torus);
/* Node id = x0 + side0 * (x1 + side1 * x2). */
uint32_t sched_nodes(const sched_shape *shape);
uint32_t sched_node_id(const sched_shape *shape, const int32_t coord[SCHED_MAX_DIMS]);
void sched_node_coord(const sched_shape *shape, uint32_t id, int32_t coord[SCHED_MAX_DIMS]);
/* "(x,y)" or "(x,y,z)" for messages; "#id" for an id that is not a node of the shape. */
void sched_node_text(const sched_shape *shape, uint32_t id, char *buf, size_t len);
/* 0 when valid; otherwise a message saying what is wrong. */
const char *sched_shape_problem(const sched_shape *shape);
/* The same for the shape of a part of a machine (MPI_Cart_sub): a shape as above, or a line:
 * a row (Xx1) or a column (1xY) of a 2-D machine, a row (Xx1x1), column (1xYx1) or pillar
 * (1x1xZ) of a 3-D one, whose node ids are its ranks (x, y or z). The generators and the
 * checker take these; schedgen's --shape does not. */
const char *sched_subshape_problem(const sched_shape *shape);
/* Port p = 2*dim + (0 for the + side, 1 for the - side). */
static inline uint8_t sched_port(uint8_t dim, int dir) { return (uint8_t)(2u * dim + (dir < 0 ? 1u : 0u)); }
/* Neighbour through port; returns -1 on a mesh boundary. */
int64_t sched_neighbour(const sched_shape *shape, uint32_t id, uint8_t port);
/* Hops of a shortest path, eccentricity of a node, number of distinct neighbours. */
uint32_t sched_distance(const sched_shape *shape, uint32_t a, uint32_t b);
uint32_t sched_eccentricity(const sched_shape *shape, uint32_t id);
uint32_t sched_degree(const sched_shape *shape, uint32_t id);
/* Hop count of the route (sum of |hops|), its send port and the port it arrives on. */
uint32_t sched_msg_length(const sched_msg *msg, uint8_t dims);
uint8_t sched_msg_send_port(const sched_msg *msg);
uint8_t sched_msg_recv_port(const sched_msg *msg, uint8_t dims);
/* Lower bound ceil(d log_{2d+1} N) for all-port wormhole broadcast: min t with (2d+1)^t >= N. */
uint32_t sched_lb_allport_bcast(const sched_shape *shape);
/* ceil(log2 N): one-port broadcast lower bound. */
uint32_t sched_lb_oneport_bcast(const sched_shape *shape);
/* ceil((N-1) / degree(root)): all-port scatter/gather lower bound. */
uint32_t sched_lb_scatter(const sched_shape *shape, uint32_t root);
/* Whether the directed link (node * 2d + port) is one of the schedule's dead links. */
static inline int sched_link_dead(const sched_schedule *s, uint32_t link)
{
    for (uint32_t i = 0; i < s->ndead; i++)
        if (s->dead[i] == link) return 1;
    return 0;
}
/* ---- names (sched_names.c, portable) ---- */
const char *sched_algo_name(sched_algo algo);
int sched_algo_from_name(const char *name); /* -1 if unknown */
const char *sched_model_name(sched_model model);
const char *sched_coll_name(sched_collective coll);

#endif
