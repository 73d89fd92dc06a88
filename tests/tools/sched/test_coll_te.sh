#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5: total exchange: A3 on n x n tori/meshes (thesis slot counts), A2 on other shapes, single-port FIFO = s_G, cut bounds.
# Every check is one line of build/sched/coll_test te (see coll_test.c).
set -u
. "$(dirname "$0")/coll_lib.sh"
coll_build
run_driver "coll_test te" "$coll_tmp/te.out" "$BUILD/sched/coll_test" te
