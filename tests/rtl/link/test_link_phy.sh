#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Two link_phy on two clocks, joined pin to pin (tb_link.v, tb_link_phy.v) under
# verilator --binary --timing, in eight configurations at once (go-back-N, RETRY 1:
# 2 lanes/32-bit flits, 1 lane/16-bit flits, 4 lanes/8 VCs, clocks 1% apart, the board's
# 1 VC of 16 flits; fail-stop, RETRY 0: the first two and the 1%), clocks 80..10,000 ppm apart with phase offsets and
# lane skew: random worms both ways with random back-pressure delivered in order, intact,
# exactly once, every credit back; a long idle gap; a reset of one side (the other fails,
# stays failed until its own reset, then the link comes up clean); a bit error (RETRY 0:
# a fault; RETRY 1: refused and resent) and a pulled cable caught with nothing damaged
# delivered; with RETRY 1 random noise, a burst, chosen damaged frames both ways and a
# damaged credit-only frame survived; the checker itself. The testbench prints its own
# PASS/FAIL lines and its MEASURE lines (latency, throughput, damage) go to the log.
# About 35 s of CPU, most of it compiling.
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
for cfg in default narrow wide drift default0 narrow0 drift0 board; do
    if ! grep -q "^DONE link\[$cfg\] 0 failed checks" "$work/run.log"; then
        fail "link[$cfg] done" "the $cfg scenario did not finish cleanly ($(grep -m 1 "^DONE link\[$cfg\]" "$work/run.log"; tail -n 1 "$work/run.log"))"
    fi
done
