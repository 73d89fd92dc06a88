/* SPDX-License-Identifier: ISC */
/* Sorting: quicksort (median of three, explicit stack) of 3000 pseudo-random words and
 * insertion sort of the first 400 of them; the results must be in order, a permutation
 * of the input (same sum, xor and sum of squares, and the same multiset as a merge of
 * the two sorted copies shows), and quicksort must agree with insertion sort on the
 * prefix. A checksum of the sorted array is printed too. */
#include <stdint.h>
#include <stdio.h>

#include "rvmesh_rt.h"

#define ARRAY_LENGTH 3000u
#define INSERTION_LENGTH 400u

static uint32_t original[ARRAY_LENGTH];
static uint32_t quick_sorted[ARRAY_LENGTH];
static uint32_t insertion_sorted[INSERTION_LENGTH];
static uint32_t prefix_quick_sorted[INSERTION_LENGTH];

static uint32_t random_state = 0x2545F491u;

static uint32_t next_random(void)
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 17;
    random_state ^= random_state << 5;
    return random_state;
}

static void swap_words(uint32_t *a, uint32_t *b)
{
    uint32_t t = *a;
    *a = *b;
    *b = t;
}

static void quicksort(uint32_t *data, int32_t count)
{
    int32_t stack_low[64], stack_high[64];
    int32_t depth = 0;
    stack_low[0] = 0;
    stack_high[0] = count - 1;
    depth = 1;
    while (depth > 0) {
        depth--;
        int32_t low = stack_low[depth], high = stack_high[depth];
        while (high - low > 8) {
            int32_t middle = low + (high - low) / 2;
            if (data[middle] < data[low]) swap_words(&data[middle], &data[low]);
            if (data[high] < data[low]) swap_words(&data[high], &data[low]);
            if (data[high] < data[middle]) swap_words(&data[high], &data[middle]);
            uint32_t pivot = data[middle];
            int32_t i = low, j = high;
            while (i <= j) {
                while (data[i] < pivot) i++;
                while (data[j] > pivot) j--;
                if (i <= j) {
                    swap_words(&data[i], &data[j]);
                    i++;
                    j--;
                }
            }
            /* push the larger part, loop on the smaller: the stack stays O(log n) */
            if (j - low > high - i) {
                stack_low[depth] = low;
                stack_high[depth] = j;
                depth++;
                low = i;
            } else {
                stack_low[depth] = i;
                stack_high[depth] = high;
                depth++;
                high = j;
            }
        }
        for (int32_t k = low + 1; k <= high; k++) {
            uint32_t value = data[k];
            int32_t m = k - 1;
            while (m >= low && data[m] > value) {
                data[m + 1] = data[m];
                m--;
            }
            data[m + 1] = value;
        }
    }
}

static void insertion_sort(uint32_t *data, uint32_t count)
{
    for (uint32_t k = 1; k < count; k++) {
        uint32_t value = data[k];
        uint32_t m = k;
        while (m > 0 && data[m - 1] > value) {
            data[m] = data[m - 1];
            m--;
        }
        data[m] = value;
    }
}

struct invariants {
    uint32_t sum, xor_all, sum_squares;
};

static struct invariants invariants_of(const uint32_t *data, uint32_t count)
{
    struct invariants inv = {0, 0, 0};
    for (uint32_t i = 0; i < count; i++) {
        inv.sum += data[i];
        inv.xor_all ^= data[i];
        inv.sum_squares += data[i] * data[i];
    }
    return inv;
}

static int is_sorted(const uint32_t *data, uint32_t count)
{
    for (uint32_t i = 1; i < count; i++)
        if (data[i - 1] > data[i])
            return 0;
    return 1;
}

int main(void)
{
    uint64_t cycles_start = rvmesh_cycles();
    uint64_t instret_start = rvmesh_instret();
    int failures = 0;

    for (uint32_t i = 0; i < ARRAY_LENGTH; i++) {
        /* some duplicates on purpose: the low 10 bits only, every 7th element */
        uint32_t value = next_random();
        original[i] = (i % 7 == 0) ? (value & 0x3FFu) : value;
        quick_sorted[i] = original[i];
    }
    for (uint32_t i = 0; i < INSERTION_LENGTH; i++) {
        insertion_sorted[i] = original[i];
        prefix_quick_sorted[i] = original[i];
    }

    quicksort(quick_sorted, (int32_t)ARRAY_LENGTH);
    quicksort(prefix_quick_sorted, (int32_t)INSERTION_LENGTH);
    insertion_sort(insertion_sorted, INSERTION_LENGTH);

    if (!is_sorted(quick_sorted, ARRAY_LENGTH)) {
        printf("sort: FAIL quicksort output not in order\n");
        failures++;
    }
    if (!is_sorted(insertion_sorted, INSERTION_LENGTH)) {
        printf("sort: FAIL insertion sort output not in order\n");
        failures++;
    }
    struct invariants before = invariants_of(original, ARRAY_LENGTH);
    struct invariants after = invariants_of(quick_sorted, ARRAY_LENGTH);
    if (before.sum != after.sum || before.xor_all != after.xor_all ||
        before.sum_squares != after.sum_squares) {
        printf("sort: FAIL quicksort output is not a permutation of the input\n");
        failures++;
    }
    struct invariants prefix_before = invariants_of(original, INSERTION_LENGTH);
    struct invariants prefix_after = invariants_of(insertion_sorted, INSERTION_LENGTH);
    if (prefix_before.sum != prefix_after.sum || prefix_before.xor_all != prefix_after.xor_all ||
        prefix_before.sum_squares != prefix_after.sum_squares) {
        printf("sort: FAIL insertion sort output is not a permutation of the input\n");
        failures++;
    }
    for (uint32_t i = 0; i < INSERTION_LENGTH; i++) {
        if (insertion_sorted[i] != prefix_quick_sorted[i]) {
            printf("sort: FAIL insertion sort and quicksort differ at %lu: 0x%08lx 0x%08lx\n",
                   (unsigned long)i, (unsigned long)insertion_sorted[i],
                   (unsigned long)prefix_quick_sorted[i]);
            failures++;
            break;
        }
    }
    /* every element of the sorted prefix occurs in the sorted whole as often (a merge
     * walk over two sorted arrays) */
    uint32_t j = 0;
    for (uint32_t i = 0; i < INSERTION_LENGTH; i++) {
        while (j < ARRAY_LENGTH && quick_sorted[j] < insertion_sorted[i])
            j++;
        if (j == ARRAY_LENGTH || quick_sorted[j] != insertion_sorted[i]) {
            printf("sort: FAIL 0x%08lx of the prefix is missing from the sorted array\n",
                   (unsigned long)insertion_sorted[i]);
            failures++;
            break;
        }
        j++;
    }
    uint32_t checksum = 0;
    for (uint32_t i = 0; i < ARRAY_LENGTH; i++)
        checksum = checksum * 31u + quick_sorted[i];

    uint64_t cycles = rvmesh_cycles() - cycles_start;
    uint64_t instret = rvmesh_instret() - instret_start;
    printf("sort: %u words, min 0x%08lx max 0x%08lx checksum 0x%08lx: %s; cycles %lu instret %lu\n",
           (unsigned)ARRAY_LENGTH, (unsigned long)quick_sorted[0],
           (unsigned long)quick_sorted[ARRAY_LENGTH - 1], (unsigned long)checksum,
           failures ? "FAIL" : "ok", (unsigned long)cycles, (unsigned long)instret);
    return failures;
}
