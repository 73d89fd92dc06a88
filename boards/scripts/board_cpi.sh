#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# board_cpi.sh: CPI of the C programs of tests/firmware/programs on the board's tile
# (config.mk's board profile, booted from a flash model by tests/boards/tb_board_boot.v
# under Verilator) against the same tile with the dual-ported RAM of the simulators
# (RAM_SP_BANKS=0, everything else equal): what the SPRAM banks' single port costs
# (rtl/tile/README.md, "Single-ported memories"). Cycles and instret are the programs'
# own (mcycle/minstret around their work). Table on stdout, JSON in $BENCH_DIR/board_cpi.json.
# Run from the repository root by `make -C boards bench-cpi`.
set -u
B=boards/build/${BOARD:-icebreaker}
work=$B/cpi
bench=${BENCH_DIR:-build/bench}
mkdir -p "$work" "$bench"
rtl=$(make -s --no-print-directory -C boards print-rtl)
# yosys's SB_MAC16 model for verilator (the core's DSP_COUNTERS=1; make -C boards params)
mac16=$B/build/ice40/sb_mac16.v
offset=$(printf '%d' "$(make -s --no-print-directory -f config.mk -f - x <<<'x: ; @echo $(BOARD_FLASH_OFFSET)')")
programs="crc32 matmul sort interp primes"
for p in $programs; do
    make -s -C boards image FW=tests/firmware/programs/$p.c COORD=0,0 MESH_DIMS=2 MESH_X=1 MESH_Y=1 >/dev/null || exit 1
    od -An -tx1 -v -w1 "$B/image-0_0.bin" | tr -d ' ' >"$work/$p.hex"
done
# two simulators: the board's tile, and the same with a dual-ported RAM
mkdir -p "$work/sp" "$work/dp"
cp "$B/board_params.vh" "$work/sp/board_params.vh"
sed 's/\.RAM_SP_BANKS([0-9]*)/.RAM_SP_BANKS(0)/' "$B/board_params.vh" >"$work/dp/board_params.vh"
for v in sp dp; do
    echo "board_cpi: building the $v simulator ..." >&2
    # shellcheck disable=SC2086
    verilator --binary --timing -j 2 -Wno-fatal -Wno-lint -Wno-style --top-module tb_board_boot \
        -I"$work/$v" -DBOOT_HEX="\"$PWD/$B/boot.hex\"" -GFLASH_BASE="$offset" -Mdir "$work/$v/obj" \
        tests/boards/tb_board_boot.v tests/boards/uart_rx_model.v tests/boards/spi_flash_model.v $rtl "$mac16" >"$work/$v/build.log" 2>&1 ||
        { echo "board_cpi: verilator failed ($work/$v/build.log)" >&2; exit 1; }
done
rows=()
printf '%-8s %12s %12s %8s %12s %8s %7s\n' program instret "cycles SPRAM" CPI "cycles DP" CPI ratio
tc_sp=0 tc_dp=0 ti=0
for p in $programs; do
    for v in sp dp; do
        "$work/$v/obj/Vtb_board_boot" +flash="$work/$p.hex" +max_cycles=100000000 >"$work/$v/$p.out" 2>&1
        line=$(grep -m 1 "cycles [0-9]* instret" "$work/$v/$p.out")
        grep -q '^RESULT exited 0' "$work/$v/$p.out" || { echo "board_cpi: $p on $v did not exit 0: $(tail -n 2 "$work/$v/$p.out")" >&2; exit 1; }
        eval "c_$v=$(sed 's/.*cycles \([0-9]*\) instret.*/\1/' <<<"$line")"
        i=$(sed 's/.*instret \([0-9]*\).*/\1/' <<<"$line")
    done
    tc_sp=$((tc_sp + c_sp)) tc_dp=$((tc_dp + c_dp)) ti=$((ti + i))
    awk -v p="$p" -v i="$i" -v s="$c_sp" -v d="$c_dp" 'BEGIN { printf "%-8s %12d %12d %8.3f %12d %8.3f %7.3f\n", p, i, s, s / i, d, d / i, s / d }'
    rows+=("$(jq -n --arg p "$p" --argjson i "$i" --argjson s "$c_sp" --argjson d "$c_dp" \
        '{program: $p, instret: $i, cycles_spram: $s, cpi_spram: ($s / $i), cycles_dual_port: $d, cpi_dual_port: ($d / $i), ratio: ($s / $d)}')")
done
awk -v i="$ti" -v s="$tc_sp" -v d="$tc_dp" 'BEGIN { printf "%-8s %12d %12d %8.3f %12d %8.3f %7.3f\n", "all", i, s, s / i, d, d / i, s / d }'
printf '%s\n' "${rows[@]}" | jq -s --argjson i "$ti" --argjson s "$tc_sp" --argjson d "$tc_dp" \
    --arg params "$(grep -v '^ *//' "$B/board_params.vh" | tr -d '\n' | sed 's/^ *//; s/  */ /g')" \
    '{board_params: $params, programs: ., all: {instret: $i, cpi_spram: ($s / $i), cpi_dual_port: ($d / $i), ratio: ($s / $d)}}' \
    >"$bench/board_cpi.json"
echo "written: $bench/board_cpi.json"
