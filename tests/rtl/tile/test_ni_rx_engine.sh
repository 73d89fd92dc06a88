#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Unit test of the NI's RX engine in plan mode: tb_ni_rx_engine.v (ni_rx_engine alone, an
# ejection channel fed by the test, a RAM model that writes a line with its word mask in the
# cycle of its grant, records of every write, inc and error pulse) under verilator --binary
# --timing, in three benches (AW 10; 4-, 1- and 16-word lines). The testbench prints its own
# PASS/FAIL lines: puts counted once (after their last line's write) and by lines (put flit
# bit 26: one inc per line, the cycle after its write), puts without payload, signals,
# refused worms (unexpected: err_kind 1; malformed: err_kind 2, lines written before the
# error stay counted), a next-epoch put waiting unpopped, the same under random grants and
# ej_valid gaps, and random rounds of mixed worms. The whole RAM is compared after each check.
# empty-put-closed-window checks the README's "a window closed is unexpected" for a put
# without payload (the engine accepted it until 2026-11-27: this test found it).
# About 25 s, nearly all of it compiling (at -O0).
set -u
. tests/lib.sh
need_tool ni-rx-engine-build verilator || exit 1
verilator_testbench ni-rx-engine tb_ni_rx_engine o0 tests/rtl/tile/tb_ni_rx_engine.v rtl/tile/ni_rx_engine.v
