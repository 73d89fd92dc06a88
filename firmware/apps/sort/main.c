/* SPDX-License-Identifier: ISC
 * Integer sort by alltoall (sample sort, as NAS IS ranks its keys), on every node of the
 * machine (the application kit: kit/README.md).
 *
 * SORT_KEYS keys, SORT_KEYS / N made by each node (sort.h). As NAS IS, the keys are made once
 * and sorted SORT_STEPS times, step s setting two of them first (key s to s, key s + STEPS to
 * the largest key), and the last step's result is checked. A step, on every node:
 *   1. sort its keys (radix sort);
 *   2. take SORT_SAMPLES evenly spaced of them; rvm_allgather gives every node every node's
 *      samples, which it sorts: the samples t * SORT_SAMPLES (t = 1 .. N-1) are the splitters,
 *      the same on every node: node t's bucket is the keys from splitter t to splitter t+1;
 *   3. count its keys of each bucket; rvm_allgather gives every node every node's counts (so
 *      every node knows every bucket's size, its place in the sorted order, and the largest
 *      count, which sets the block of the alltoall);
 *   4. rvm_alltoall sends each node its bucket's keys (a block: the count, then the keys);
 *   5. sort the keys received: this node's bucket, the part of the sorted order from its
 *      place on.
 * The check, after the timed steps: every node's bucket sorted, inside its splitters, of the
 * size the counts say; then an allgather of every node's smallest and largest key and the
 * hashes of its bucket (sort.h): the buckets in order (node k's largest <= node k+1's
 * smallest), the multiset of the keys and the sorted order (a hash of every key at its place)
 * as the host's reference (ref.c, computed when the program is built). A node that finds a
 * difference says what and exits 1.
 * Regions (the machine-wide cycle count, mesh-sim --report): "sort" the steps, "sort_comm" the
 * three collectives in them (make bench-apps reads both). */
#include <stdio.h>

#include "rvmesh.h"
#include "sort.h"
#include "sort_ref.h"

#ifndef SORT_STEPS
#define SORT_STEPS 1
#endif
#ifndef SORT_SAMPLES
#define SORT_SAMPLES 16
#endif
#ifndef SORT_PLANT
#define SORT_PLANT 0   /* 1: one node changes one key of its result (tests/firmware/apps) */
#endif
#define P RVM_NODES
#define K (SORT_KEYS / P)            /* keys a node makes */
#define S SORT_SAMPLES
#if SORT_KEYS % RVM_NODES != 0 || K < S || S < 1
#error "SORT_KEYS must be a multiple of the machine's nodes, with at least SORT_SAMPLES keys a node"
#endif
#if SORT_STEPS < 1 || 2 * SORT_STEPS > SORT_KEYS
#error "SORT_STEPS must be 1 .. SORT_KEYS / 2"
#endif
/* a block of the alltoall: its count, then up to WMAX - 1 keys (twice a fair share, and some) */
#define WMAX (((2 * K / P + 17) + 15) / 16 * 16)
#define CW ((P + 1) / 2)             /* words of a node's counts (16 bits each) */
#if K > 65535 || S > WMAX
#error "at most 65535 keys a node, and SORT_SAMPLES at most a block"
#endif

static uint32_t base[K];             /* this node's keys as made */
static uint32_t keys[K];             /* a step's keys, sorted */
static uint32_t sendbuf[P * WMAX];   /* the alltoall's blocks; then the bucket */
static uint32_t recvbuf[P * WMAX];   /* the blocks received; the radix sort's other half */
static uint32_t samples[S], all_samples[P * S];
static uint32_t splitter[P + 1];     /* bucket t: splitter[t] <= key < splitter[t + 1] */
static uint32_t start[P + 1];        /* bucket t of this node's keys: keys[start[t] .. start[t+1]) */
static uint32_t counts[CW], all_counts[P * CW];
static uint32_t count_of[P];         /* this node's keys of each bucket */

struct record {                      /* what a node tells the others for the check */
    uint32_t size, min, max, hash_pos, hash_set, bad;
};
static struct record mine, records[P];

/* word copies and clears: picolibc's memcpy and memset go a byte at a time (the Makefile's
 * -fno-tree-loop-distribute-patterns keeps gcc from turning these loops back into them) */
static void copy_words(uint32_t *to, const uint32_t *from, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        to[i] = from[i];
}
static void clear_words(uint32_t *to, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        to[i] = 0;
}

/* counts[s][t]: node s's keys of bucket t (16 bits each, from the allgather) */
static uint32_t count_at(uint32_t s, uint32_t t)
{
    return (all_counts[s * CW + t / 2] >> (16 * (t & 1))) & 0xffffu;
}

/* LSD radix sort of a[0..n) by 8-bit digits, tmp[0..n) the other half; the result in a */
static void radix_sort(uint32_t *a, uint32_t *tmp, uint32_t n)
{
    static uint32_t bucket[256];
    uint32_t *from = a, *to = tmp;
    for (uint32_t shift = 0; shift < SORT_KEY_BITS; shift += 8) {
        clear_words(bucket, 256);
        for (uint32_t i = 0; i < n; i++)
            bucket[(from[i] >> shift) & 255u]++;
        for (uint32_t d = 0, sum = 0; d < 256; d++) {
            const uint32_t c = bucket[d];
            bucket[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++)
            to[bucket[(from[i] >> shift) & 255u]++] = from[i];
        uint32_t *t = from;
        from = to;
        to = t;
    }
    if (from != a)
        copy_words(a, from, n);
}

/* the first i in a[0..n) with a[i] >= key (n if none) */
static uint32_t lower_bound(const uint32_t *a, uint32_t n, uint32_t key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint32_t setup_cycles;   /* of the collectives' cycles: compiling their plans (first calls) */
static void comm_begin(void) { rvmesh_region_begin("sort_comm"); }
static void comm_end(void)
{
    rvmesh_region_end("sort_comm", 0);
    setup_cycles += rvm_last_setup_cycles();
}

/* one step: this node's keys[] sorted into its bucket, sendbuf[0..*size) */
static void sort_step(uint32_t *size, uint32_t *offset, uint32_t *block_words)
{
    const uint32_t me = rvm_node();
    radix_sort(keys, recvbuf, K);

    for (uint32_t j = 0; j < S; j++)
        samples[j] = keys[j * K / S + K / (2 * S)];
    comm_begin();
    rvm_allgather(samples, all_samples, sizeof samples);
    comm_end();
    radix_sort(all_samples, sendbuf, P * S);
    splitter[0] = 0;
    for (uint32_t t = 1; t < P; t++)
        splitter[t] = all_samples[t * S];
    splitter[P] = SORT_KEY_MAX + 1u;

    start[0] = 0;
    for (uint32_t t = 1; t < P; t++)
        start[t] = lower_bound(keys, K, splitter[t]);
    start[P] = K;
    clear_words(counts, CW);
    for (uint32_t t = 0; t < P; t++) {
        count_of[t] = start[t + 1] - start[t];
        counts[t / 2] |= count_of[t] << (16 * (t & 1));
    }
    comm_begin();
    rvm_allgather(counts, all_counts, sizeof counts);
    comm_end();

    /* every bucket's size, this node's place, the largest block: the same on every node */
    uint32_t most = 0;
    *size = *offset = 0;
    for (uint32_t s = 0; s < P; s++)
        for (uint32_t t = 0; t < P; t++) {
            const uint32_t c = count_at(s, t);
            most = c > most ? c : most;
            *size += t == me ? c : 0;
            *offset += t < me ? c : 0;
        }
    if (most + 1 > WMAX) {
        printf("sort: FAILED: a node has %lu keys for one bucket, a block holds %d: the samples split the keys "
               "badly (raise SORT_SAMPLES)\n", (unsigned long)most, WMAX - 1);
        rvmesh_exit(1);
    }
    const uint32_t w = (most + 1 + 15) / 16 * 16;   /* a block's words: few sizes, so the kit keeps the plans */
    for (uint32_t t = 0; t < P; t++) {
        sendbuf[t * w] = count_of[t];
        copy_words(&sendbuf[t * w + 1], &keys[start[t]], count_of[t]);
    }
    comm_begin();
    rvm_alltoall(sendbuf, recvbuf, w * 4);
    comm_end();

    uint32_t n = 0;
    for (uint32_t s = 0; s < P; s++) {
        const uint32_t c = recvbuf[s * w];
        if (c != count_at(s, me)) {
            printf("sort: FAILED: node %lu sent %lu keys, its counts said %lu\n", (unsigned long)s, (unsigned long)c,
                   (unsigned long)count_at(s, me));
            rvmesh_exit(1);
        }
        copy_words(&sendbuf[n], &recvbuf[s * w + 1], c);
        n += c;
    }
    radix_sort(sendbuf, recvbuf, n);
    *block_words = w;
}

int main(void)
{
    rvm_init();
    const uint32_t me = rvm_node();
    for (uint32_t i = 0; i < K; i++)
        base[i] = sort_key(0, me * K + i);

    uint32_t size = 0, offset = 0, w = 0;
    rvmesh_region_begin("sort");
    for (uint32_t step = 0; step < SORT_STEPS; step++) {
        copy_words(keys, base, K);
        /* as NAS IS: key step is step, key step + STEPS the largest (on the nodes that hold them) */
        if (step / K == me)
            keys[step % K] = step;
        if ((step + SORT_STEPS) / K == me)
            keys[(step + SORT_STEPS) % K] = SORT_KEY_MAX;
        sort_step(&size, &offset, &w);
    }
    rvmesh_region_end("sort", 0);
    uint32_t *bucket = sendbuf;
#if SORT_PLANT
    /* a wrong result the order cannot show: one key of the middle node one larger, where that
     * keeps its bucket sorted and inside its splitters */
    if (me == P / 2)
        for (uint32_t i = 0; i + 1 < size; i++)
            if (bucket[i] + 1 < bucket[i + 1]) {
                printf("sort: planted a wrong key: place %lu, %lu -> %lu\n", (unsigned long)(offset + i),
                       (unsigned long)bucket[i], (unsigned long)(bucket[i] + 1));
                bucket[i]++;
                break;
            }
#endif

    /* the check: this node's bucket */
    mine = (struct record){size, SORT_KEY_MAX, 0, 0, 0, 0};
    for (uint32_t i = 0; i < size; i++) {
        const uint32_t k = bucket[i];
        if (i && k < bucket[i - 1] && !mine.bad) {
            printf("sort: FAILED: bucket not sorted at place %lu: %lu after %lu\n", (unsigned long)(offset + i),
                   (unsigned long)k, (unsigned long)bucket[i - 1]);
            mine.bad = 1;
        }
        if ((k < splitter[me] || k >= splitter[me + 1]) && !mine.bad) {
            printf("sort: FAILED: key %lu at place %lu is outside this node's bucket %lu .. %lu\n", (unsigned long)k,
                   (unsigned long)(offset + i), (unsigned long)splitter[me], (unsigned long)splitter[me + 1] - 1);
            mine.bad = 1;
        }
        mine.min = k < mine.min ? k : mine.min;
        mine.max = k > mine.max ? k : mine.max;
        mine.hash_pos += sort_hash_pos(offset + i, k);
        mine.hash_set += sort_hash_set(k);
    }
    /* ... and every node's, on every node */
    rvm_allgather(&mine, records, sizeof mine);
    uint32_t total = 0, hash_pos = 0, hash_set = 0, bad = 0, last = 0, biggest = 0;
    for (uint32_t k = 0; k < P; k++) {
        const struct record *r = &records[k];
        if (r->size && r->min < last && !bad) {
            if (me == 0)
                printf("sort: FAILED: node %lu's smallest key %lu is below a key of the node before it (%lu)\n",
                       (unsigned long)k, (unsigned long)r->min, (unsigned long)last);
            bad = 1;
        }
        last = r->size ? r->max : last;
        total += r->size;
        hash_pos += r->hash_pos;
        hash_set += r->hash_set;
        bad |= r->bad;
        biggest = r->size > biggest ? r->size : biggest;
    }
    if (total != SORT_KEYS) {
        if (me == 0)
            printf("sort: FAILED: %lu keys in the buckets, %d were sorted\n", (unsigned long)total, SORT_KEYS);
        bad = 1;
    }
    if (hash_set != sort_ref_hash_set) {
        if (me == 0)
            printf("sort: FAILED: the keys are not those of the host's reference (multiset hash %08lx, the "
                   "host's reference says %08lx)\n", (unsigned long)hash_set, (unsigned long)sort_ref_hash_set);
        bad = 1;
    } else if (hash_pos != sort_ref_hash_pos) {
        if (me == 0)
            printf("sort: FAILED: the order is not the host's reference's (hash %08lx, the host's reference "
                   "says %08lx)\n", (unsigned long)hash_pos, (unsigned long)sort_ref_hash_pos);
        bad = 1;
    }
    if (bad)
        return 1;
    if (me == 0) {
        const struct rvmesh_region *r = rvmesh_region_get("sort"), *c = rvmesh_region_get("sort_comm");
        printf("sort: %d keys of %d bits, %d steps on %lu nodes: as the host's reference (buckets of %lu keys at "
               "most, blocks of %lu words); node 0: %lu cycles, %lu in collectives (%lu of them compiling plans)\n",
               SORT_KEYS, SORT_KEY_BITS, SORT_STEPS, (unsigned long)P, (unsigned long)biggest, (unsigned long)w,
               (unsigned long)r->cycles, (unsigned long)c->cycles, (unsigned long)setup_cycles);
    }
    return 0;
}
