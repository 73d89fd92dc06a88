#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (builds only its own folder under $BUILD/tests, from the sources)
# The tile (core + RAM + NI + 2-D router) in the simulated configuration goes through yosys's
# synthesis front end: every module elaborated (hierarchy -check), processes turned into
# logic, flattened, and then no latch, no undriven or multiply driven net (check -assert).
# A planted latch must fail the same script, or the check proves nothing.
# The full iCE40 synthesis with cell counts is `make tile-synth` (a measurement: about 4
# minutes of yosys); tests/boards/test_board_flow.sh runs synth_ice40 on the board's tile.
set -u
. tests/lib.sh
need_tool tile-synth yosys || exit 1
work="$BUILD/tests/tile-synth"
mkdir -p "$work"
files="$(ls rtl/core/*.v) $(ls rtl/noc/*.v | grep -v noc_network) rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/tile/tile_ni.v rtl/tile/tile.v"
# front TOP FILES...: the checks on TOP
front() {
    local top=$1; shift
    yosys -q -l "$work/$top.log" -p "read_verilog $*; chparam -set RAM_BYTES 4096 $top; hierarchy -check -top $top; proc; flatten; opt_clean; check -assert; select -assert-none t:\$dlatch t:\$adlatch t:\$dlatchsr; tee -q -o $work/$top.stat stat" \
        >"$work/$top.out" 2>&1
}
# shellcheck disable=SC2086
if front tile $files; then
    cells=$(awk '/Number of cells:/ { print $4; exit }' "$work/tile.stat")
    if [ "${cells:-0}" -gt 1000 ]; then
        pass "tile-synth front end: elaborated, no latch, no undriven or multiply driven net ($cells generic cells)"
    else fail "tile-synth front end" "only '${cells:-0}' cells: $(tail_of "$work/tile.stat" 3)"; fi
else
    fail "tile-synth front end" "$(grep -m 2 -iE 'error|assert|found' "$work/tile.log" | tr '\n' ' ')"
fi
cat >"$work/planted_latch.v" <<'EOF'
module planted_latch #(parameter RAM_BYTES = 4) (input wire en, input wire [7:0] d, output reg [7:0] q);
    always @(*) if (en) q = d;
endmodule
EOF
if front planted_latch "$work/planted_latch.v"; then
    fail "tile-synth catches a planted latch" "yosys accepted a latch"
else
    pass "tile-synth catches a planted latch"
fi
