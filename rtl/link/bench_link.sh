#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-link: what link_phy costs and what it carries.
#   cost:   link_cost_top (2*DIMS = 4 PHYs on the iCEBreaker's PMOD pins, router sides looped
#           back) through yosys synth_ice40 and nextpnr-ice40 --up5k (seed 1, 24 MHz
#           target): logic cells, block RAMs, fmax; logic cells per port = total / 4 (with
#           the loop-back glue, about 3 cells a port). Several configurations side by side,
#           each with go-back-N retry (RETRY 1, link_phy's default and the board's) and
#           fail-stop (RETRY 0, the name with _retry0), and the ratio of the two.
#   speed:  the testbench (tests/rtl/link) at its default configuration: latency of a flit
#           on an idle link and throughput with both directions saturated, in cycles of the
#           sending board's clock; RETRY 1 (speed) and RETRY 0 (speed_retry0).
# Table on stdout; $BUILD/bench/link.json.
set -eu
BUILD=${BUILD:-build}
out="$BUILD/bench"
work="$out/link"
mkdir -p "$work"
rtl="rtl/link/link_add.v rtl/link/link_crc.v rtl/link/link_tx.v rtl/link/link_rx.v rtl/link/link_phy.v"
budget=150

# name | chparam arguments | description (each also with RETRY 0: name_retry0)
base_configs=(
    "default||32-bit flits, 2 VCs x 4, 2 lanes, 3 cycles/symbol, tags in block RAM"
    "tags_ff|-set TAG_RAM 0|the same, tags in flip-flops"
    "flit16|-set FLIT_BITS 16|16-bit flits"
    "lanes1|-set LANES 1|1 lane"
)
configs=()
for entry in "${base_configs[@]}"; do
    IFS='|' read -r name params desc <<<"$entry"
    configs+=("$name|$params -set RETRY 1|$desc, go-back-N (RETRY 1)|1")
    configs+=("${name}_retry0|$params -set RETRY 0|$desc, fail-stop (RETRY 0)|0")
done

json_configs=""
printf '%-16s %-66s %6s %8s %5s %8s %8s %7s\n' config "" "LC" "LC/port" "EBR" "EBR/port" "LUT4/ph" "fmax"
for entry in "${configs[@]}"; do
    IFS='|' read -r name params desc retry <<<"$entry"
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
    printf '%-16s %-66s %6s %8s %5s %8s %8s %7s\n' "$name" "$desc" "$lc" "$lcp" "$ebr" "$ebrp" "$luts" "$fmax"
    [ -n "$json_configs" ] && json_configs="$json_configs,"
    json_configs="$json_configs
    {\"name\": \"$name\", \"what\": \"$desc\", \"retry\": $retry, \"ports\": 4, \"lc_total\": $lc, \"lc_per_port\": $lcp,
     \"ebr_total\": $ebr, \"ebr_per_port\": $ebrp, \"lut4_per_phy\": ${luts:-0}, \"dff_per_phy\": $dffs,
     \"fmax_mhz\": $fmax, \"target_mhz\": 24}"
    eval "lcp_$name=$lcp ebrp_$name=$ebrp fmax_$name=$fmax luts_$name=${luts:-0}"
done
# go-back-N against fail-stop, per configuration: the ratios
echo "go-back-N (RETRY 1) against fail-stop (RETRY 0), per port:"
json_compare=""
for entry in "${base_configs[@]}"; do
    IFS='|' read -r name params desc <<<"$entry"
    eval "l1=\$lcp_$name l0=\$lcp_${name}_retry0 e1=\$ebrp_$name e0=\$ebrp_${name}_retry0"
    eval "f1=\$fmax_$name f0=\$fmax_${name}_retry0 u1=\$luts_$name u0=\$luts_${name}_retry0"
    ratio=$(awk -v a="$l1" -v b="$l0" 'BEGIN { printf "%.2f", a / b }')
    printf '  %-9s LC %6s -> %6s (x%s, +%s)  EBR %s -> %s  fmax %s -> %s MHz\n' "$name" "$l0" "$l1" "$ratio" \
        "$(awk -v a="$l1" -v b="$l0" 'BEGIN { printf "%.1f", a - b }')" "$e0" "$e1" "$f0" "$f1"
    [ -n "$json_compare" ] && json_compare="$json_compare,"
    json_compare="$json_compare
    {\"config\": \"$name\", \"lc_per_port_retry0\": $l0, \"lc_per_port_retry1\": $l1, \"lc_ratio\": $ratio,
     \"ebr_per_port_retry0\": $e0, \"ebr_per_port_retry1\": $e1, \"lut4_per_phy_retry0\": $u0,
     \"lut4_per_phy_retry1\": $u1, \"fmax_mhz_retry0\": $f0, \"fmax_mhz_retry1\": $f1}"
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
m() { awk -v c="$cfg" -v k="$1" '$1 == "MEASURE" && $2 == c && $3 == k {print $4}' "$work/sim.log"; }
# RETRY 1 (config default): 5 head + 16 data + 5 credit/ack + 8 check symbols (CRC-16),
# 2 idle, 3 cycles each; RETRY 0 (default0): 3 + 16 + 1 + 4 (CRC-8), 2 idle
cfg=default
lat_min=$(m latency_cycles_min); lat_avg=$(m latency_cycles_avg); lat_max=$(m latency_cycles_max)
thr1=$(m throughput_one_way_flits_per_cycle); thr2=$(m throughput_both_ways_flits_per_cycle)
frame_cycles=108
ideal=$(awk -v c=$frame_cycles 'BEGIN { printf "%.5f", 1 / c }')
cfg=default0
lat0_min=$(m latency_cycles_min); lat0_avg=$(m latency_cycles_avg); lat0_max=$(m latency_cycles_max)
thr0_1=$(m throughput_one_way_flits_per_cycle); thr0_2=$(m throughput_both_ways_flits_per_cycle)
frame0_cycles=78
ideal0=$(awk -v c=$frame0_cycles 'BEGIN { printf "%.5f", 1 / c }')
echo "speed (32-bit flits, 2 lanes, 3 cycles/symbol, clocks 300 ppm apart), go-back-N (RETRY 1):"
echo "  latency of a flit on an idle link: $lat_min .. $lat_max cycles (average $lat_avg)"
echo "  throughput: $thr1 flits/cycle one way, $thr2 each way with both saturated (frame every $frame_cycles cycles: $ideal)"
echo "fail-stop (RETRY 0):"
echo "  latency of a flit on an idle link: $lat0_min .. $lat0_max cycles (average $lat0_avg)"
echo "  throughput: $thr0_1 flits/cycle one way, $thr0_2 each way with both saturated (frame every $frame0_cycles cycles: $ideal0)"
noise=$(awk '$1 == "MEASURE" && $2 == "default" && $3 == "noise_hits"' "$work/sim.log")
[ -n "$noise" ] && echo "  damage (testbench noise scenario, default): ${noise#MEASURE default }"
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
  "retry_compare": [$json_compare
  ],
  "speed": {
    "config": "default",
    "retry": 1,
    "clock_offset_ppm": 300,
    "frame_cycles": $frame_cycles,
    "ideal_flits_per_cycle": $ideal,
    "latency_cycles_min": $lat_min,
    "latency_cycles_avg": $lat_avg,
    "latency_cycles_max": $lat_max,
    "throughput_one_way_flits_per_cycle": $thr1,
    "throughput_both_ways_flits_per_cycle": $thr2
  },
  "speed_retry0": {
    "config": "default0",
    "retry": 0,
    "clock_offset_ppm": 300,
    "frame_cycles": $frame0_cycles,
    "ideal_flits_per_cycle": $ideal0,
    "latency_cycles_min": $lat0_min,
    "latency_cycles_avg": $lat0_avg,
    "latency_cycles_max": $lat0_max,
    "throughput_one_way_flits_per_cycle": $thr0_1,
    "throughput_both_ways_flits_per_cycle": $thr0_2
  }
}
EOF
echo "bench-link: $out/link.json"
