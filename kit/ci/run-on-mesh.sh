#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Runs an rvmesh program on the simulated machine, for a CI (kit/ci/github-actions.yml calls
# it; any other CI can too): builds the program in PROGRAM_DIR for each SHAPE and runs it on
# mesh-sim (make report): exit 0 only when every shape's run passed, that is when every node
# of every run exited 0. Each run leaves PROGRAM_DIR/build/SHAPE/report.json (per node: exit
# status, cycles, instructions, console, regions) and junit.xml (a test case per node) for
# the CI to keep.
#
#   kit/ci/run-on-mesh.sh PROGRAM_DIR [SHAPE...]      SHAPE: 4x4t (default), 8x8t, 8x8m, ...
#
# RVMESH: the rvmesh tree (default: the tree this script is in). It must have its tools
# installed (`make deps` in it, as root); the first run of a shape builds its simulator.
set -u
if [ $# -lt 1 ] || [ ! -f "$1/Makefile" ]; then
    echo "usage: $0 PROGRAM_DIR [SHAPE...]   (PROGRAM_DIR: a folder with the program's Makefile)" >&2
    exit 2
fi
RVMESH="${RVMESH:-$(cd "$(dirname "$0")/../.." && pwd)}"
dir="$1"
shift
[ $# -gt 0 ] || set -- 4x4t
failed=()
for shape in "$@"; do
    echo "== $dir on the $shape"
    if make -C "$dir" --no-print-directory RVMESH="$RVMESH" SHAPE="$shape" report; then
        echo "== $shape: passed"
    else
        echo "== $shape: FAILED"
        failed+=("$shape")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "run-on-mesh: failed on ${failed[*]}"
    exit 1
fi
echo "run-on-mesh: passed on $*"
