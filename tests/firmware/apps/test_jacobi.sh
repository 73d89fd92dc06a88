#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# The example application firmware/apps/jacobi (2-D Jacobi with halo exchange through the
# link-port driver, a program of the application kit) on the 4x4 torus, a 32 x 32 grid (8 x 8
# a node) for 8 iterations, through make bench-apps' script (the large runs are make
# bench-apps'): every node's block as the host's reference (the whole grid without blocks or
# halos); apps.json's row OK with the halo exchanges' cycles. A planted mistake (one node
# keeps its old west halo in the last iteration) fails the run on that node.
set -u
. tests/lib.sh
. tests/firmware/apps/app_check.sh
app_check jacobi 32 8 \
    'jacobi: 32x32 grid, 8 iterations on 16 nodes \(blocks of 8x8\): as the host.s reference' \
    'jacobi: FAILED: block \(0,2\) differs from the host.s reference: hash [0-9a-f]{8}, first cell [0-9]+; the host.s reference says [0-9a-f]{8}'
