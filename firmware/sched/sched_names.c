/* SPDX-License-Identifier: ISC */
/* Names and numbers of the algorithms, collectives and models (both numberings: sched.h's
 * broadcasts and sched_coll.h's collectives), and the pieces a block is cut into. Portable,
 * no allocation: the firmware prints these names and the table reader counts the parts. */
#include "sched.h"
#include "sched_coll.h"

#include <string.h>

static const char *const algo_names[] = {
    0, "tsay-wang", "cang-wu", "cang-wu-dp", "saf-bcast", "scatter", "gather", "bcast-edst", "bcast-binomial"
};

const char *sched_algo_name(sched_algo algo)
{
    if (sched_coll_is_algo((int)algo)) return sched_coll_algo_name((int)algo);
    if ((unsigned)algo >= sizeof algo_names / sizeof algo_names[0] || !algo_names[algo]) return "?";
    return algo_names[algo];
}

int sched_algo_from_name(const char *name)
{
    for (unsigned i = 1; i < sizeof algo_names / sizeof algo_names[0]; i++)
        if (strcmp(name, algo_names[i]) == 0) return (int)i;
    if (sched_coll_algo_from_name(name) >= 0) return sched_coll_algo_from_name(name);
    return -1;
}

const char *sched_model_name(sched_model model)
{
    switch (model) {
    case SCHED_MODEL_WORMHOLE_ALLPORT: return "wormhole-allport";
    case SCHED_MODEL_WORMHOLE_ONEPORT: return "wormhole-oneport";
    case SCHED_MODEL_SAF_ALLPORT: return "saf-allport";
    }
    if (sched_coll_is_model((int)model)) return sched_coll_model_name((int)model);
    return "?";
}

const char *sched_coll_name(sched_collective coll)
{
    switch (coll) {
    case SCHED_COLL_BCAST: return "broadcast";
    case SCHED_COLL_SCATTER: return "scatter";
    case SCHED_COLL_GATHER: return "gather";
    }
    if (sched_coll_is_collective((int)coll)) return sched_coll_coll_name((int)coll);
    return "?";
}

/* ---- names and parts ---- */

static const char *const coll_algo_names[] = {"mnb", "mnb-split", "te-a3", "te-a2", "te-oneport", "pmnb", "pmnb-split",
                                              "pe", "mnb-diag", "dyn-star", "mnb-opt", "allgather-ring",
                                              "alltoall-pairwise", "pg", "bcast-ft", "scatter-ft", "gather-ft",
                                              "allgather-ft", "alltoall-ft"};
_Static_assert(sizeof coll_algo_names / sizeof coll_algo_names[0] == SCHED_COLL_ALGO_LAST - SCHED_COLL_ALGO_FIRST + 1,
               "one name per algorithm number");

int sched_coll_is_algo(int algo) { return algo >= SCHED_COLL_ALGO_FIRST && algo <= SCHED_COLL_ALGO_LAST; }

int sched_coll_is_collective(int coll)
{
    return coll == (int)SCHED_COLL_ALLGATHER || coll == (int)SCHED_COLL_ALLTOALL ||
           coll == (int)SCHED_COLL_PARTIAL_ALLGATHER || coll == (int)SCHED_COLL_PARTIAL_ALLTOALL ||
           coll == (int)SCHED_COLL_PARTIAL_GATHER;
}

int sched_coll_is_model(int model)
{
    return model == (int)SCHED_MODEL_SAF_ONEPORT || model == (int)SCHED_MODEL_WORMHOLE_CONTENDED;
}

const char *sched_coll_algo_name(int algo)
{
    if (!sched_coll_is_algo(algo)) return "?";
    return coll_algo_names[algo - SCHED_COLL_ALGO_FIRST];
}

int sched_coll_algo_from_name(const char *name)
{
    for (int i = SCHED_COLL_ALGO_FIRST; i <= SCHED_COLL_ALGO_LAST; i++)
        if (strcmp(name, coll_algo_names[i - SCHED_COLL_ALGO_FIRST]) == 0) return i;
    return -1;
}

const char *sched_coll_coll_name(int coll)
{
    if (coll == (int)SCHED_COLL_ALLGATHER) return "allgather";
    if (coll == (int)SCHED_COLL_ALLTOALL) return "alltoall";
    if (coll == (int)SCHED_COLL_PARTIAL_ALLGATHER) return "partial-allgather";
    if (coll == (int)SCHED_COLL_PARTIAL_ALLTOALL) return "partial-alltoall";
    if (coll == (int)SCHED_COLL_PARTIAL_GATHER) return "partial-gather";
    return "?";
}

const char *sched_coll_model_name(int model)
{
    if (model == (int)SCHED_MODEL_SAF_ONEPORT) return "saf-oneport";
    if (model == (int)SCHED_MODEL_WORMHOLE_CONTENDED) return "wormhole-contended";
    return "?";
}

uint32_t sched_coll_parts(const sched_schedule *s)
{
    if (s->parts) return s->parts;
    if (s->algo == SCHED_ALGO_MNB_SPLIT || s->algo == SCHED_ALGO_PMNB_SPLIT) return s->shape.dims;
    return 1u;
}
