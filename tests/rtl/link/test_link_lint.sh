#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Lint of the board link PHY (rtl/link) with verilator --lint-only -Wall, in configurations
# that cover its generate branches (1, 2 and 4 lanes, 2, 4 and 8 VCs, tags in block RAM and
# in flip-flops, 8..64-bit flits, go-back-N and fail-stop: RETRY 1 and 0), and
# link_cost_top (both RETRY values); parameters out of range must stop
# elaboration with the rule in the message; a planted warning must be caught.
set -u
. tests/lib.sh
need_tool "lint link (verilator)" verilator || exit 1
rtl="rtl/link/link_add.v rtl/link/link_crc.v rtl/link/link_tx.v rtl/link/link_rx.v rtl/link/link_phy.v"
lint() {
    local name=$1; shift
    # shellcheck disable=SC2086
    if out=$(verilator --lint-only -Wall "$@" $rtl 2>&1); then
        pass "lint link $name"
    else
        fail "lint link $name" "$(echo "$out" | head -n 3 | tr '\n' ' ')"
    fi
}
lint "phy default (32-bit flits, 2 VCs x 4, 2 lanes, 3 cycles/symbol)" --top-module link_phy
lint "phy tags in flip-flops, 1 lane, 4 cycles/symbol" --top-module link_phy -GTAG_RAM=0 -GLANES=1 -GOVERSAMPLE=4
lint "phy 4 lanes, 8 VCs x 2, 5 cycles/symbol" --top-module link_phy -GLANES=4 -GVCS=8 -GBUF_DEPTH=2 -GOVERSAMPLE=5
lint "phy 16-bit flits, 4 VCs x 3" --top-module link_phy -GFLIT_BITS=16 -GVCS=4 -GBUF_DEPTH=3
lint "phy 1 VC x 16, tags in flip-flops (the board profile)" --top-module link_phy -GVCS=1 -GBUF_DEPTH=16 -GTAG_RAM=0
lint "phy 8-bit flits" --top-module link_phy -GFLIT_BITS=8
lint "phy 64-bit flits, 16-flit buffers" --top-module link_phy -GFLIT_BITS=64 -GBUF_DEPTH=16
lint "phy RETRY 0 (fail-stop), default" --top-module link_phy -GRETRY=0
lint "phy RETRY 0, tags in flip-flops, 1 lane, 4 VCs x 3" --top-module link_phy -GRETRY=0 -GTAG_RAM=0 -GLANES=1 -GVCS=4 -GBUF_DEPTH=3
lint "phy RETRY 0, 4 lanes, 8 VCs x 2, 64-bit flits" --top-module link_phy -GRETRY=0 -GLANES=4 -GVCS=8 -GBUF_DEPTH=2 -GFLIT_BITS=64
lint "cost top (4 ports)" --top-module link_cost_top rtl/link/link_cost_top.v
lint "cost top (4 ports), RETRY 0" --top-module link_cost_top -GRETRY=0 rtl/link/link_cost_top.v

# Parameters out of range are refused, naming the rule.
refuse() {
    local name=$1 rule=$2; shift 2
    # shellcheck disable=SC2086
    if out=$(verilator --lint-only -Wall --top-module link_phy "$@" $rtl 2>&1); then
        fail "lint link refuses $name" "verilator accepted it"
    elif ! grep -q "$rule" <<<"$out"; then
        fail "lint link refuses $name" "refused, but not naming $rule: $(head -n 1 <<<"$out")"
    else
        pass "lint link refuses $name"
    fi
}
refuse "3 lanes" link_phy_LANES_must_be_1_2_or_4 -GLANES=3
refuse "2 cycles per symbol" link_phy_OVERSAMPLE_must_be_at_least_3 -GOVERSAMPLE=2
refuse "3 VCs" link_phy_VCS_must_be_1_2_4_or_8 -GVCS=3
refuse "a flit width not a multiple of the lanes" link_phy_FLIT_BITS_must_be_a_multiple -GFLIT_BITS=30 -GLANES=4
refuse "RETRY 2" link_phy_RETRY_must_be_0_or_1 -GRETRY=2

# The lint must be able to fail: a copy of link_tx with an unused signal is refused.
tmp=$(mktemp -d)
sed 's|^    localparam D    = LANES;|    localparam D    = LANES;\n    wire lint_probe_wire;|' rtl/link/link_tx.v > "$tmp/link_tx.v"
if ! grep -q lint_probe_wire "$tmp/link_tx.v"; then
    fail "lint link catches a planted warning" "could not plant the probe"
elif out=$(verilator --lint-only -Wall --top-module link_phy rtl/link/link_crc.v "$tmp/link_tx.v" rtl/link/link_add.v rtl/link/link_rx.v rtl/link/link_phy.v 2>&1); then
    fail "lint link catches a planted warning" "the planted dangling wire passed"
elif ! grep -q '%Warning-UNUSED.*lint_probe_wire' <<<"$out"; then
    fail "lint link catches a planted warning" "verilator failed, but not on the probe: $(head -n 2 <<<"$out" | tr '\n' ' ')"
else
    pass "lint link catches a planted warning"
fi
rm -rf "$tmp"
