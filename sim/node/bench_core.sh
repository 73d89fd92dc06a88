#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# bench-core: cycles, instret and CPI of each C test program on node-sim (the simulated
# configuration, config.mk's CORE_*) and on node-sim-board (the iCE40 board's, CORE_BOARD_*)
# side by side, node-sim's simulation speed, and (when yosys ran) the core's iCE40 cell
# counts in both configurations.
# Usage: bench_core.sh NODE_SIM BOARD_SIM|- OUT.json SYNTH_STAT|- BOARD_SYNTH_STAT|- ELF...
#   (the yosys `stat` outputs of rv32_core in the two configurations: make core-synth,
#   make core-synth-board)
set -u
sim="$1"; board_sim="$2"; out="$3"; stat="$4"; board_stat="$5"; shift 5
mkdir -p "$(dirname "$out")"
if [ "$#" -eq 0 ]; then
    echo "bench-core: no C programs under tests/firmware/programs/ to measure" >&2
fi

# run_sim SIM ELF: sets cycles, instret, cpi, status, ns (cycles empty if no summary line)
run_sim() {
    local start end line err="$out.run.err"
    start=$(date +%s%N)
    "$1" --elf "$2" >/dev/null 2>"$err"
    status=$?
    end=$(date +%s%N)
    line=$(grep '^node-sim: exit=' "$err" | tail -n 1)
    cycles=$(echo "$line" | sed -n 's/.* cycles=\([0-9]*\).*/\1/p')
    instret=$(echo "$line" | sed -n 's/.* instret=\([0-9]*\).*/\1/p')
    cpi=$(echo "$line" | sed -n 's/.* cpi=\([0-9.]*\).*/\1/p')
    rm -f "$err"
    ns=$((end - start))
}

printf '%-28s %12s %12s %7s %6s %14s %12s %9s %7s\n' program cycles instret cpi exit "sim cycles/s" \
    "board cycles" "board cpi" ratio
json_programs=""; json_board=""
total_cycles=0; total_instret=0; total_ns=0; board_cycles=0; board_instret=0; board_ok=1
for elf in "$@"; do
    name=$(basename "$elf" .elf)
    run_sim "$sim" "$elf"
    [ -n "$cycles" ] || { echo "bench-core: $name: no summary line from node-sim" >&2; continue; }
    rate=$(awk -v c="$cycles" -v ns="$ns" 'BEGIN { printf "%.0f", (ns > 0 ? c / (ns / 1e9) : 0) }')
    total_cycles=$((total_cycles + cycles)); total_instret=$((total_instret + instret))
    total_ns=$((total_ns + ns))
    json_programs="$json_programs${json_programs:+,}
    {\"name\": \"$name\", \"cycles\": $cycles, \"instret\": $instret, \"cpi\": $cpi, \"exit\": $status, \"sim_cycles_per_second\": $rate}"
    d_cycles=$cycles; d_instret=$instret; d_cpi=$cpi; d_status=$status
    b_cycles="-"; b_cpi="-"; ratio="-"
    if [ "$board_sim" != "-" ]; then
        run_sim "$board_sim" "$elf"
        if [ -n "$cycles" ]; then
            b_cycles=$cycles; b_cpi=$cpi
            ratio=$(awk -v b="$cycles" -v d="$d_cycles" 'BEGIN { printf "%.3f", (d ? b / d : 0) }')
            board_cycles=$((board_cycles + cycles)); board_instret=$((board_instret + instret))
            [ "$status" -eq "$d_status" ] || board_ok=0
            json_board="$json_board${json_board:+,}
      {\"name\": \"$name\", \"cycles\": $cycles, \"instret\": $instret, \"cpi\": $cpi, \"exit\": $status}"
        else
            echo "bench-core: $name: no summary line from node-sim-board" >&2; board_ok=0
        fi
    fi
    printf '%-28s %12s %12s %7s %6s %14s %12s %9s %7s\n' "$name" "$d_cycles" "$d_instret" "$d_cpi" \
        "$d_status" "$rate" "$b_cycles" "$b_cpi" "$ratio"
done
total_cpi=$(awk -v c="$total_cycles" -v i="$total_instret" 'BEGIN { printf "%.3f", (i ? c / i : 0) }')
total_rate=$(awk -v c="$total_cycles" -v ns="$total_ns" 'BEGIN { printf "%.0f", (ns ? c / (ns / 1e9) : 0) }')
board_json="null"
if [ "$board_sim" != "-" ]; then
    board_cpi=$(awk -v c="$board_cycles" -v i="$board_instret" 'BEGIN { printf "%.3f", (i ? c / i : 0) }')
    ratio=$(awk -v b="$board_cycles" -v d="$total_cycles" 'BEGIN { printf "%.3f", (d ? b / d : 0) }')
    printf '%-28s %12s %12s %7s %6s %14s %12s %9s %7s\n' "all" "$total_cycles" "$total_instret" \
        "$total_cpi" "" "$total_rate" "$board_cycles" "$board_cpi" "$ratio"
    max_cpi=$(awk -v c="$board_cpi" 'BEGIN { print (c <= 1.3 ? "yes" : "no") }')
    echo "board configuration: CPI $board_cpi over all programs (issue 12 asks <= 1.3: $max_cpi);" \
        "cycles $ratio x the simulated configuration's"
    [ "$board_ok" -eq 1 ] || echo "bench-core: the board configuration did not finish every program as node-sim did" >&2
    board_json="{\"sim\": \"node-sim-board\", \"programs\": [$json_board
    ],
    \"total\": {\"cycles\": $board_cycles, \"instret\": $board_instret, \"cpi\": $board_cpi},
    \"cycles_ratio_vs_default\": $ratio, \"same_exits\": $([ "$board_ok" -eq 1 ] && echo true || echo false)}"
else
    printf '%-28s %12s %12s %7s %6s %14s\n' "all" "$total_cycles" "$total_instret" "$total_cpi" "" "$total_rate"
fi

# cells of one yosys stat file as JSON; prints a table line too
synth_cells() {  # synth_cells STAT LABEL
    local luts ffs rams carries dsps
    luts=$(awk '$1 == "SB_LUT4" {n = $2} END {print n + 0}' "$1")
    ffs=$(awk '$1 ~ /^SB_DFF/ {n += $2} END {print n + 0}' "$1")
    rams=$(awk '$1 == "SB_RAM40_4K" {n = $2} END {print n + 0}' "$1")
    carries=$(awk '$1 == "SB_CARRY" {n = $2} END {print n + 0}' "$1")
    dsps=$(awk '$1 == "SB_MAC16" {n = $2} END {print n + 0}' "$1")
    printf '%-34s %8s %8s %12s %9s %9s\n' "$2" "$luts" "$ffs" "$rams" "$carries" "$dsps" >&2
    echo "{\"sb_lut4\": $luts, \"flip_flops\": $ffs, \"sb_ram40_4k\": $rams, \"sb_carry\": $carries, \"sb_mac16\": $dsps}"
}
synth_json="null"
if [ "$stat" != "-" ] && [ -f "$stat" ]; then
    printf '\n%-34s %8s %8s %12s %9s %9s\n' "rv32_core, yosys synth_ice40" SB_LUT4 "flip-flops" SB_RAM40_4K SB_CARRY SB_MAC16
    synth_cells "$stat" "simulated (config.mk CORE_*)" 2>&1 >/dev/null
    default_json=$(synth_cells "$stat" x 2>/dev/null)
    board_synth_json="null"
    if [ "$board_stat" != "-" ] && [ -f "$board_stat" ]; then
        synth_cells "$board_stat" "board (CORE_BOARD_*, -dsp)" 2>&1 >/dev/null
        board_synth_json=$(synth_cells "$board_stat" x 2>/dev/null)
    fi
    synth_json="{\"tool\": \"yosys synth_ice40\", \"top\": \"rv32_core\", \"default\": $default_json, \"board\": $board_synth_json}"
else
    printf '\nrv32_core synthesis: skipped (yosys not installed)\n'
fi

cat >"$out" <<JSON
{
  "bench": "core",
  "programs": [$json_programs
  ],
  "total": {"cycles": $total_cycles, "instret": $total_instret, "cpi": $total_cpi, "sim_cycles_per_second": $total_rate},
  "board": $board_json,
  "synth": $synth_json
}
JSON
echo "bench-core: wrote $out"
