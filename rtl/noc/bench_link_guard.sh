#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-link-guard: what one protected link costs on an iCE40 (yosys synth_ice40, the
# board's router parameters from config.mk: FLIT_BITS, VCS 2, BUF_DEPTH 4, 16-bit counters):
# link_guard_tx and link_guard_rx each, LUT4s, flip-flops, carry cells, and the logic cells
# a pair needs: at least max(LUT4, DFF) (every LUT packed with a flip-flop), at most
# LUT4 + DFF (none packed). Table on stdout; $BUILD/bench/link_guard.json.
set -eu
BUILD=${BUILD:-build}
FLIT_BITS=${FLIT_BITS:-32}
VCS=${VCS:-2}
BUF_DEPTH=${BUF_DEPTH:-4}
work="$BUILD/bench/link_guard"
mkdir -p "$work"
json="$BUILD/bench/link_guard.json"
declare -A lut dff carry
for m in link_guard_tx link_guard_rx; do
    yosys -q -l "$work/$m.log" -p "read_verilog rtl/noc/link_guard_crc.v rtl/noc/$m.v; \
        chparam -set FLIT_BITS $FLIT_BITS -set VCS $VCS -set BUF_DEPTH $BUF_DEPTH $m; \
        synth_ice40 -top $m; tee -q -o $work/$m.stat stat" >/dev/null
    lut[$m]=$(awk '/SB_LUT4/ {s += $2} END {print s + 0}' "$work/$m.stat")
    dff[$m]=$(awk '/SB_DFF/ {s += $2} END {print s + 0}' "$work/$m.stat")
    carry[$m]=$(awk '/SB_CARRY/ {s += $2} END {print s + 0}' "$work/$m.stat")
done
lt=$(( lut[link_guard_tx] + lut[link_guard_rx] ))
dt=$(( dff[link_guard_tx] + dff[link_guard_rx] ))
lo=$(( lt > dt ? lt : dt ))
hi=$(( lt + dt ))
printf '%-15s %6s %6s %6s\n' module LUT4 DFF CARRY
for m in link_guard_tx link_guard_rx; do printf '%-15s %6d %6d %6d\n' $m "${lut[$m]}" "${dff[$m]}" "${carry[$m]}"; done
printf 'pair: %d LUT4, %d DFF: %d..%d logic cells (FLIT_BITS %d, VCS %d, BUF_DEPTH %d)\n' "$lt" "$dt" "$lo" "$hi" \
    "$FLIT_BITS" "$VCS" "$BUF_DEPTH"
cat >"$json" <<JSON
{
  "flit_bits": $FLIT_BITS, "vcs": $VCS, "buf_depth": $BUF_DEPTH,
  "tx": {"lut4": ${lut[link_guard_tx]}, "dff": ${dff[link_guard_tx]}, "carry": ${carry[link_guard_tx]}},
  "rx": {"lut4": ${lut[link_guard_rx]}, "dff": ${dff[link_guard_rx]}, "carry": ${carry[link_guard_rx]}},
  "pair_lut4": $lt, "pair_dff": $dt, "pair_lc_min": $lo, "pair_lc_max": $hi
}
JSON
echo "wrote $json"
