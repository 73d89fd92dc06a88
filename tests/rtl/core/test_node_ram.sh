#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Unit test of node_ram's dual-ported form: tb_node_ram.v (1-, 4- and 16-word lines) under
# verilator --binary --timing, both ports against a model every cycle, with port I reading
# the word port D writes in the same cycle in thousands of cycles: port I must see the old
# word then (node_ram takes it from port D's read, so that a block RAM's ports need not
# agree on a collision: rtl/core/node_ram.v). About 10 s, nearly all of it compiling.
set -u
. tests/lib.sh
need_tool node-ram-build verilator || exit 1
verilator_testbench node-ram tb_node_ram o0 tests/rtl/core/tb_node_ram.v rtl/core/node_ram.v
