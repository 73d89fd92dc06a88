#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# core-pnr: yosys synth_ice40 -dsp + nextpnr-ice40 --up5k of rv32_core in core_pnr_top
# (fixed seed, clock constraint TARGET_MHZ), then the core's own logic cells, block RAMs and
# DSP blocks (rtl/core/pnr/core_cells.py) and nextpnr's fmax of the clock, as JSON.
# Usage: core_pnr.sh OUT.json WORKDIR "MUL_KIND DIV_BITS LOAD_BYPASS FAST_REDIRECT DSP_COUNTERS" RTL...
# Environment: TARGET_MHZ (30), PNR_SEED (1).
set -u
out="$1"; work="$2"; read -r mul_kind div_bits load_bypass fast_redirect dsp_counters <<<"$3"; shift 3
target="${TARGET_MHZ:-30}"; seed="${PNR_SEED:-1}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$work" "$(dirname "$out")"
for tool in yosys nextpnr-ice40 python3; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "core-pnr: $tool is not installed (make deps installs yosys and nextpnr-ice40)" >&2; exit 1; }
done

params="chparam -set MUL_KIND $mul_kind -set DIV_BITS $div_bits -set LOAD_BYPASS $load_bypass -set FAST_REDIRECT $fast_redirect -set DSP_COUNTERS $dsp_counters core_pnr_top"
if ! yosys -q -l "$work/yosys.log" -p "read_verilog $* $here/core_pnr_top.v $here/core_pnr_ram.v; $params; synth_ice40 -dsp -top core_pnr_top -json $work/netlist.json" >/dev/null 2>&1; then
    echo "core-pnr: yosys failed: $(grep -m3 -i error "$work/yosys.log")" >&2; exit 1
fi
rm -f "$work/cells.json" "$work/report.json"
if ! CORE_CELLS_OUT="$work/cells.json" nextpnr-ice40 --up5k --package sg48 --json "$work/netlist.json" \
        --pcf-allow-unconstrained --freq "$target" --seed "$seed" --timing-allow-fail \
        --report "$work/report.json" --post-route "$here/core_cells.py" -l "$work/nextpnr.log" -q >/dev/null 2>&1 ||
   [ ! -s "$work/cells.json" ] || [ ! -s "$work/report.json" ]; then
    echo "core-pnr: nextpnr-ice40 failed: $(grep -m3 'ERROR' "$work/nextpnr.log")" >&2; exit 1
fi

python3 - "$work" "$out" "$target" "$seed" "$mul_kind" "$div_bits" "$load_bypass" "$fast_redirect" "$dsp_counters" <<'PY'
import json, re, sys
work, out, target, seed = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
mul_kind, div_bits, load_bypass, fast_redirect, dsp_counters = (int(v) for v in sys.argv[5:10])
cells = json.load(open(work + "/cells.json"))
report = json.load(open(work + "/report.json"))
util = report["utilization"]
fmax = [v["achieved"] for k, v in report["fmax"].items() if k.startswith("clk")]
# the first line of nextpnr's critical path for the clock: where it starts and ends
log = open(work + "/nextpnr.log").read()
path = re.findall(r"Critical path report for clock 'clk[^']*'.*?\n(.*?)\n\n", log, re.S)
ends = []
if path:
    nets = re.findall(r"Net (\S+)", path[-1])
    if nets:
        ends = [nets[0], nets[-1]]
result = {
    "device": "iCE40UP5K",
    "tool": "yosys synth_ice40 -dsp, nextpnr-ice40 --up5k",
    "top": "rv32_core (in rtl/core/pnr/core_pnr_top.v)",
    "params": {"MUL_KIND": mul_kind, "DIV_BITS": div_bits, "LOAD_BYPASS": load_bypass,
               "FAST_REDIRECT": fast_redirect, "DSP_COUNTERS": dsp_counters},
    "lc_used": cells.get("core:ICESTORM_LC", 0),
    "lc_total": util["ICESTORM_LC"]["available"],
    "ebr_used": cells.get("core:ICESTORM_RAM", 0),
    "dsp_used": cells.get("core:ICESTORM_DSP", 0),
    "fmax_mhz": round(min(fmax), 2) if fmax else 0.0,
    "target_mhz": target,
    "seed": seed,
    "design_lc_used": util["ICESTORM_LC"]["used"],
    "design_ebr_used": util["ICESTORM_RAM"]["used"],
    "critical_path_nets": ends,
}
json.dump(result, open(out, "w"), indent=2)
open(out, "a").write("\n")
print("core-pnr: rv32_core (MUL_KIND=%d DIV_BITS=%d LOAD_BYPASS=%d FAST_REDIRECT=%d DSP_COUNTERS=%d) on the UP5K: "
      "%d of %d LC, %d EBR, %d DSP, fmax %.2f MHz (target %g; whole test design %d LC)"
      % (mul_kind, div_bits, load_bypass, fast_redirect, dsp_counters, result["lc_used"], result["lc_total"],
         result["ebr_used"], result["dsp_used"], result["fmax_mhz"], target,
         result["design_lc_used"]))
PY
