#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 16: REDO (forward and reverse orders, both balance systems) and
# adaptive STAR (the paper's Eul backlog), one broadcast at a time and in the abstract model.
# Every check is one line of build/sched/coll_test dynx (see coll_test.c).
set -u
. "$(dirname "$0")/coll_lib.sh"
coll_build
run_driver "coll_test dynx" "$coll_tmp/dynx.out" "$BUILD/sched/coll_test" dynx
