#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# verilator --lint-only -Wall on the core (rv32_core) and the node top (node_top).
set -u
. tests/lib.sh
need_tool core-lint verilator || exit 1
mkdir -p "$BUILD/tests"
log="$BUILD/tests/core-lint.log"
if make -s lint-core >"$log" 2>&1 && ! grep -q '%Warning\|%Error' "$log"; then
    echo "PASS core-lint"
else
    echo "FAIL core-lint: verilator -Wall reports: $(grep -m3 '%' "$log" | tr '\n' ' ')"
fi
