/* SPDX-License-Identifier: ISC
 * app_hash: the 32-bit integer hash the example applications draw their inputs from and
 * check their results by, on the nodes and in the host's reference alike (each app's
 * header includes it). A xorshift-multiply mix: every input bit changes about half the
 * output bits, so two different results give different sums of hashes. */
#ifndef RVMESH_APP_HASH_H
#define RVMESH_APP_HASH_H

#include <stdint.h>

static inline uint32_t app_hash(uint32_t v)
{
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    v ^= v >> 16;
    return v;
}

#endif
