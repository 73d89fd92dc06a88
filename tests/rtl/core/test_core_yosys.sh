#!/usr/bin/env bash
# The core synthesizes for iCE40 with yosys synth_ice40 (skipped with a note without yosys).
set -u
BUILD="${BUILD:-build}"
if ! command -v yosys >/dev/null 2>&1; then
    echo "note: yosys not installed; core synthesis check skipped"
    exit 0
fi
mkdir -p "$BUILD/tests"
log="$BUILD/tests/core-yosys.log"
if make -s core-synth >"$log" 2>&1; then
    stat="$BUILD/synth/core/rv32_core.stat"
    luts=$(awk '$1 == "SB_LUT4" {print $2}' "$stat" | tail -n 1)
    if [ -n "$luts" ] && [ "$luts" -gt 500 ]; then
        echo "PASS core-synth-ice40 ($luts SB_LUT4)"
    else
        echo "FAIL core-synth-ice40: no plausible SB_LUT4 count in $stat (got '${luts}')"
    fi
else
    echo "FAIL core-synth-ice40: yosys synth_ice40 failed: $(grep -m3 -i 'error' "$log" | tr '\n' ' ')"
fi
