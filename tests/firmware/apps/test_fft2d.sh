#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 600
# The example application firmware/apps/fft2d (2-D FFT in fixed point with transposes by
# alltoall, a program of the application kit) on the 4x4 torus, 32 x 32 points (2 rows a
# node), through make bench-apps' script (the large runs are make bench-apps'): every row of
# the result as the host's reference (the same fixed-point FFT, itself within its error bound
# of the double-precision DFT); apps.json's row OK with the transposes' cycles. A planted
# mistake (one node does not transpose one block) fails the run: the rows it spoils differ.
set -u
. tests/lib.sh
. tests/firmware/apps/app_check.sh
app_check fft2d 32 1 \
    'fft2d: 32x32 complex points on 16 nodes \(2 rows each\): as the host.s reference \(error: at most [0-9.]+ units' \
    'fft2d: FAILED: row [0-9]+ differs from the host.s reference: hash [0-9a-f]{8}, first element \(-?[0-9]+,-?[0-9]+\); the host.s reference says [0-9a-f]{8}'
