#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Unit test of the NI's DMA engines: tb_tile_ni_dma.v (tile_ni + node_ram + a model of the
# router's channels, random grants, random flow control) under verilator --binary --timing.
# The testbench prints its own PASS/FAIL lines (register map, TX and RX on 4 ports at
# once, refused starts, the completion interrupt, 8 engines on a starved RAM port, the
# event counters against a model every cycle, the channel protocol). About 40 s, most of it compiling.
set -u
. tests/lib.sh
need_tool tile-dma-build verilator || exit 1
verilator_testbench tile-dma tb_tile_ni_dma opt tests/rtl/tile/tb_tile_ni_dma.v rtl/tile/tile_ni.v rtl/tile/ni_tx_engine.v \
    rtl/tile/ni_rx_engine.v rtl/noc/noc_rr_arbiter.v
