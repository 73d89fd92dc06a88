/* SPDX-License-Identifier: ISC */
/* The dispatcher of broadcast, scatter and gather (numbers of sched.h; the numbers of
 * sched_coll.h go on to sched_gen_coll.c) and the bounds each is held to. Host only. */
#include "sched.h"
#include "sched_coll.h"   /* issue 5 algorithms (numbers >= 32) */
#include "gen/sched_gen.h"
#include "base/sched_base.h"
#include "bcast/sched_bcast.h"
#include "baseline/sched_baseline.h"
#include "exchange/sched_exchange.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* Bounds. */

static uint32_t ceil_log(uint64_t base, uint64_t n)
{
    uint64_t reach = 1;
    uint32_t t = 0;
    while (reach < n) { reach *= base; t++; }
    return t;
}

static int is_pow2(uint32_t v) { return v >= 2 && (v & (v - 1u)) == 0; }

static int tw_applies(const sched_shape *sh)
{
    if (!sh->torus || sh->dims < 2) return 0;
    for (unsigned d = 1; d < sh->dims; d++) if (sh->side[d] != sh->side[0]) return 0;
    return 1;
}

uint32_t sched_expected_steps(const sched_shape *sh, sched_algo algo, uint32_t root)
{
    if (sched_coll_is_algo((int)algo)) return sched_coll_expected_slots(sh, (int)algo, 0);
    uint32_t n = sh->side[0], d = sh->dims, q = 2u * d + 1u;
    switch (algo) {
    case SCHED_ALGO_TSAY_WANG:
        if (n % 2) return d * ceil_log(q, n) + (d >= 3);
        return d * ceil_log(q, n - 1u) + (d >= 3 && n > 2) + (d + 1u) / 2u;
    case SCHED_ALGO_CANG_WU:
    case SCHED_ALGO_CANG_WU_DP:
        return sched_lb_oneport_bcast(sh);
    case SCHED_ALGO_SAF_BCAST:
        return sched_eccentricity(sh, root);
    case SCHED_ALGO_SCATTER:
    case SCHED_ALGO_GATHER:
        return sched_scatter_tree_bound(sh, root);
    case SCHED_ALGO_BCAST_EDST:      /* one chunk per tree: the depth lower bound */
        return sched_edst_depth_bound(sh, root);
    case SCHED_ALGO_BCAST_BINOMIAL:  /* rounds */
        return sched_lb_oneport_bcast(sh);
    }
    return 0;
}

uint32_t sched_paper_steps(const sched_shape *sh, sched_algo algo, uint32_t root)
{
    uint32_t n = sh->side[0], d = sh->dims, q = 2u * d + 1u;
    switch (algo) {
    case SCHED_ALGO_TSAY_WANG:   /* abstract of the paper */
        if (n % 2) return d * ceil_log(q, n) + 1u;
        return d * ceil_log(q, n - 1u) + (d + 1u) / 2u + 1u;
    case SCHED_ALGO_CANG_WU:
    case SCHED_ALGO_CANG_WU_DP:
        return sched_lb_oneport_bcast(sh);
    case SCHED_ALGO_SAF_BCAST:
        return sched_eccentricity(sh, root);
    case SCHED_ALGO_SCATTER:
    case SCHED_ALGO_GATHER:
        if (sh->dims == 2 && sh->torus && sh->side[0] >= 4 && sh->side[1] >= 4)
            return (sched_nodes(sh) - 1u + 3u) / 4u;
        return 0;
    case SCHED_ALGO_BCAST_EDST:
    case SCHED_ALGO_BCAST_BINOMIAL:
        return 0;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Dispatcher. */

int sched_generate(sched_schedule *out, const sched_shape *shape, sched_algo algo, uint32_t root,
                   char *err, size_t errlen)
{
    return sched_generate_chunks(out, shape, algo, root, 1, err, errlen);
}

int sched_generate_chunks(sched_schedule *out, const sched_shape *shape, sched_algo algo, uint32_t root,
                          uint32_t chunks, char *err, size_t errlen)
{
    return sched_generate_dead(out, shape, algo, root, chunks, 0, 0, err, errlen);
}

int sched_generate_dead(sched_schedule *out, const sched_shape *shape, sched_algo algo, uint32_t root,
                        uint32_t chunks, const uint32_t *dead, uint32_t ndead, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->dead = dead;
    out->ndead = ndead;
    if (chunks > 1 && algo != SCHED_ALGO_BCAST_EDST)
        return sched_fail(err, errlen, "chunks apply to bcast-edst only (%s sends whole pieces)", sched_algo_name(algo));
    const char *problem = sched_subshape_problem(shape);
    if (problem) return sched_fail(err, errlen, "bad shape: %s", problem);
    if (shape->dims < 2) return sched_fail(err, errlen, "bad shape: the generators need 2 or 3 dimensions");
    if (root >= sched_nodes(shape)) return sched_fail(err, errlen, "the root is not a node of the shape");
    out->shape = *shape;
    out->algo = algo;
    out->root = root;
    switch (algo) {
    case SCHED_ALGO_TSAY_WANG:
        if (!tw_applies(shape))
            return sched_fail(err, errlen, "tsay-wang needs a torus with all sides equal (n x n or n x n x n); "
                                          "use --torus and equal sides, or another algorithm");
        out->coll = SCHED_COLL_BCAST;
        out->model = SCHED_MODEL_WORMHOLE_ALLPORT;
        return sched_gen_tsay_wang(out, err, errlen);
    case SCHED_ALGO_CANG_WU:
    case SCHED_ALGO_CANG_WU_DP:
        if (shape->dims != 2 || shape->side[0] != shape->side[1] || !is_pow2(shape->side[0]))
            return sched_fail(err, errlen, "%s needs a 2-D 2^k x 2^k shape (4x4, 8x8, 16x16, ...)",
                             sched_algo_name(algo));
        if (algo == SCHED_ALGO_CANG_WU_DP && shape->side[0] > 64)
            return sched_fail(err, errlen, "cang-wu-dp is limited to 64x64 (its table grows as 16^k); use cang-wu");
        out->coll = SCHED_COLL_BCAST;
        out->model = SCHED_MODEL_WORMHOLE_ONEPORT;
        return sched_gen_cang_wu(out, algo == SCHED_ALGO_CANG_WU_DP, err, errlen);
    case SCHED_ALGO_SAF_BCAST:
        out->coll = SCHED_COLL_BCAST;
        out->model = SCHED_MODEL_SAF_ALLPORT;
        return sched_gen_saf_bcast(out, err, errlen);
    case SCHED_ALGO_SCATTER:
    case SCHED_ALGO_GATHER:
        out->coll = algo == SCHED_ALGO_SCATTER ? SCHED_COLL_SCATTER : SCHED_COLL_GATHER;
        out->model = SCHED_MODEL_SAF_ALLPORT;
        return sched_gen_scatter_gather(out, algo == SCHED_ALGO_GATHER, err, errlen);
    case SCHED_ALGO_BCAST_EDST:
        out->coll = SCHED_COLL_BCAST;
        out->model = SCHED_MODEL_SAF_ALLPORT;
        return sched_gen_bcast_edst(out, chunks ? chunks : 1u, err, errlen);
    case SCHED_ALGO_BCAST_BINOMIAL:
        out->coll = SCHED_COLL_BCAST;
        out->model = SCHED_MODEL_WORMHOLE_CONTENDED;
        return sched_gen_bcast_binomial(out, err, errlen);
    }
    if (sched_coll_is_algo((int)algo))
        return sched_coll_generate_dead(out, shape, (int)algo, root, dead, ndead, err, errlen);
    return sched_fail(err, errlen, "unknown algorithm %d", (int)algo);
}
