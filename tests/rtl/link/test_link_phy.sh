#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Two link_phy on two clocks, joined pin to pin (tb_link.v, tb_link_phy.v) under
# verilator --binary --timing, in three configurations at once (2 lanes/32-bit flits,
# 1 lane/16-bit flits, 4 lanes/8 VCs), clocks 80..700 ppm apart with phase offsets and
# lane skew: random worms both ways with random back-pressure delivered in order, intact,
# exactly once, every credit back; a long idle gap; a reset of one side (the other fails,
# stays failed until its own reset, then the link comes up clean); a bit error and a pulled
# cable caught with nothing damaged delivered; the checker itself. The testbench prints
# its own PASS/FAIL lines and its MEASURE lines (latency, throughput) go to the log.
# About 15 s of CPU, nearly all of it compiling.
set -u
. tests/lib.sh
need_tool link-phy-build verilator || exit 1
work="$BUILD/tests/link"
mkdir -p "$work"
src="tests/rtl/link/tb_link.v tests/rtl/link/tb_link_phy.v rtl/link/link_add.v rtl/link/link_crc.v rtl/link/link_tx.v rtl/link/link_rx.v rtl/link/link_phy.v"
# shellcheck disable=SC2086
if ! verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_link \
        -Mdir "$work/obj" $src >"$work/build.log" 2>&1; then
    fail link-phy-build "verilator failed ($(grep -m 3 -i error "$work/build.log" | tr '\n' ' '))"
    exit 1
fi
"$work/obj/Vtb_link" >"$work/run.log" 2>&1
grep -E '^(PASS|FAIL) ' "$work/run.log"
for cfg in default narrow wide drift default0 narrow0 drift0; do
    if ! grep -q "^DONE link\[$cfg\] 0 failed checks" "$work/run.log"; then
        fail "link[$cfg] done" "the $cfg scenario did not finish cleanly ($(grep -m 1 "^DONE link\[$cfg\]" "$work/run.log"; tail -n 1 "$work/run.log"))"
    fi
done
