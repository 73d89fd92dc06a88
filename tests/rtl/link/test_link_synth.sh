#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# link_phy synthesizes for the iCE40 (yosys synth_ice40): the default (go-back-N, queue
# data in 2 block RAMs with a 16-bit write and a 2-bit read port each, tags in a third),
# tags in flip-flops (2 block RAMs), 16-bit flits, and the default with RETRY 0
# (fail-stop: the same 3 block RAMs); no latch and no memory left unmapped in any. (Logic
# cells and fmax after place and route: make bench-link.)
set -u
. tests/lib.sh
need_tool "synth link (yosys)" yosys || exit 1
work="$BUILD/tests/link-synth"
mkdir -p "$work"
rtl="rtl/link/link_add.v rtl/link/link_crc.v rtl/link/link_tx.v rtl/link/link_rx.v rtl/link/link_phy.v"
synth() {
    local name=$1 params=$2 rams=$3 file
    file="$work/$(echo "$1" | tr -c 'a-z0-9\n' '_')"
    local stat="$file.stat"
    if ! yosys -q -l "$file.log" -p "read_verilog $rtl; chparam $params link_phy; synth_ice40 -top link_phy; tee -q -o $stat stat" >/dev/null 2>&1; then
        fail "synth link $name" "yosys failed: $(grep -m 2 -i error "$file.log" | tr '\n' ' ') (log $file.log)"
        return
    fi
    local got luts odd
    got=$(awk '/SB_RAM40_4K/ {print $2}' "$stat" | tail -n 1)
    luts=$(awk '/SB_LUT4/ {print $2}' "$stat" | tail -n 1)
    odd=$(grep -E '\$_?(DLATCH|dlatch|mem|MEM)' "$stat" | head -n 1)
    if [ -n "$odd" ]; then
        fail "synth link $name" "unmapped cells left: $odd"
    elif [ "${got:-0}" != "$rams" ]; then
        fail "synth link $name" "${got:-0} SB_RAM40_4K, expected $rams (${luts:-0} LUT4)"
    else
        pass "synth link $name: $rams block RAMs, ${luts:-0} LUT4"
    fi
}
synth default "-set TAG_RAM 1" 3
synth "tags in flip-flops" "-set TAG_RAM 0" 2
synth "16-bit flits" "-set FLIT_BITS 16" 2
synth "RETRY 0 (fail-stop)" "-set RETRY 0" 3
