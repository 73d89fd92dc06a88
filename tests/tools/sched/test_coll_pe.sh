#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5: partial exchange on 2-D meshes (Varvarigos-Bertsekas R/C rule) on random source sets, checked, within the paper bound.
# Every check is one line of build/sched/coll_test pe (see coll_test.c).
set -u
. "$(dirname "$0")/coll_lib.sh"
coll_build
run_driver "coll_test pe" "$coll_tmp/pe.out" "$BUILD/sched/coll_test" pe
