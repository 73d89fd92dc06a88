#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Lint of the router RTL (rtl/noc) with verilator --lint-only -Wall, in configurations that
# cover every generate branch: 2-D and 3-D routers, mesh and torus networks, a line, a
# 2-ary torus (double links), odd buffer depths, 1 to 8 VCs, protected links (GUARD = 1),
# config.mk's lean router profile and each of its options. (make lint-noc lints bigger
# networks.)
set -u
. tests/lib.sh
need_tool "lint (verilator)" verilator || exit 1
rtl=$(ls rtl/noc/*.v)
lint() {
    local name=$1; shift
    if out=$(verilator --lint-only -Wall "$@" $rtl 2>&1); then
        echo "PASS lint $name"
    else
        echo "FAIL lint $name: $(echo "$out" | head -n 3 | tr '\n' ' ')"
    fi
}
lint "router 2-D" --top-module noc_router
lint "router 3-D depth 3" --top-module noc_router -GDIMS=3 -GBUF_DEPTH=3 -GINJ_DEPTH=2
lint "router 64-bit flits" --top-module noc_router -GFLIT_BITS=64 -GBUF_DEPTH=8
lint "network 2x2 torus" --top-module noc_network -GSIZE_X=2 -GSIZE_Y=2 -GTORUS=1
lint "network 3x2 mesh" --top-module noc_network -GSIZE_X=3 -GSIZE_Y=2 -GTORUS=0
lint "network 1x4 line" --top-module noc_network -GSIZE_X=1 -GSIZE_Y=4 -GTORUS=0
lint "network 2x2x2 torus" --top-module noc_network -GDIMS=3 -GSIZE_X=2 -GSIZE_Y=2 -GSIZE_Z=2 -GTORUS=1
lint "network 3x3 torus, 4 VCs" --top-module noc_network -GSIZE_X=3 -GSIZE_Y=3 -GVCS=4
lint "router 3-D, 8 VCs" --top-module noc_router -GDIMS=3 -GVCS=8
lint "router 2-D, 1 VC" --top-module noc_router -GVCS=1
# config.mk's board profile (make prints its parameters), and its options one by one (make
# with an empty build folder: it reads no dependency file another script may be writing)
empty_build=$(mktemp -d)
board=$(make -s --no-print-directory BUILD="$empty_build" board-router-params 2>/dev/null)
rmdir "$empty_build"
if [ -z "$board" ]; then
    echo "FAIL lint board profile: make board-router-params printed nothing"
else
    lint "router board profile ($board)" --top-module noc_router $board
    lint "network 2x2 mesh of board routers" --top-module noc_network -GSIZE_X=2 -GSIZE_Y=2 -GTORUS=0 $board
    lint "measurement top of make router-pnr" --top-module noc_router_pnr $board rtl/noc/pnr/noc_router_pnr.v
fi
lint "router 3-D, buffers in block RAM, 4 VCs" --top-module noc_router -GDIMS=3 -GVCS=4 -GBUF_RAM=1 -GBUF_DEPTH=3
lint "router, registered route and allocation" --top-module noc_router -GPIPELINE=1
lint "router, injection channel j to link j" --top-module noc_router -GINJ_ANY_PORT=0 -GVCS=8
lint "router, 2-bit coordinates" --top-module noc_router -GSIDE_BITS=2
lint "network 4x4 torus, protected links" --top-module noc_network -GGUARD=1
lint "network 3x2 mesh, protected links, 4 VCs" --top-module noc_network -GGUARD=1 -GSIZE_X=3 -GSIZE_Y=2 -GTORUS=0 -GVCS=4
lint "network 2x2x2 torus, protected links" --top-module noc_network -GGUARD=1 -GDIMS=3 -GSIZE_X=2 -GSIZE_Y=2 -GSIZE_Z=2

# The lint must be able to fail: a copy of the router with an unused signal is refused.
tmp=$(mktemp -d)
sed 's|^    localparam P         = 2 \* DIMS;|    localparam P         = 2 * DIMS;\n    wire lint_probe_wire;|' rtl/noc/noc_router.v > "$tmp/noc_router.v"
if ! grep -q lint_probe_wire "$tmp/noc_router.v"; then
    echo "FAIL lint catches a planted warning: could not plant the probe"
elif out=$(verilator --lint-only -Wall --top-module noc_router "$tmp/noc_router.v" rtl/noc/noc_fifo.v rtl/noc/noc_rr_arbiter.v rtl/noc/noc_in_range.v 2>&1); then
    echo "FAIL lint catches a planted warning: the planted dangling wire passed"
elif ! grep -q '%Warning-UNUSED.*lint_probe_wire' <<<"$out"; then
    echo "FAIL lint catches a planted warning: verilator failed, but not on the probe: $(head -n 2 <<<"$out" | tr '\n' ' ')"
else
    echo "PASS lint catches a planted warning"
fi
rm -rf "$tmp"
