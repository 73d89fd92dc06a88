#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 1800
# Post-synthesis simulation of the board: board_node synthesised by yosys synth_ice40 with
# config.mk's board options (SPRAM, DSP, the boot ROM in block RAM), written as a netlist of
# iCE40 cells, simulated with yosys's cell models (/usr/share/yosys/ice40/cells_sim.v) under
# iverilog, against the RTL under iverilog, on the same flash images and testbench
# (tb_board_boot.v). Two short runs: the boot ROM refusing an erased flash (error 2: ROM
# code, ROM data read by stealing the ROM's port, SPI, UART, the error LED), and the ROM
# loading tests/boards/progs/board_tiny.S (SPRAM in both banks, the NI, tohost). The
# console lines and the result line (exit status or error, blink count) must be identical.
# The netlist is synthesised with the testbench's clock constants (4 MHz, 1 Mbaud: only the
# UART divider and the LED prescaler differ from the board's).
set -u
. tests/lib.sh
need_tool board-netlist yosys iverilog vvp make || exit 1
cells=/usr/share/yosys/ice40/cells_sim.v
[ -f "$cells" ] || { fail board-netlist "$cells missing (the yosys package has it)"; exit 1; }
work="$BUILD/tests/board-netlist"
mkdir -p "$work"
log="$work/make.log"
: >"$log"
B=boards/build/icebreaker
make_or_fail board-netlist-build "$log" -C boards BOARD=icebreaker boot params tool || exit 1
make_or_fail board-netlist-image "$log" -C boards BOARD=icebreaker image \
    FW=tests/boards/progs/board_tiny.S COORD=1,1 MESH_DIMS=2 MESH_X=2 MESH_Y=2 MESH_TORUS=0 || exit 1
offset=$(make -s --no-print-directory -f config.mk -f - x BOARD=icebreaker <<<'x: ; @echo $(BOARD_FLASH_OFFSET)')
offset=$(printf '%d' "$offset")
flags=$(make -s --no-print-directory -f config.mk -f - x BOARD=icebreaker <<<'x: ; @echo $(BOARD_SYNTH_FLAGS)')
params=$(make -s --no-print-directory -f config.mk -f - x BOARD=icebreaker <<<'x: ; @echo $(BOARD_TILE_PARAMS)')
chparam=""
for p in $params; do chparam+=" -set ${p%%=*} ${p#*=}"; done

rtl="$(echo rtl/core/*.v) $(ls rtl/noc/*.v | grep -v noc_network | tr '\n' ' ') rtl/tile/tile_ni.v \
rtl/tile/ni_tx_engine.v rtl/tile/ni_rx_engine.v rtl/tile/tile.v boards/rtl/board_node.v \
boards/rtl/board_io.v boards/rtl/board_leds.v boards/rtl/board_uart_tx.v boards/rtl/board_spi_master.v"
netlist="$work/board_node_netlist.v"
start=$SECONDS
if ! yosys -q -l "$work/synth.log" -p "read_verilog $rtl; chparam $chparam \
        -set BOOT_INIT \"$PWD/$B/boot.hex\" -set CLK_HZ 4000000 -set BAUD 1000000 -set TICK_HZ 62500 board_node; \
        synth_ice40 $flags -top board_node; write_verilog -noattr $netlist" >/dev/null 2>&1; then
    fail board-netlist-synth "yosys failed: $(grep -m 2 ERROR "$work/synth.log" | tr '\n' ' ')"
    exit 1
fi
echo "board netlist: synthesised in $((SECONDS - start)) s"

tb="tests/boards/tb_board_boot.v tests/boards/spi_flash_model.v"
# shellcheck disable=SC2086
if ! iverilog -g2012 -o "$work/rtl.vvp" -s tb_board_boot -I"$B" -DBOOT_HEX="\"$PWD/$B/boot.hex\"" \
        -Ptb_board_boot.FLASH_BASE="$offset" $tb $rtl >"$work/iverilog-rtl.log" 2>&1; then
    fail board-netlist-build "iverilog of the RTL failed: $(tail_of "$work/iverilog-rtl.log" 3)"
    exit 1
fi
# shellcheck disable=SC2086
if ! iverilog -g2012 -o "$work/net.vvp" -s tb_board_boot -DNETLIST -I"$B" -DBOOT_HEX='""' \
        -Ptb_board_boot.FLASH_BASE="$offset" $tb "$netlist" "$cells" >"$work/iverilog-net.log" 2>&1; then
    fail board-netlist-build "iverilog of the netlist failed: $(tail_of "$work/iverilog-net.log" 3)"
    exit 1
fi

head -c 4096 /dev/zero | tr '\0' '\377' >"$work/erased.bin"
for run in erased:"$work/erased.bin" tiny:"$B/image-1_1.bin"; do
    name=${run%%:*} image=${run#*:}
    od -An -tx1 -v -w1 "$image" | tr -d ' ' >"$work/$name.hex"
    for kind in rtl net; do
        start=$SECONDS
        vvp -n "$work/$kind.vvp" +flash="$work/$name.hex" +max_cycles=400000 >"$work/$name-$kind.out" 2>&1
        grep -E '^(UART|RESULT)' "$work/$name-$kind.out" | sed 's/ cycles [0-9]*//' >"$work/$name-$kind.lines"
        echo "board netlist: $name on the $kind: $((SECONDS - start)) s, $(grep -m 1 RESULT "$work/$name-$kind.out")"
    done
    case $name in
        erased) want='RESULT boot_error 2 blinks 2 green 0' ;;
        tiny) want='RESULT exited 0' ;;
    esac
    if ! grep -qx "$want" "$work/$name-rtl.lines"; then
        fail "board-netlist $name: the RTL run" "expected '$want': $(tail_of "$work/$name-rtl.lines" 2)"
    elif ! cmp -s "$work/$name-rtl.lines" "$work/$name-net.lines"; then
        fail "board-netlist $name: the netlist matches the RTL" \
            "$(diff "$work/$name-rtl.lines" "$work/$name-net.lines" | head -n 4 | tr '\n' '|')"
    else
        pass "board-netlist $name: the synthesised iCE40 netlist prints and ends as the RTL ($(wc -l <"$work/$name-rtl.lines") lines)"
    fi
done
