#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 16: partial gather to M destinations on 2-D meshes (the partial
# exchange reversed in paths and time), proven by the checker in the exchange's slots, within
# the digest's bound; planted faults the checker must reject.
# Every check is one line of build/sched/coll_test pg (see coll_test.c).
set -u
. "$(dirname "$0")/coll_lib.sh"
coll_build
run_driver "coll_test pg" "$coll_tmp/pg.out" "$BUILD/sched/coll_test" pg
