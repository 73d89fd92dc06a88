#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# The example application firmware/apps/sort (integer sort by alltoall, a program of the
# application kit) on the 4x4 torus, 512 keys (32 a node), through make bench-apps' script
# (the large runs are make bench-apps'): every bucket sorted and inside its splitters, the
# buckets in order, the keys and their order as the host's reference (qsort); apps.json's row
# OK with the sort's own communication. A planted mistake (one key of one node's result one
# larger, where the order cannot show it) fails the run on the multiset check.
set -u
. tests/lib.sh
. tests/firmware/apps/app_check.sh
app_check sort 512 1 \
    'sort: 512 keys of 16 bits, 1 steps on 16 nodes: as the host.s reference' \
    'sort: FAILED: the keys are not those of the host.s reference \(multiset hash [0-9a-f]{8}, the host.s reference says [0-9a-f]{8}\)$'
