#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 1500
# The bitstream's netlist against the RTL (issue 12, "proof without a board"): the iCEBreaker
# top as yosys synthesised it for nextpnr (`make -C boards netlist`: the flow's own JSON,
# written as Verilog), simulated gate by gate with yosys's iCE40 cell models (SB_LUT4,
# SB_CARRY, the flip-flops, SB_RAM40_4K, SB_SPRAM256KA, SB_MAC16; the PLL passes the clock
# through, tests/boards/sb_pll40_pad_model.v) from its pins (tb_board_pins.v: SPI flash
# model, UART receiver), boots a C program from the flash model (tests/boards/progs/
# board_netlist.c: DSP multiplier, divider, DSP counters, SPRAM loads and stores) and must
# print what the RTL prints (tb_board_boot.v with the bitstream's clock and baud rate), line
# for line, each line at the same cycle after reset. A damaged image is refused the same way
# by both, with the red LED on.
# The flow's synthesis is shared with test_board_flow.sh (run before this one); the
# netlist's simulator takes about 2 minutes to compile and runs about 6,000 cycles a second.
set -u
. tests/lib.sh
need_tool board-netlist verilator yosys make od cmp || exit 1
work="$BUILD/tests/board-netlist"
mkdir -p "$work"
log="$work/make.log"
: >"$log"
B=boards/build/icebreaker
make_or_fail board-netlist-build "$log" -C boards BOARD=icebreaker boot params tool netlist || exit 1
make_or_fail board-netlist-image "$log" -C boards BOARD=icebreaker image \
    FW=tests/boards/progs/board_netlist.c COORD=0,0 MESH_DIMS=2 MESH_X=1 MESH_Y=1 MESH_TORUS=1 || exit 1
cp "$B/image-0_0.bin" "$work/good.bin"
cp "$work/good.bin" "$work/hcrc.bin"
printf '\001' | dd of="$work/hcrc.bin" bs=1 seek=44 conv=notrunc status=none
for name in good hcrc; do od -An -tx1 -v -w1 "$work/$name.bin" | tr -d ' ' >"$work/$name.hex"; done
offset=$(printf '%d' "$(make -s --no-print-directory -f config.mk -f - x BOARD=icebreaker <<<'x: ; @echo $(BOARD_FLASH_OFFSET)')")
# the bitstream's clock (the PLL's achieved rate) and board_node's console rate
clk_hz=$(sed -n 's/.*-set CLK_HZ \([0-9]*\).*/\1/p' "$B/pll.txt")
baud=$(sed -n 's/^ *parameter *BAUD *= *\([0-9]*\).*/\1/p' boards/rtl/board_node.v)
tick_hz=$(sed -n 's/^ *parameter *TICK_HZ *= *\([0-9]*\).*/\1/p' boards/rtl/board_node.v)
if [ -z "$clk_hz" ] || [ -z "$baud" ] || [ -z "$tick_hz" ]; then
    fail board-netlist-build "no clock ($clk_hz), baud rate ($baud) or LED tick ($tick_hz) found"
    exit 1
fi

# yosys's cell models without its empty PLL black box (the model here stands in for it)
cells=$(dirname "$(command -v yosys)")/../share/yosys/ice40/cells_sim.v
awk '/^module SB_PLL40_PAD /{skip=1} !skip{print} skip&&/^endmodule/{skip=0}' "$cells" >"$work/cells_sim.v"
# rtl NAME: the RTL's run of image NAME (its console line count tells the netlist's run when
# to stop); netlist NAME: the netlist's; same NAME: their console lines must be the same text,
# each the same number of cycles after the first
rtl() {
    "$work/rtl/Vtb_board_boot" +flash="$work/$1.hex" +stamp +no_blinks +max_cycles=20000000 >"$work/$1.rtl" 2>&1
}
# the RTL side (compile, then both images' runs) in the background while the netlist compiles
rtl_side() {
    # shellcheck disable=SC2046
    verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_board_boot \
        -I$B -DBOOT_HEX="\"$PWD/$B/boot.hex\"" -GFLASH_BASE="$offset" -GCLK_HZ="$clk_hz" \
        -GBAUD="$baud" -GTICK_HZ="$tick_hz" -Mdir "$work/rtl" tests/boards/tb_board_boot.v \
        tests/boards/uart_rx_model.v tests/boards/spi_flash_model.v \
        $(make -s --no-print-directory -C boards BOARD=icebreaker print-rtl) "$B/build/ice40/sb_mac16.v" \
        >"$work/rtl-build.log" 2>&1 || return 1
    rtl good
    rtl hcrc
}
rtl_side &
rtl_pid=$!
# shellcheck disable=SC2046
if ! verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style -DNO_ICE40_DEFAULT_ASSIGNMENTS \
        --top-module tb_board_pins -GFLASH_BASE="$offset" -GCLK_HZ="$clk_hz" -GBAUD="$baud" \
        -Mdir "$work/netlist" tests/boards/tb_board_pins.v tests/boards/uart_rx_model.v \
        tests/boards/spi_flash_model.v tests/boards/sb_pll40_pad_model.v \
        "$B/board_icebreaker_netlist.v" "$work/cells_sim.v" >"$work/netlist-build.log" 2>&1; then
    fail board-netlist-build "verilator (netlist) failed: $(grep -m 3 -i error "$work/netlist-build.log" | tr '\n' ' ')"
    wait
    exit 1
fi
if ! wait "$rtl_pid"; then
    fail board-netlist-build "verilator (RTL) failed: $(grep -m 3 -i error "$work/rtl-build.log" | tr '\n' ' ')"
    exit 1
fi
pass "board-netlist the bitstream's netlist and the RTL compile for simulation ($(grep -c 'SB_LUT4 ' "$B/board_icebreaker_netlist.v") SB_LUT4 cells)"

netlist() {
    "$work/netlist/Vtb_board_pins" +flash="$work/$1.hex" +stamp +lines="$(grep -c '^UART@' "$work/$1.rtl")" \
        +max_cycles=3000000 >"$work/$1.net" 2>&1
}
same() {
    local name=$1 rtl_out="$work/$1.rtl" net_out="$work/$1.net" lines
    lines=$(grep -c '^UART@' "$rtl_out")
    sed -n 's/^UART@[0-9]*: //p' "$rtl_out" >"$work/$name.rtl.text"
    sed -n 's/^UART@[0-9]*: //p' "$net_out" >"$work/$name.net.text"
    paste -d ' ' <(sed -n 's/^UART@\([0-9]*\):.*/\1/p' "$rtl_out") <(sed -n 's/^UART@\([0-9]*\):.*/\1/p' "$net_out") |
        awk '{ print $2 - $1 }' | sort -u >"$work/$name.offsets"
    if [ "$lines" -lt 3 ]; then
        fail "board-netlist $name: the RTL run" "$lines console lines: $(tail_of "$rtl_out" 3)"
    elif ! cmp -s "$work/$name.rtl.text" "$work/$name.net.text"; then
        fail "board-netlist $name: the netlist prints what the RTL prints" \
            "$(diff "$work/$name.rtl.text" "$work/$name.net.text" | head -n 4 | tr '\n' ' ')"
    elif [ "$(wc -l <"$work/$name.offsets")" -ne 1 ]; then
        fail "board-netlist $name: every line at the same cycle" "offsets netlist - RTL: $(tr '\n' ' ' <"$work/$name.offsets")"
    else
        pass "board-netlist $name: the netlist prints the RTL's $lines console lines, each at the RTL's cycle (+$(cat "$work/$name.offsets") cycles of power-on reset)"
    fi
}
# the two netlist runs at once (each takes one core for a minute or so)
netlist hcrc &
netlist good
wait

same good
if grep -q '^RESULT exited 0' "$work/good.rtl" && grep -qE '^UART@[0-9]+: netlist [0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{8} ok$' "$work/good.net"; then
    pass "board-netlist the program's checks hold on the netlist (multiplier, divider, SPRAM) and it exits 0 on the RTL"
else fail "board-netlist the program's checks" "$(grep -m 1 'netlist' "$work/good.net"); $(tail_of "$work/good.rtl" 1)"; fi
# the DSP counters count on the netlist (yosys's ice40_dsp once rebuilt them as multipliers
# that read 0: rtl/core/rv32_counter.v)
counts=$(sed -n 's/^UART@[0-9]*: netlist [0-9a-f]* \([0-9a-f]*\) \([0-9a-f]*\) .*/\1 \2/p' "$work/good.net")
if [ -n "$counts" ] && [ "${counts% *}" != 00000000 ] && [ "${counts#* }" != 00000000 ]; then
    pass "board-netlist mcycle and minstret count in the netlist's DSP blocks (0x${counts% *} cycles, 0x${counts#* } instructions)"
else fail "board-netlist mcycle and minstret count in the netlist's DSP blocks" "read: ${counts:-nothing}"; fi
if grep -q '^RESULT lines [0-9]* red 0 ' "$work/good.net"; then
    pass "board-netlist the red LED stays off after a good run"
else fail "board-netlist the red LED stays off after a good run" "$(tail_of "$work/good.net" 1)"; fi

same hcrc
if grep -q '^RESULT boot_error 4 red 1 ' "$work/hcrc.rtl" && grep -q '^RESULT lines [0-9]* red 1 ' "$work/hcrc.net" &&
   grep -qE '^UART@[0-9]+: rvmesh boot: error 4: header CRC' "$work/hcrc.net"; then
    pass "board-netlist a damaged header: refused by the netlist's boot ROM (error 4, red LED on, as in the RTL)"
else fail "board-netlist a damaged header" "$(tail_of "$work/hcrc.net" 2)"; fi
