/* SPDX-License-Identifier: ISC
 * The ops the line tests' programs check their reductions with (tests/kit/progs/lines and
 * lines3d): compose, a combine function that does not commute, and the built-in ops' own
 * combine for the host-side reference. Included by each program's main.c. */
#ifndef RVMESH_TEST_LINE_OPS_H
#define RVMESH_TEST_LINE_OPS_H

#include <stdint.h>

#include "rvmesh.h"

/* affine maps v -> a v + b as word pairs (a, b), composed first-to-last: does not commute */
static void compose(uint32_t *acc, const uint32_t *x, uint32_t count)
{
    for (uint32_t i = 0; i + 1u < count; i += 2u) {
        acc[i + 1u] = x[i] * acc[i + 1u] + x[i + 1u];
        acc[i] *= x[i];
    }
}

/* a (op) b for the built-in ops the tests use */
static uint32_t combine(rvm_op op, uint32_t a, uint32_t b)
{
    switch (op) {
    case RVM_SUM: return a + b;
    case RVM_MIN: return (int32_t)b < (int32_t)a ? b : a;
    case RVM_MAX: return (int32_t)b > (int32_t)a ? b : a;
    default: return 0;
    }
}

#endif
