#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5: negative tests: the allgather/alltoall checker rejects broken schedules.
# Every check is one line of build/sched/coll_test neg (see coll_test.c).
set -u
. "$(dirname "$0")/coll_lib.sh"
coll_build
run_driver "coll_test neg" "$coll_tmp/neg.out" "$BUILD/sched/coll_test" neg
