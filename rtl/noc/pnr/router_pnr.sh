#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make router-pnr: yosys synth_ice40 + nextpnr-ice40 (--up5k, fixed seed, a timing
# constraint) of one noc_router in the board configuration, inside the thin measurement
# top noc_router_pnr (links and local channels looped back, coordinates from a shift
# register). Writes $OUT/router_ice40.json:
#   lc_used, lc_total   ICESTORM_LC of the placed design (router + harness), of the device
#   harness_lc          the harness's own logic cells (yosys, router as a black box: flip-flops
#                       + LUTs - LUTs that feed a flip-flop, which share its cell)
#   router_lc           lc_used - harness_lc
#   ebr_used            SB_RAM40_4K blocks; fmax_mhz: nextpnr's, of clk; target_mhz
#   fits                false when the design needs more logic cells than the UP5K has
#                       (lc_used is then nextpnr's count after packing, fmax_mhz null)
#   hx8k_if_not_fit     then the same netlist placed on an HX8K: {lc_used, fmax_mhz} (a
#                       faster family: a clock figure, not the UP5K's), else null
#   params              the router parameters measured
# Environment: OUT (build/bench), ROUTER_PARAMS ("DIMS=2 VCS=1 ..."), PNR_FREQ (30),
# PNR_SEED (1), TAG (router_ice40: the file name without .json). bench_router_pnr.sh runs
# it for the default and the lean router and compares them.
set -eu
OUT=${OUT:-build/bench}
PARAMS=${ROUTER_PARAMS:?ROUTER_PARAMS is empty: say e.g. ROUTER_PARAMS="DIMS=2 VCS=1"}
FREQ=${PNR_FREQ:-30}
SEED=${PNR_SEED:-1}
TAG=${TAG:-router_ice40}
for tool in yosys nextpnr-ice40; do
    command -v "$tool" >/dev/null 2>&1 || { echo "router-pnr: $tool is not installed (make deps installs it)" >&2; exit 1; }
done
work="$OUT/$TAG.work"
mkdir -p "$work"
rtl="rtl/noc/noc_fifo.v rtl/noc/noc_rr_arbiter.v rtl/noc/noc_router.v rtl/noc/noc_in_range.v"
top=rtl/noc/pnr/noc_router_pnr.v
chparam=""
json_params=""
for kv in $PARAMS; do
    k=${kv%%=*} v=${kv#*=}
    case "$k" in *[!A-Z_0-9]*|"") echo "router-pnr: bad parameter '$kv' (want NAME=value)" >&2; exit 1;; esac
    case "$v" in *[!0-9]*|"") echo "router-pnr: parameter $k wants a decimal value, got '$v'" >&2; exit 1;; esac
    chparam="$chparam -set $k $v"
    json_params="$json_params${json_params:+, }\"$k\": $v"
done

echo "router-pnr: yosys synth_ice40 ($PARAMS)"
yosys -q -l "$work/yosys.log" -p "read_verilog $rtl $top; chparam $chparam noc_router_pnr; \
    synth_ice40 -top noc_router_pnr -json $work/router.json; tee -q -o $work/router.stat stat"
# The harness alone: the router as a black box.
yosys -q -l "$work/harness.log" -p "read_verilog -lib $rtl; read_verilog $top; \
    chparam $chparam noc_router_pnr; synth_ice40 -top noc_router_pnr; tee -q -o $work/harness.stat stat; \
    select -set ffs t:SB_DFF*; select -set d @ffs %x:+[D] @ffs %d; \
    tee -q -o $work/harness.packed select -count @d %x:+[O] @d %d t:SB_LUT4 %i"
h_ff=$(awk '/SB_DFF/ {s += $2} END {print s + 0}' "$work/harness.stat")
h_lut=$(awk '/SB_LUT4/ {s += $2} END {print s + 0}' "$work/harness.stat")
# a LUT that feeds a flip-flop shares its logic cell
h_packed=$(sed -n 's/^\([0-9]*\) objects.*/\1/p' "$work/harness.packed")

echo "router-pnr: nextpnr-ice40 --up5k --freq $FREQ --seed $SEED"
status=0
nextpnr-ice40 --up5k --package sg48 --json "$work/router.json" --freq "$FREQ" --seed "$SEED" \
    --timing-allow-fail --report "$work/report.json" --asc "$work/router.asc" \
    >"$work/nextpnr.log" 2>&1 || status=$?
# (the utilisation lines are in the log even when placement failed)
lc_used=$(sed -n 's/^Info:[[:space:]]*ICESTORM_LC:[[:space:]]*\([0-9]*\)\/ *\([0-9]*\).*/\1/p' "$work/nextpnr.log" | tail -n 1)
lc_total=$(sed -n 's/^Info:[[:space:]]*ICESTORM_LC:[[:space:]]*\([0-9]*\)\/ *\([0-9]*\).*/\2/p' "$work/nextpnr.log" | tail -n 1)
ebr=$(sed -n 's/^Info:[[:space:]]*ICESTORM_RAM:[[:space:]]*\([0-9]*\)\/ *\([0-9]*\).*/\1/p' "$work/nextpnr.log" | tail -n 1)
fmax=$(sed -n "s/^Info: Max frequency for clock '[^']*clk[^']*': \([0-9.]*\) MHz.*/\1/p" "$work/nextpnr.log" | tail -n 1)
[ -n "$lc_used" ] && [ -n "$lc_total" ] ||
    { tail -n 20 "$work/nextpnr.log" >&2; echo "router-pnr: could not read the utilisation from $work/nextpnr.log" >&2; exit 1; }
fits=true
hx8k=null
if [ "$status" != 0 ] || [ -z "$fmax" ]; then
    if [ "$lc_used" -gt "$lc_total" ]; then
        fits=false fmax=null
        echo "router-pnr: DOES NOT FIT the UP5K: $lc_used logic cells needed, $lc_total there (no fmax)"
        # For a clock figure at all: the same netlist on the largest iCE40, the HX8K (7,680
        # cells; another family: HX logic is faster than the UP5K's, so not comparable 1:1).
        echo "router-pnr: nextpnr-ice40 --hx8k --freq $FREQ --seed $SEED (for a clock figure)"
        if nextpnr-ice40 --hx8k --package ct256 --json "$work/router.json" --freq "$FREQ" --seed "$SEED" \
                --timing-allow-fail >"$work/nextpnr-hx8k.log" 2>&1; then
            hx_fmax=$(sed -n "s/^Info: Max frequency for clock '[^']*clk[^']*': \([0-9.]*\) MHz.*/\1/p" "$work/nextpnr-hx8k.log" | tail -n 1)
            hx_lc=$(sed -n 's/^Info:[[:space:]]*ICESTORM_LC:[[:space:]]*\([0-9]*\)\/.*/\1/p' "$work/nextpnr-hx8k.log" | tail -n 1)
            [ -n "$hx_fmax" ] && [ -n "$hx_lc" ] && hx8k="{\"lc_used\": $hx_lc, \"fmax_mhz\": $hx_fmax}"
            echo "router-pnr: on the HX8K: $hx_lc LC, fmax ${hx_fmax:-?} MHz"
        else
            echo "router-pnr: does not place on the HX8K either (log $work/nextpnr-hx8k.log)"
        fi
    else
        tail -n 20 "$work/nextpnr.log" >&2
        echo "router-pnr: nextpnr-ice40 failed (log $work/nextpnr.log)" >&2
        exit 1
    fi
fi
harness=$((h_ff + h_lut - ${h_packed:-0}))
router_lc=$((lc_used - harness))
cat > "$OUT/$TAG.json" <<JSON
{
  "benchmark": "router_ice40",
  "device": "iCE40UP5K",
  "params": {$json_params},
  "fits": $fits,
  "lc_used": $lc_used,
  "lc_total": $lc_total,
  "harness_lc": $harness,
  "router_lc": $router_lc,
  "ebr_used": ${ebr:-0},
  "fmax_mhz": $fmax,
  "hx8k_if_not_fit": $hx8k,
  "target_mhz": $FREQ,
  "seed": $SEED
}
JSON
echo "router-pnr: $lc_used / $lc_total LC (harness $harness: $h_ff flip-flops, $h_lut LUTs; router $router_lc), ${ebr:-0} EBR, fmax $fmax MHz (target $FREQ)"
echo "written: $OUT/$TAG.json"
