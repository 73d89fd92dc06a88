#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Lint of the tile RTL (rtl/tile) with verilator --lint-only -Wall: the NI alone in 2-D and
# 3-D, a tile, and mesh_top as config.mk's machine, a 3x2 mesh and a 2x2x2 3-D torus.
set -u
. tests/lib.sh
need_tool "lint (verilator)" verilator || exit 1
core=$(ls rtl/core/*.v)
noc=$(ls rtl/noc/*.v | grep -v noc_network)
tile="rtl/tile/tile_ni.v rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/tile/tile.v rtl/tile/mesh_top.v"
lint() {
    local name=$1; shift
    if out=$(verilator --lint-only -Wall "$@" 2>&1); then
        echo "PASS lint $name"
    else
        echo "FAIL lint $name: $(echo "$out" | head -n 3 | tr '\n' ' ')"
    fi
}
ni="rtl/tile/tile_ni.v rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/noc/noc_rr_arbiter.v"
lint "NI 2-D" --top-module tile_ni $ni
lint "NI 3-D" --top-module tile_ni -GDIMS=3 $ni
lint "NI 2-D, 4 KiB RAM, word-wide" --top-module tile_ni -GRAM_BYTES=4096 -GLINE_WORDS=1 $ni
lint "tile 2-D" --top-module tile $core $noc $tile
lint "tile 3-D, 4 VCs" --top-module tile -GDIMS=3 -GVCS=4 $core $noc $tile
lint "mesh_top 4x4 torus" --top-module mesh_top -GSIZE_X=4 -GSIZE_Y=4 -GTORUS=1 $core $noc $tile
lint "mesh_top 3x2 mesh" --top-module mesh_top -GSIZE_X=3 -GSIZE_Y=2 -GTORUS=0 $core $noc $tile
lint "mesh_top 2x2x2 torus" --top-module mesh_top -GDIMS=3 -GSIZE_X=2 -GSIZE_Y=2 -GSIZE_Z=2 $core $noc $tile
lint "mesh_top 4x4 torus, protected links" --top-module mesh_top -GSIZE_X=4 -GSIZE_Y=4 -GTORUS=1 -GGUARD=1 $core $noc $tile

# The lint must be able to fail: a copy of the NI with a dangling wire is refused.
tmp=$(mktemp -d)
sed 's|^    localparam P  = 2 \* DIMS;|&\n    wire lint_probe_wire;|' rtl/tile/tile_ni.v > "$tmp/tile_ni.v"
if ! grep -q lint_probe_wire "$tmp/tile_ni.v"; then
    echo "FAIL lint catches a planted warning: could not plant the probe"
elif out=$(verilator --lint-only -Wall --top-module tile_ni "$tmp/tile_ni.v" rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/noc/noc_rr_arbiter.v 2>&1); then
    echo "FAIL lint catches a planted warning: the planted dangling wire passed"
elif ! grep -q '%Warning-UNUSED.*lint_probe_wire' <<<"$out"; then
    echo "FAIL lint catches a planted warning: verilator failed, but not on the probe: $(head -n 2 <<<"$out" | tr '\n' ' ')"
else
    echo "PASS lint catches a planted warning"
fi
rm -rf "$tmp"
