#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5: dynamic broadcast rule (STAR tori, ARC meshes): lone broadcasts from every source, balance system, loaded slot simulation.
# Every check is one line of build/sched/coll_test dyn (see coll_test.c).
set -u
. "$(dirname "$0")/coll_lib.sh"
coll_build
run_driver "coll_test dyn" "$coll_tmp/dyn.out" "$BUILD/sched/coll_test" dyn
