#!/usr/bin/env bash
# yosys synth_ice40 of one tile (core + 4 KiB RAM + NI + 2-D router): synthesis succeeds
# and the cell counts are plausible (logic, flip-flops and block RAM all present).
# About 90 s. A missing yosys is a failure (make test installs it).
set -u
. tests/lib.sh
need_tool tile-synth yosys || exit 1
mkdir -p "$BUILD/tests"
if ! make -s tile-synth >"$BUILD/tests/tile-synth.log" 2>&1; then
    echo "FAIL tile-synth: yosys failed ($(tail -n 3 "$BUILD/tests/tile-synth.log" | tr '\n' ' '))"
    exit 1
fi
stat="$BUILD/synth/tile/tile.stat"
count() { awk -v c="$1" '$1 == c { print $2 }' "$stat" | head -n 1; }
luts=$(count SB_LUT4); rams=$(count SB_RAM40_4K)
ffs=$(awk '$1 ~ /^SB_DFF/ { s += $2 } END { print s + 0 }' "$stat")
echo "tile: ${luts:-0} SB_LUT4, $ffs flip-flops, ${rams:-0} SB_RAM40_4K"
if [ "${luts:-0}" -lt 5000 ] || [ "${luts:-0}" -gt 40000 ]; then
    echo "FAIL tile-synth-cells: ${luts:-0} LUT4 is outside 5,000..40,000"
elif [ "$ffs" -lt 1000 ] || [ "${rams:-0}" -lt 8 ]; then
    echo "FAIL tile-synth-cells: $ffs flip-flops, ${rams:-0} block RAMs (want >= 1000 and >= 8)"
else
    echo "PASS tile-synth ($luts LUT4, $ffs FF, $rams RAM40)"
fi
