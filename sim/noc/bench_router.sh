#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-router: latency against offered load for uniform random traffic on the 8x8
# mesh and torus (2, 4 or 8 VCs of NOC_BUF_DEPTH or 16 flits), saturation throughput as a
# fraction of the bisection limit, cycles per hop, and (with yosys) iCE40 cells per router.
# Table on stdout; $BUILD/bench/router.json and one SVG plot per run beside it.
set -eu
BUILD=${BUILD:-build}
out="$BUILD/bench"
sim="$BUILD/bin/noc-sim-bench"
mkdir -p "$out"
depth=${NOC_BUF_DEPTH:-4}
loads_mesh="0.02,0.1,0.2,0.25,0.3,0.35,0.4,0.5,0.7"
loads_torus="0.02,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.2"
common="--pattern uniform --len 1-16 --warmup 1000 --cycles 5000 --drain 20000 --seed 11 --quiet"

runs=()
for spec in "mesh $depth 2" "torus $depth 2" "mesh 16 2" "torus 16 2" "torus 4 4" "torus 16 4" "mesh 16 4" "torus 16 8" "torus 32 8"; do
    set -- $spec
    kind=$1 d=$2 v=$3
    name="router_8x8_${kind}_d${d}_v${v}"
    loads=$loads_mesh; [ "$kind" = torus ] && loads=$loads_torus
    echo "== uniform random, 8x8 $kind, $v VCs of $d flits per link, payload 1..16 flits (+2 header flits)"
    "$sim" --shape 8x8 --$kind --buf-depth "$d" --vcs "$v" $common --sweep "$loads" \
        --label "8x8 $kind, $v VCs x $d flits" --json "$out/$name.json" --svg "$out/$name.svg"
    runs+=("$name")
done

echo "== cycles per hop (contention-free straight worms on the 8x8 torus)"
steps=$("$sim" --shape 8x8 --torus --buf-depth "$depth" --vcs 2 --pattern step)
echo "$steps" | grep -v '^  '
# Two runs with the same worm length and different hop counts give the cost of a hop.
line1=$(echo "$steps" | grep -m1 ' up to 1 hops, 3 flits')
line7=$(echo "$steps" | grep -m1 ' up to 7 hops, 3 flits')
c1=$(echo "$line1" | sed -n 's/.*flits: \([0-9]*\) cycles.*/\1/p')
c7=$(echo "$line7" | sed -n 's/.*flits: \([0-9]*\) cycles.*/\1/p')
per_hop=$(awk -v a="$c1" -v b="$c7" 'BEGIN { printf "%.3f", (b - a) / 6 }')
echo "cycles per hop: $per_hop (worm of 3 flits: $c1 cycles over 1 hop, $c7 over 7 hops)"

ice40="null"
if command -v yosys >/dev/null 2>&1; then
    # DIMS=3 takes yosys over 10 minutes and 3 GB: only with NOC_SYNTH_3D=1.
    dim_list="2"; [ "${NOC_SYNTH_3D:-0}" = 1 ] && dim_list="2 3"
    for dims in $dim_list; do
        echo "== yosys synth_ice40 of one router (DIMS=$dims, $depth-flit VCs, coordinates as inputs)"
        stat="$out/router_ice40_d${dims}.stat"
        yosys -q -p "read_verilog rtl/noc/noc_fifo.v rtl/noc/noc_rr_arbiter.v rtl/noc/noc_in_range.v rtl/noc/noc_router.v; \
            chparam -set DIMS $dims -set FLIT_BITS ${FLIT_BITS:-32} -set BUF_DEPTH $depth noc_router; \
            synth_ice40 -top noc_router; tee -q -o $stat stat" >/dev/null
        luts=$(awk '/SB_LUT4/ {print $2}' "$stat" | tail -n 1)
        ffs=$(awk '/SB_DFF/ {s += $2} END {print s + 0}' "$stat")
        rams=$(awk '/SB_RAM40_4K/ {print $2}' "$stat" | tail -n 1)
        echo "DIMS=$dims: ${luts:-0} LUT4, $ffs flip-flops, ${rams:-0} SB_RAM40_4K"
        entry="\"dims$dims\": {\"lut4\": ${luts:-0}, \"dff\": $ffs, \"ram40_4k\": ${rams:-0}}"
        if [ "$ice40" = null ]; then ice40="{$entry"; else ice40="$ice40, $entry"; fi
    done
    ice40="$ice40}"
fi

{
    echo "{"
    echo "  \"benchmark\": \"router\","
    echo "  \"cycles_per_hop\": $per_hop,"
    echo "  \"ice40_per_router\": $ice40,"
    echo "  \"runs\": {"
    for i in "${!runs[@]}"; do
        sep=","; [ "$i" -eq $((${#runs[@]} - 1)) ] && sep=""
        echo "    \"${runs[$i]}\": $(sed 's/^/    /' "$out/${runs[$i]}.json" | sed '1s/^ *//')$sep"
    done
    echo "  }"
    echo "}"
} > "$out/router.json"

echo "== summary"
for r in "${runs[@]}"; do
    sat=$(sed -n 's/.*"saturation_throughput": \([0-9.]*\).*/\1/p' "$out/$r.json")
    frac=$(sed -n 's/.*"saturation_fraction_of_bisection": \([0-9.]*\).*/\1/p' "$out/$r.json")
    lim=$(sed -n 's/.*"bisection_limit": \([0-9.]*\).*/\1/p' "$out/$r.json")
    printf '%-24s saturation %s flits/node/cycle = %s of the bisection limit %s\n' "$r" "$sat" "$frac" "$lim"
done
echo "cycles per hop: $per_hop"
echo "written: $out/router.json and $out/router_*.svg"
