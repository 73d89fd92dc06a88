#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5: partial multinode broadcast: the run-time rule (prefix, packing, d-phase broadcast) simulated slot by slot on random source sets.
# Every check is one line of build/sched/coll_test pmnb (see coll_test.c).
set -u
. "$(dirname "$0")/coll_lib.sh"
coll_build
run_driver "coll_test pmnb" "$coll_tmp/pmnb.out" "$BUILD/sched/coll_test" pmnb
