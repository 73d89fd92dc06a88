#!/usr/bin/env bash
# bench-core: cycles, instret and CPI of each C test program on node-sim, node-sim's
# simulation speed, and (when yosys ran) the core's iCE40 cell counts.
# Usage: bench_core.sh NODE_SIM OUT.json SYNTH_STAT|- SMALL_SYNTH_STAT|- ELF...
#   (the yosys `stat` outputs of rv32_core with FAST_MUL=1 and FAST_MUL=0)
set -u
sim="$1"; out="$2"; stat="$3"; small_stat="$4"; shift 4
mkdir -p "$(dirname "$out")"
if [ "$#" -eq 0 ]; then
    echo "bench-core: no C programs under tests/firmware/programs/ to measure" >&2
fi

printf '%-28s %12s %12s %7s %6s %14s\n' program cycles instret cpi exit "sim cycles/s"
json_programs=""
total_cycles=0; total_instret=0; total_ns=0
for elf in "$@"; do
    name=$(basename "$elf" .elf)
    start=$(date +%s%N)
    "$sim" --elf "$elf" >/dev/null 2>"$out.$name.err"
    status=$?
    end=$(date +%s%N)
    line=$(grep '^node-sim: exit=' "$out.$name.err" | tail -n 1)
    cycles=$(echo "$line" | sed -n 's/.* cycles=\([0-9]*\).*/\1/p')
    instret=$(echo "$line" | sed -n 's/.* instret=\([0-9]*\).*/\1/p')
    cpi=$(echo "$line" | sed -n 's/.* cpi=\([0-9.]*\).*/\1/p')
    rm -f "$out.$name.err"
    [ -n "$cycles" ] || { echo "bench-core: $name: no summary line from node-sim" >&2; continue; }
    ns=$((end - start))
    rate=$(awk -v c="$cycles" -v ns="$ns" 'BEGIN { printf "%.0f", (ns > 0 ? c / (ns / 1e9) : 0) }')
    printf '%-28s %12s %12s %7s %6s %14s\n' "$name" "$cycles" "$instret" "$cpi" "$status" "$rate"
    total_cycles=$((total_cycles + cycles)); total_instret=$((total_instret + instret))
    total_ns=$((total_ns + ns))
    json_programs="$json_programs${json_programs:+,}
    {\"name\": \"$name\", \"cycles\": $cycles, \"instret\": $instret, \"cpi\": $cpi, \"exit\": $status, \"sim_cycles_per_second\": $rate}"
done
total_cpi=$(awk -v c="$total_cycles" -v i="$total_instret" 'BEGIN { printf "%.3f", (i ? c / i : 0) }')
total_rate=$(awk -v c="$total_cycles" -v ns="$total_ns" 'BEGIN { printf "%.0f", (ns ? c / (ns / 1e9) : 0) }')
printf '%-28s %12s %12s %7s %6s %14s\n' "all" "$total_cycles" "$total_instret" "$total_cpi" "" "$total_rate"

# cells of one yosys stat file as JSON; prints a table line too
synth_cells() {  # synth_cells STAT LABEL
    local luts ffs rams carries
    luts=$(awk '$1 == "SB_LUT4" {n = $2} END {print n + 0}' "$1")
    ffs=$(awk '$1 ~ /^SB_DFF/ {n += $2} END {print n + 0}' "$1")
    rams=$(awk '$1 == "SB_RAM40_4K" {n = $2} END {print n + 0}' "$1")
    carries=$(awk '$1 == "SB_CARRY" {n = $2} END {print n + 0}' "$1")
    printf '%-34s %8s %8s %12s %9s\n' "$2" "$luts" "$ffs" "$rams" "$carries" >&2
    echo "{\"sb_lut4\": $luts, \"flip_flops\": $ffs, \"sb_ram40_4k\": $rams, \"sb_carry\": $carries}"
}
synth_json="null"
if [ "$stat" != "-" ] && [ -f "$stat" ]; then
    printf '\n%-34s %8s %8s %12s %9s\n' "rv32_core, yosys synth_ice40" SB_LUT4 "flip-flops" SB_RAM40_4K SB_CARRY
    synth_cells "$stat" "FAST_MUL=1 (default)" 2>&1 >/dev/null
    fast_json=$(synth_cells "$stat" x 2>/dev/null)
    small_json="null"
    if [ "$small_stat" != "-" ] && [ -f "$small_stat" ]; then
        synth_cells "$small_stat" "FAST_MUL=0 (iterative multiplier)" 2>&1 >/dev/null
        small_json=$(synth_cells "$small_stat" x 2>/dev/null)
    fi
    synth_json="{\"tool\": \"yosys synth_ice40\", \"top\": \"rv32_core\", \"fast_mul\": $fast_json, \"small_mul\": $small_json}"
else
    printf '\nrv32_core synthesis: skipped (yosys not installed)\n'
fi

cat >"$out" <<JSON
{
  "bench": "core",
  "programs": [$json_programs
  ],
  "total": {"cycles": $total_cycles, "instret": $total_instret, "cpi": $total_cpi, "sim_cycles_per_second": $total_rate},
  "synth": $synth_json
}
JSON
echo "bench-core: wrote $out"
