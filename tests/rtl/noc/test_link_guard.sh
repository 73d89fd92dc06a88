#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# The protected on-chip link (rtl/noc/link_guard_tx.v, link_guard_rx.v) with fault
# injection (link_fault.v): tb_link_guard_all.v under verilator --binary --timing, three
# configurations (32-bit flits 2x4 VCs, 64-bit 4x3, 32-bit 8x8): full rate with no added
# latency, heavy bit flips on flits, reverse words and idle words (everything delivered
# once, in order, intact, every credit back, every damaged word counted, retries >= errors),
# a dead wire (nothing delivered after it, the sender reports the stall). Then the checker
# itself: a receiver with its CRC check planted out must fail. Lint of the new modules.
# A few seconds, nearly all compiling.
set -u
. tests/lib.sh
need_tool link-guard-build verilator || exit 1
work="$BUILD/tests/link_guard"
mkdir -p "$work"
rtl="rtl/noc/link_guard_crc.v rtl/noc/link_guard_tx.v rtl/noc/link_guard_rx.v rtl/noc/link_fault.v"
tb="tests/rtl/noc/tb_link_guard_all.v tests/rtl/noc/tb_link_guard.v"

for top in link_guard_tx link_guard_rx; do
    for g in "" "-GVCS=4 -GBUF_DEPTH=3 -GFLIT_BITS=64" "-GVCS=8 -GBUF_DEPTH=8"; do
        # shellcheck disable=SC2086
        if out=$(verilator --lint-only -Wall --top-module $top $g rtl/noc/link_guard_crc.v rtl/noc/$top.v 2>&1); then
            pass "lint $top ${g:-default}"
        else
            fail "lint $top ${g:-default}" "$(echo "$out" | head -n 2 | tr '\n' ' ')"
        fi
    done
done
if out=$(verilator --lint-only -Wall --top-module link_fault rtl/noc/link_fault.v 2>&1); then pass "lint link_fault"
else fail "lint link_fault" "$(echo "$out" | head -n 2 | tr '\n' ' ')"; fi

build() {   # objdir, then sources
    local obj=$1; shift
    # shellcheck disable=SC2068
    verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_link_guard_all \
        -Mdir "$obj" $@ >"$obj.log" 2>&1
}
# shellcheck disable=SC2086
if ! build "$work/obj" $tb $rtl; then
    fail link-guard-build "verilator failed ($(grep -m 3 -i error "$work/obj.log" | tr '\n' ' '))"
    exit 1
fi
"$work/obj/Vtb_link_guard_all" >"$work/run.log" 2>&1
grep -E '^(PASS|FAIL) ' "$work/run.log"
n=$(grep -c '^PASS ' "$work/run.log")
if grep -q '^DONE link_guard' "$work/run.log" && [ "$n" -ge 24 ]; then pass "link_guard testbench finished ($n checks)"
else fail "link_guard testbench finished" "$n PASS lines, $(tail -n 1 "$work/run.log")"; fi

# The checker: with the receiver's CRC check planted out, damaged flits get through and
# the testbench must say so.
mut="$work/mutant"
mkdir -p "$mut"
sed 's|wire                ok       = (fwd_crc == fwd\[FWD_BITS-1 -: 8\]);|wire                ok       = 1'"'"'b1 \|\| (fwd_crc == fwd[FWD_BITS-1 -: 8]);|' \
    rtl/noc/link_guard_rx.v > "$mut/link_guard_rx.v"
if cmp -s rtl/noc/link_guard_rx.v "$mut/link_guard_rx.v"; then
    fail "checker catches a receiver without CRC check" "could not plant the fault"
elif ! build "$mut/obj" $tb rtl/noc/link_guard_crc.v rtl/noc/link_guard_tx.v "$mut/link_guard_rx.v" rtl/noc/link_fault.v; then
    fail "checker catches a receiver without CRC check" "the mutant did not build"
else
    "$mut/obj/Vtb_link_guard_all" >"$mut/run.log" 2>&1
    if grep -q '^FAIL guard\[default\] flips: every flit delivered' "$mut/run.log"; then
        pass "checker catches a receiver without CRC check (damaged flits delivered)"
    else
        fail "checker catches a receiver without CRC check" "no FAIL line for the flips phase"
    fi
fi
