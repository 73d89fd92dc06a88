#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Unit test of the NI's TX engine in plan mode: tb_ni_tx_engine.v (ni_tx_engine alone, a RAM
# model answering a line the cycle after its grant, an injection sink, the counters driven
# by the test) under verilator --binary --timing, in three benches (4-word lines, 1-word
# lines, a 2^16-word RAM). The testbench prints its own PASS/FAIL lines: worms back to back,
# signals, triggers (waiting, already met, modular thresholds), refused descriptors (codes
# 1, 2, 3), plan_stop, random grants and flow control, raw mode after a plan. About 20 s,
# nearly all of it compiling (at -O0: the run takes under a second even so).
set -u
. tests/lib.sh
need_tool ni-tx-engine-build verilator || exit 1
verilator_testbench ni-tx-engine tb_ni_tx_engine o0 tests/rtl/tile/tb_ni_tx_engine.v rtl/tile/ni_tx_engine.v
