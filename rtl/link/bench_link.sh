#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-link: what link_phy costs and what it carries.
#   cost:   link_cost_top (2*DIMS = 4 PHYs on the iCEBreaker's PMOD pins, router sides looped
#           back) through yosys synth_ice40 and nextpnr-ice40 --up5k (seed 1, 24 MHz
#           target): logic cells, block RAMs, fmax; logic cells per port = total / 4 (with
#           the loop-back glue, about 3 cells a port). Several configurations side by side.
#   speed:  the testbench (tests/rtl/link) at its default configuration: latency of a flit
#           on an idle link and throughput with both directions saturated, in cycles of the
#           sending board's clock.
# Table on stdout; $BUILD/bench/link.json.
set -eu
BUILD=${BUILD:-build}
out="$BUILD/bench"
work="$out/link"
mkdir -p "$work"
rtl="rtl/link/link_add.v rtl/link/link_crc.v rtl/link/link_tx.v rtl/link/link_rx.v rtl/link/link_phy.v"
budget=150

# name | chparam arguments | description
configs=(
    "default||32-bit flits, 2 VCs x 4, 2 lanes, 3 cycles/symbol, tags in block RAM"
    "tags_ff|-set TAG_RAM 0|the same, tags in flip-flops"
    "flit16|-set FLIT_BITS 16|16-bit flits"
    "lanes1|-set LANES 1|1 lane"
)

json_configs=""
printf '%-9s %-66s %6s %8s %5s %8s %8s %7s\n' config "" "LC" "LC/port" "EBR" "EBR/port" "LUT4/ph" "fmax"
for entry in "${configs[@]}"; do
    IFS='|' read -r name params desc <<<"$entry"
    json="$work/$name.json"
    report="$work/$name.report.json"
    stat="$work/$name.phy.stat"
    yosys -q -l "$work/$name.yosys.log" -p "read_verilog $rtl rtl/link/link_cost_top.v; \
        chparam $params link_cost_top; synth_ice40 -top link_cost_top -json $json" >/dev/null
    nextpnr-ice40 --up5k --package sg48 --pcf rtl/link/link_cost_top.pcf --json "$json" \
        --freq 24 --seed 1 --report "$report" >"$work/$name.pnr.log" 2>&1
    yosys -q -p "read_verilog $rtl; chparam $params link_phy; synth_ice40 -top link_phy; \
        tee -q -o $stat stat" >/dev/null
    read -r lc ebr fmax <<<"$(python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
u = r['utilization']
f = max(v['achieved'] for v in r['fmax'].values())
print(u['ICESTORM_LC']['used'], u['ICESTORM_RAM']['used'], '%.1f' % f)" "$report")"
    luts=$(awk '/SB_LUT4/ {print $2}' "$stat" | tail -n 1)
    dffs=$(awk '/SB_DFF/ {s += $2} END {print s + 0}' "$stat")
    lcp=$(awk -v a="$lc" 'BEGIN { printf "%.1f", a / 4 }')
    ebrp=$(awk -v a="$ebr" 'BEGIN { printf "%g", a / 4 }')
    printf '%-9s %-66s %6s %8s %5s %8s %8s %7s\n' "$name" "$desc" "$lc" "$lcp" "$ebr" "$ebrp" "$luts" "$fmax"
    [ -n "$json_configs" ] && json_configs="$json_configs,"
    json_configs="$json_configs
    {\"name\": \"$name\", \"what\": \"$desc\", \"ports\": 4, \"lc_total\": $lc, \"lc_per_port\": $lcp,
     \"ebr_total\": $ebr, \"ebr_per_port\": $ebrp, \"lut4_per_phy\": ${luts:-0}, \"dff_per_phy\": $dffs,
     \"fmax_mhz\": $fmax, \"target_mhz\": 24}"
done
echo "(LC: iCE40 logic cells of the whole design placed and routed, 4 ports and the loop-back glue; budget $budget per port)"

# speed, from the testbench's default configuration
sim="$work/sim"
src="tests/rtl/link/tb_link.v tests/rtl/link/tb_link_phy.v $rtl"
# shellcheck disable=SC2086
verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_link \
    -Mdir "$sim" $src >"$work/sim.build.log" 2>&1
"$sim/Vtb_link" >"$work/sim.log" 2>&1
if grep -q '^FAIL' "$work/sim.log"; then
    echo "bench-link: the testbench failed ($(grep -m 1 '^FAIL' "$work/sim.log"))" >&2
    exit 1
fi
m() { awk -v k="$1" '$1 == "MEASURE" && $2 == "default" && $3 == k {print $4}' "$work/sim.log"; }
lat_min=$(m latency_cycles_min); lat_avg=$(m latency_cycles_avg); lat_max=$(m latency_cycles_max)
thr1=$(m throughput_one_way_flits_per_cycle); thr2=$(m throughput_both_ways_flits_per_cycle)
# the frame: 3 head + 16 data + 1 credit + 4 check symbols, 2 idle symbols, 3 cycles each
frame_cycles=78
ideal=$(awk -v c=$frame_cycles 'BEGIN { printf "%.5f", 1 / c }')
echo "speed (32-bit flits, 2 lanes, 3 cycles/symbol, clocks 300 ppm apart):"
echo "  latency of a flit on an idle link: $lat_min .. $lat_max cycles (average $lat_avg)"
echo "  throughput: $thr1 flits/cycle one way, $thr2 each way with both saturated (frame every $frame_cycles cycles: $ideal)"
lcd=$(python3 -c "
import json; r = json.load(open('$work/default.report.json')); print(r['utilization']['ICESTORM_LC']['used'] / 4)")
met=$(awk -v a="$lcd" -v b=$budget 'BEGIN { print (a <= b) ? "true" : "false" }')
echo "budget: $lcd LC per port against $budget: $([ "$met" = true ] && echo met || echo NOT met)"

cat >"$out/link.json" <<EOF
{
  "device": "iCE40UP5K-SG48",
  "tool": "yosys synth_ice40 + nextpnr-ice40 --up5k --seed 1 --freq 24",
  "budget_lc_per_port": $budget,
  "budget_met": $met,
  "configs": [$json_configs
  ],
  "speed": {
    "config": "default",
    "clock_offset_ppm": 300,
    "frame_cycles": $frame_cycles,
    "ideal_flits_per_cycle": $ideal,
    "latency_cycles_min": $lat_min,
    "latency_cycles_avg": $lat_avg,
    "latency_cycles_max": $lat_max,
    "throughput_one_way_flits_per_cycle": $thr1,
    "throughput_both_ways_flits_per_cycle": $thr2
  }
}
EOF
echo "bench-link: $out/link.json"
