#!/usr/bin/env bash
# Unit test of the NI's DMA engines: tb_tile_ni_dma.v (tile_ni + node_ram + a model of the
# router's channels, random grants, random flow control) under verilator --binary --timing.
# The testbench prints its own PASS/FAIL lines (register map, TX and RX on 4 ports at
# once, refused starts, the completion interrupt, 8 engines on a starved RAM port, the
# channel protocol). About 40 s, most of it compiling.
set -u
. tests/lib.sh
need_tool tile-dma-build verilator || exit 1
work="$BUILD/tests/tile-dma"
mkdir -p "$work"
src="tests/rtl/tile/tb_tile_ni_dma.v rtl/tile/tile_ni.v rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/noc/noc_rr_arbiter.v"
# shellcheck disable=SC2086
if ! verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_tile_ni_dma \
        -Mdir "$work/obj" $src >"$work/build.log" 2>&1; then
    echo "FAIL tile-dma-build: verilator failed ($(grep -m 3 -i error "$work/build.log" | tr '\n' ' '))"
    exit 1
fi
"$work/obj/Vtb_tile_ni_dma" >"$work/run.log" 2>&1
grep -E '^(PASS|FAIL) ' "$work/run.log"
if ! grep -q '^DONE 0 failed checks' "$work/run.log"; then
    echo "FAIL tile-dma-done: the testbench did not finish cleanly ($(tail -n 2 "$work/run.log" | tr '\n' ' '))"
fi
