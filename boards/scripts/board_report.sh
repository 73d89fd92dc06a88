#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# board_report.sh DIR DEVICE LC_TOTAL TARGET_MHZ: prints report.json of the board build in
# DIR from nextpnr's report (pnr.json), its log (pnr.log) and exit status (pnr.status):
#   {"device", "lc_used", "lc_total", "ebr_used", "spram_used", "dsp_used", "fmax_mhz",
#    "target_mhz"}
# fmax_mhz is nextpnr's for the main clock (clk), null when the design was not routed;
# the counts are nextpnr's after packing (its log has them even when placement failed).
# board_report.sh --verdict DIR REPORT: one line saying whether the design fits and meets
# the target; exit status 1 if it does not (the make target does not pretend).
set -u
if [ "${1:-}" = --verdict ]; then
    dir=$2 report=$3
    lc=$(jq -r .lc_used "$report") total=$(jq -r .lc_total "$report")
    fmax=$(jq -r .fmax_mhz "$report") target=$(jq -r .target_mhz "$report")
    status=$(cat "$dir/pnr.status" 2>/dev/null || echo 1)
    why=$(grep -m 1 -E '^ERROR' "$dir/pnr.log" 2>/dev/null | cut -c1-200)
    if [ "$status" != 0 ] || [ "$fmax" = null ]; then
        if [ "$lc" != null ] && [ "$lc" -gt "$total" ]; then
            echo "boards: DOES NOT FIT: $lc logic cells needed, the device has $total; nextpnr stopped: ${why:-see $dir/pnr.log}" >&2
        else
            echo "boards: place and route failed: ${why:-see $dir/pnr.log}" >&2
        fi
        exit 1
    fi
    if awk -v f="$fmax" -v t="$target" 'BEGIN { exit !(f < t) }'; then
        echo "boards: TIMING NOT MET: fmax $fmax MHz < target $target MHz (bitstream written, but do not trust it at $target MHz; $dir/pnr.log)" >&2
        exit 1
    fi
    echo "boards: fits: $lc of $total logic cells, fmax $fmax MHz (target $target MHz)"
    exit 0
fi
dir=$1 device=$2 lc_total=$3 target=$4
pnr="$dir/pnr.json"
log="$dir/pnr.log"
# a count from nextpnr's report, else from its utilisation lines ("ICESTORM_LC:  123/ 5280")
count() {
    local v=null
    if [ -s "$pnr" ]; then
        v=$(jq -r --arg k "$1" '.utilization[$k].used // "null"' "$pnr" 2>/dev/null || echo null)
    fi
    if [ "$v" = null ] && [ -f "$log" ]; then
        v=$(awk -v k="$1:" '$2 == k { split($3, a, "/"); print a[1] + 0; exit }' "$log")
        [ -n "$v" ] || v=null
    fi
    echo "$v"
}
fmax=null
if [ -s "$pnr" ] && [ "$(cat "$dir/pnr.status" 2>/dev/null)" = 0 ]; then
    # the main clock: the net named clk (the PLL's output), else the slowest clock
    fmax=$(jq -r '(.fmax.clk.achieved // ([.fmax[].achieved] | min)) // "null"' "$pnr")
    [ "$fmax" = null ] || fmax=$(awk -v f="$fmax" 'BEGIN { printf "%.2f", f }')
fi
jq -n --arg device "$device" --argjson lc "$(count ICESTORM_LC)" --argjson lct "$lc_total" \
      --argjson ebr "$(count ICESTORM_RAM)" --argjson spram "$(count ICESTORM_SPRAM)" \
      --argjson dsp "$(count ICESTORM_DSP)" --argjson fmax "$fmax" --argjson target "$target" \
      '{device: $device, lc_used: $lc, lc_total: $lct, ebr_used: $ebr, spram_used: $spram,
        dsp_used: $dsp, fmax_mhz: $fmax, target_mhz: $target}'
