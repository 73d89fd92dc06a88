#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# The example application firmware/apps/cannon (dense matrix multiply by Cannon's algorithm
# with the link-port driver's shifts, a program of the application kit) on the 4x4 torus,
# 32 x 32 matrices (8 x 8 blocks), through make bench-apps' script (the large runs are make
# bench-apps'): every node's block of C as the host's reference (a plain triple loop);
# apps.json's row OK with the shifts' cycles. A planted mistake (one node multiplies with its
# old A in the last step) fails the run on that node.
set -u
. tests/lib.sh
. tests/firmware/apps/app_check.sh
app_check cannon 32 1 \
    'cannon: 32x32 matrices on 4x4 nodes \(blocks of 8x8\): as the host.s reference' \
    'cannon: FAILED: block \(0,2\) of C differs from the host.s reference: hash [0-9a-f]{8}, first element -?[0-9]+; the host.s reference says [0-9a-f]{8}'
