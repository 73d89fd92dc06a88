#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The core synthesizes for iCE40 with yosys synth_ice40. A missing yosys is a failure (make
# test installs it).
set -u
. tests/lib.sh
need_tool core-synth-ice40 yosys || exit 1
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
