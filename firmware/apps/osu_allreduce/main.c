/* SPDX-License-Identifier: ISC
 * rvm_allreduce (int32 sums) as OSU's osu_allreduce measures MPI_Allreduce, and with
 * OSU_COLLS (a mask: 1 allreduce, 2 rvm_reduce to node 0, 4 rvm_reduce_scatter) the others as
 * osu_reduce and osu_reduce_scatter measure theirs (the size: the whole vector; a
 * reduce-scatter's block is 1/N of it; reduce-scatter has no in place): sizes doubling
 * from the smallest multiple of 4N elements to OSU_MAX_BYTES (in place on to
 * OSU_INPLACE_MAX_BYTES, the last size the largest multiple of 4N in it), each size one warm-up call and
 * OSU_ITERS timed ones, every node entering each call from a barrier, only the call timed,
 * every result checked (a reduce's on the root, a reduce-scatter's block on its node). Per size, three ways: the default choice with send and recv apart,
 * in place (send == recv), and the other paths (rvm_allreduce_rings(0)) apart, so that one
 * run compares them. A node's figure is its mean over the timed calls; node 0 prints their
 * minimum, mean and maximum over the nodes, and the all-port bound of reduce-scatter +
 * allgather (or + gather to the root), 2 (N-1) (m/N) / (2d x 4 bytes a cycle), for a 2-D
 * machine (a reduce-scatter's: half of it):
 *   osu_allreduce: bytes B way W path P min A avg M max X bound D ok|FAILED
 * (osu_reduce: ..., osu_reduce_scatter: ... the same) */
#include <stdio.h>
#include <string.h>

#include "rvmesh.h"

/* one buffer: apart, send is its first count words and recv the next; in place, recv is its
 * first count words, so in place goes on to OSU_INPLACE_MAX_BYTES */
#ifndef OSU_INPLACE_MAX_BYTES
#define OSU_INPLACE_MAX_BYTES OSU_MAX_BYTES
#endif
#ifndef OSU_COLLS
#define OSU_COLLS 1u
#endif
enum { ALLREDUCE, REDUCE, REDUCE_SCATTER, COLLS };
static const char *const coll_names[COLLS] = {"osu_allreduce", "osu_reduce", "osu_reduce_scatter"};
#define WORDS (OSU_MAX_BYTES / 4u)
#define INPLACE_WORDS (OSU_INPLACE_MAX_BYTES / 4u)
#define BUF_WORDS (2u * WORDS > INPLACE_WORDS ? 2u * WORDS : INPLACE_WORDS)
static uint32_t buf[BUF_WORDS];

/* node s's element i of call k (different on every node and element), and its sum over the
 * N nodes: 7 N(N-1)/2 + N i (k+1) + i N(N-1)/2 */
static uint32_t value(uint32_t s, uint32_t i, uint32_t k) { return s * 7u + i * (k + 1u) + s * i; }
static uint32_t sum_of(uint32_t i, uint32_t k)
{
    const uint32_t n = rvm_nodes(), pairs = n * (n - 1u) / 2u;
#ifdef OSU_PLANT   /* tests/firmware/apps/test_osu_allreduce.sh: a wrong expectation is seen */
    if (i == 3u)
        return 7u * pairs + n * i * (k + 1u) + i * pairs + 1u;
#endif
    return 7u * pairs + n * i * (k + 1u) + i * pairs;
}

/* one call of count elements (the whole vector), checked; its cycles (its return code in *rc) */
static uint32_t one(int coll, uint32_t count, int in_place, uint32_t k, int *ok, int *rc_out)
{
    const uint32_t me = rvm_node(), blk = count / rvm_nodes();
    uint32_t *vout = in_place ? buf : buf + count, *src = buf;
    for (uint32_t i = 0; i < count; ++i)
        src[i] = value(me, i, k);
    if (!in_place)
        memset(vout, 0xa5, 4u * count);
    rvm_barrier();
    const uint64_t t0 = rvm_cycles();
    /* (a call the program does not measure is not linked: its code would take free RAM from the
     * kept plans of the others) */
    const int rc = coll == ALLREDUCE ? rvm_allreduce(src, vout, count, RVM_SUM)
                   : coll == REDUCE && (OSU_COLLS & 2u) ? rvm_reduce(src, vout, count, RVM_SUM, 0)
                   : (OSU_COLLS & 4u) ? rvm_reduce_scatter(src, vout, blk, RVM_SUM) : -1;
    const uint32_t took = (uint32_t)(rvm_cycles() - t0);
    *rc_out = rc;
    *ok &= rc == 0;
    /* what this node got: all of it, the root's whole vector, or block me */
    const uint32_t first = coll == REDUCE_SCATTER ? me * blk : 0u;
    const uint32_t got = coll == REDUCE_SCATTER ? blk : coll == REDUCE && me != 0u ? 0u : count;
    for (uint32_t i = 0; i < got && *ok; ++i)
        *ok &= vout[i] == sum_of(first + i, k);
    return took;
}

/* the next size: double, or the largest multiple of `unit` that fits when doubling does not
 * (past INPLACE_WORDS: the end) */
static uint32_t next_count(uint32_t count, uint32_t unit)
{
    const uint32_t last = INPLACE_WORDS / unit * unit;
    return 2u * count <= INPLACE_WORDS || count >= last ? 2u * count : last;
}

int main(void)
{
    rvm_init();
    const uint32_t n = rvm_nodes();
    static const char *const ways[] = {"apart", "in-place", "no-rings"};
    int all_ok = 1;
    for (int coll = 0; coll < COLLS; ++coll) {
        if (!(OSU_COLLS & (1u << coll)))
            continue;
        for (uint32_t count = 4u * n; count <= INPLACE_WORDS; count = next_count(count, 4u * n))
            for (int way = 0; way < 3; ++way) {
                if ((count > WORDS && way != 1) || (coll == REDUCE_SCATTER && way == 1))
                    continue;   /* past OSU_MAX_BYTES: in place only; reduce-scatter: never */
                /* the other paths hold count + count/N elements (alltoall + allgather; a
                 * reduce-scatter's alltoall: count) in the free RAM, with room for their
                 * plans: a size the big buffer leaves no room for is skipped (the same on every
                 * node); so is a reduce in place past OSU_MAX_BYTES (it holds count too) */
                const uint32_t need = 4u * (count + (coll == REDUCE_SCATTER ? 0u : count / n)) + 4096u;
                if ((way == 2 || (coll == REDUCE && way == 1 && count > WORDS)) && need > rvm_workspace_bytes()) {
                    if (rvm_node() == 0)
                        printf("%s: bytes %lu way %s skipped: needs about %lu bytes of free RAM, %lu free\n",
                               coll_names[coll], (unsigned long)(4u * count), ways[way], (unsigned long)need,
                               (unsigned long)rvm_workspace_bytes());
                    continue;
                }
                rvm_allreduce_rings(way != 2);
                int ok = 1, rc;
                /* warm-up: the plan compiled and kept. A call may still need more free RAM
                 * than the estimate above says (the 8x8 torus's reduce at 16 KiB: the rings'
                 * result off the root held in the free RAM, then the other paths' plans): a
                 * workspace error is a size skipped too (every node decides alike) */
                rvm_errors_return(1);
                (void)one(coll, count, way == 1, 0, &ok, &rc);
                rvm_errors_return(0);
                if (rc == COLL_EWORKSPACE) {
                    if (rvm_node() == 0)
                        printf("%s: bytes %lu way %s skipped: its plans need more free RAM than the %lu free\n",
                               coll_names[coll], (unsigned long)(4u * count), ways[way],
                               (unsigned long)rvm_workspace_bytes());
                    rvm_allreduce_rings(1);
                    continue;
                }
                uint32_t total = 0;
                for (uint32_t k = 1; k <= OSU_ITERS; ++k)
                    total += one(coll, count, way == 1, k, &ok, &rc);
                const char *path = rvm_last_reduce_path();
                /* min, mean and max over the nodes of the nodes' means; whether all were right */
                uint32_t mine[2] = {total / OSU_ITERS, (uint32_t)ok}, lo[2], hi[2], sum[2];
                rvm_allreduce_rings(1);
                rvm_allreduce(mine, lo, 2, RVM_UMIN);
                rvm_allreduce(mine, hi, 2, RVM_UMAX);
                rvm_allreduce(mine, sum, 2, RVM_SUM);
                const uint32_t bytes = 4u * count, halves = coll == REDUCE_SCATTER ? 1u : 2u;
                const uint32_t bound = (halves * (n - 1u) * (bytes / n) + 4u * 4u - 1u) / (4u * 4u);
                all_ok &= lo[1] == 1u;
                if (rvm_node() == 0)
                    printf("%s: bytes %lu way %s path %s min %lu avg %lu max %lu bound %lu %s\n", coll_names[coll],
                           (unsigned long)bytes, ways[way], path, (unsigned long)lo[0], (unsigned long)(sum[0] / n),
                           (unsigned long)hi[0], (unsigned long)bound, lo[1] == 1u ? "ok" : "FAILED");
            }
    }
    return all_ok ? 0 : 1;
}
