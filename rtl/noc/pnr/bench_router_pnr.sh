#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make router-pnr: one 2-D router placed and routed on an iCE40 UP5K (router_pnr.sh: yosys
# synth_ice40, nextpnr-ice40 --up5k, fixed seed), in two configurations of the same RTL side
# by side: the default router (config.mk's ROUTER_*: the simulated machine's) and the lean
# one (ROUTER_BOARD_*). Prints a table; writes $OUT/router_ice40.json:
#   {"benchmark": "router_ice40", "device", "target_mhz", "seed",
#    "default": {...}, "lean": {...}        (router_pnr.sh's fields for each)
#    "lean_over_default": {"lc_used", "router_lc", "fmax_mhz"}}   (ratios; null if unknown)
# A configuration that does not fit the UP5K keeps nextpnr's packed cell count and fmax null.
# Environment: OUT, DEFAULT_PARAMS, LEAN_PARAMS ("DIMS=2 VCS=1 ..."), PNR_FREQ, PNR_SEED.
set -eu
OUT=${OUT:-build/bench}
: "${DEFAULT_PARAMS:?set by rtl/rtl.mk from config.mk}" "${LEAN_PARAMS:?set by rtl/rtl.mk from config.mk}"
command -v jq >/dev/null 2>&1 || { echo "router-pnr: jq is not installed (make deps installs it)" >&2; exit 1; }
mkdir -p "$OUT"
here=$(dirname "$0")
OUT=$OUT ROUTER_PARAMS="$DEFAULT_PARAMS" TAG=router_ice40_default "$here/router_pnr.sh"
OUT=$OUT ROUTER_PARAMS="$LEAN_PARAMS" TAG=router_ice40_lean "$here/router_pnr.sh"
d="$OUT/router_ice40_default.json" l="$OUT/router_ice40_lean.json"
jq -n --slurpfile d "$d" --slurpfile l "$l" '
  def ratio(a; b): if (a == null or b == null or b == 0) then null
                   else ((a / b * 1000 | round) / 1000) end;
  $d[0] as $d | $l[0] as $l |
  {benchmark: "router_ice40", device: $d.device, target_mhz: $d.target_mhz, seed: $d.seed,
   default: $d, lean: $l,
   lean_over_default: {lc_used: ratio($l.lc_used; $d.lc_used),
                       router_lc: ratio($l.router_lc; $d.router_lc),
                       fmax_mhz: ratio($l.fmax_mhz; $d.fmax_mhz)}}' > "$OUT/router_ice40.json"
rm -f "$d" "$l"
j="$OUT/router_ice40.json"
row() { printf '%-22s %12s %12s %10s\n' "$1" "$2" "$3" "$4"; }
echo
echo "== one 2-D router on an iCE40 UP5K (nextpnr-ice40, seed $(jq -r .seed "$j"), target $(jq -r .target_mhz "$j") MHz)"
row "" "default" "lean" "lean/def"
row "fits the UP5K" "$(jq -r .default.fits "$j")" "$(jq -r .lean.fits "$j")" ""
row "logic cells (placed)" "$(jq -r .default.lc_used "$j")" "$(jq -r .lean.lc_used "$j")" "$(jq -r .lean_over_default.lc_used "$j")"
row "  of which the router" "$(jq -r .default.router_lc "$j")" "$(jq -r .lean.router_lc "$j")" "$(jq -r .lean_over_default.router_lc "$j")"
row "block RAMs" "$(jq -r .default.ebr_used "$j")" "$(jq -r .lean.ebr_used "$j")" ""
row "fmax MHz" "$(jq -r .default.fmax_mhz "$j")" "$(jq -r .lean.fmax_mhz "$j")" "$(jq -r .lean_over_default.fmax_mhz "$j")"
for c in default lean; do
    [ "$(jq -r ".$c.hx8k_if_not_fit" "$j")" = null ] ||
        echo "($c on an HX8K instead, a faster family: $(jq -r ".$c.hx8k_if_not_fit.lc_used" "$j") LC, fmax $(jq -r ".$c.hx8k_if_not_fit.fmax_mhz" "$j") MHz)"
done
echo "default: $(jq -c .default.params "$j")"
echo "lean:    $(jq -c .lean.params "$j")"
echo "written: $j"
