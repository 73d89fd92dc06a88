#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# Two real noc_routers on two clocks (400 ppm apart) joined through two link_phy
# (tb_link_routers.v, verilator --binary --timing): 80 worms each way with random
# back-pressure at the ejection channels, so the routers' own credits cross the link; every
# worm on the right ejection channel, heads rewritten, payload in order and intact, no
# router error, nothing refused, both PHYs up. Built twice: the fail-stop PHY (RETRY 0)
# on a clean line, and the go-back-N PHY (RETRY 1) with random damage on the pins both
# ways (NOISE): the same checks, and the PHYs' counters. About 35 s of CPU, nearly all
# compiling.
set -u
. tests/lib.sh
need_tool link-routers-build verilator || exit 1
work="$BUILD/tests/link-routers"
mkdir -p "$work"
src="tests/rtl/link/tb_link_routers.v rtl/noc/noc_router.v rtl/noc/noc_fifo.v rtl/noc/noc_rr_arbiter.v rtl/noc/noc_in_range.v
     rtl/link/link_add.v rtl/link/link_crc.v rtl/link/link_tx.v rtl/link/link_rx.v rtl/link/link_phy.v"
run() {
    local tag=$1; shift
    # shellcheck disable=SC2086
    if ! verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_link_routers \
            "$@" -GTAG="\"$tag\"" -Mdir "$work/$tag" $src >"$work/$tag.build.log" 2>&1; then
        fail "link-routers-build $tag" "verilator failed ($(grep -m 3 -i error "$work/$tag.build.log" | tr '\n' ' '))"
        return
    fi
    "$work/$tag/Vtb_link_routers" >"$work/$tag.run.log" 2>&1
    grep -E '^(PASS|FAIL) ' "$work/$tag.run.log"
    if ! grep -q '^DONE link routers 0 failed checks' "$work/$tag.run.log"; then
        fail "link routers[$tag] done" "the run did not finish cleanly ($(tail -n 2 "$work/$tag.run.log" | tr '\n' ' '))"
    fi
}
run retry0 -GRETRY=0 -GNOISE=0
run retry1-noise -GRETRY=1 -GNOISE=60
