#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5: multinode broadcast (allgather), Varvarigos-Bertsekas d rotated classes, without and with packet splitting, tori and meshes.
# Every check is one line of build/sched/coll_test mnb (see coll_test.c).
set -u
. "$(dirname "$0")/coll_lib.sh"
coll_build
run_driver "coll_test mnb" "$coll_tmp/mnb.out" "$BUILD/sched/coll_test" mnb
