#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# The example application firmware/apps/summa (dense matrix multiply by SUMMA: every round,
# a block of A broadcast along every row and a block of B along every column at once, by the
# kit's row and column communicators) on the 4x4 torus, 32 x 32 matrices (8 x 8 blocks),
# through make bench-apps' script (the large runs are make bench-apps'): every node's block
# of C as the host's reference (a plain triple loop); apps.json's row OK with the
# broadcasts' cycles. A planted mistake (one node multiplies with its own A instead of the
# row's in the last round) fails the run on that node. The 8x8 torus runs (16 line
# broadcasts a product, the kit's 16 kept plans) are make bench-apps' (summa:8x8t:128, checked
# against the host's reference there too): here they cost 76 s of CI, most of it building
# mesh-sim-8x8t, which no other test needs.
set -u
. tests/lib.sh
. tests/firmware/apps/app_check.sh
app_check summa 32 1 \
    'summa: 32x32 matrices on 4x4 nodes \(blocks of 8x8, 1 step\): as the host.s reference' \
    'summa: FAILED: block \(0,2\) of C differs from the host.s reference: hash [0-9a-f]{8}, first element -?[0-9]+; the host.s reference says [0-9a-f]{8}'

