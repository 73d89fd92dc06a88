#!/usr/bin/env bash
# make bench-router: latency against offered load for uniform random traffic on the 8x8
# mesh and torus, saturation throughput as a fraction of the bisection limit, cycles per
# hop, and (with yosys) iCE40 cells per router. The default run is config.mk's router
# (ROUTER_VCS x ROUTER_BUF_DEPTH); beside it in the same run, the router as it was before
# the lean-router work (2 VCs of 4 flits, the VC rule without the last-hop option: shape
# 8x8t4v2o), and other VC counts and depths of the same RTL.
# Table on stdout; $BUILD/bench/router.json and one SVG plot per run beside it.
set -eu
BUILD=${BUILD:-build}
out="$BUILD/bench"
sim="$BUILD/bin/noc-sim-bench"
mkdir -p "$out"
depth=${NOC_BUF_DEPTH:?set by sim/noc/noc.mk}
vcs=${NOC_VCS:?set by sim/noc/noc.mk}
loads_mesh="0.02,0.1,0.2,0.25,0.3,0.35,0.4,0.5,0.7"
loads_torus="0.02,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.2"
common="--pattern uniform --len 1-16 --warmup 1000 --cycles 5000 --drain 20000 --seed 11 --quiet"

default_run="router_8x8_torus_d${depth}_v${vcs}"
baseline_run="router_8x8_torus_d4_v2_old"
runs=()
# kind depth vcs variant(new|old)
for spec in "torus $depth $vcs new" "torus 4 2 old" "mesh $depth $vcs new" "torus 4 2 new" "torus 4 4 new" \
            "torus 16 2 new" "torus 16 4 new" "torus 32 8 new"; do
    set -- $spec
    kind=$1 d=$2 v=$3 variant=$4
    name="router_8x8_${kind}_d${d}_v${v}"
    extra=""
    label="8x8 $kind, $v VCs x $d flits"
    if [ "$variant" = old ]; then
        name="${name}_old"; extra="--old-vc-rule"; label="$label, VC rule before the last-hop option"
    fi
    case " ${runs[*]} " in *" $name "*) continue;; esac   # (the default may be one of the others)
    loads=$loads_mesh; [ "$kind" = torus ] && loads=$loads_torus
    echo "== uniform random, $label, payload 1..16 flits (+2 header flits)"
    "$sim" --shape 8x8 --$kind --buf-depth "$d" --vcs "$v" $extra $common --sweep "$loads" \
        --label "$label" --json "$out/$name.json" --svg "$out/$name.svg"
    runs+=("$name")
done

echo "== cycles per hop (contention-free straight worms on the 8x8 torus, config.mk's router)"
steps=$("$sim" --shape 8x8 --torus --buf-depth "$depth" --vcs "$vcs" --pattern step)
echo "$steps" | grep -v '^  '
# Two runs with the same worm length and different hop counts give the cost of a hop.
line1=$(echo "$steps" | grep -m1 ' up to 1 hops, 3 flits')
line7=$(echo "$steps" | grep -m1 ' up to 7 hops, 3 flits')
c1=$(echo "$line1" | sed -n 's/.*flits: \([0-9]*\) cycles.*/\1/p')
c7=$(echo "$line7" | sed -n 's/.*flits: \([0-9]*\) cycles.*/\1/p')
per_hop=$(awk -v a="$c1" -v b="$c7" 'BEGIN { printf "%.3f", (b - a) / 6 }')
echo "cycles per hop: $per_hop (worm of 3 flits: $c1 cycles over 1 hop, $c7 over 7 hops)"

field() { sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" "$out/$1.json" | head -n 1; }
sat_frac=$(field "$default_run" saturation_fraction_of_bisection)
old_frac=$(field "$baseline_run" saturation_fraction_of_bisection)
ratio=$(awk -v a="$sat_frac" -v b="$old_frac" 'BEGIN { printf "%.3f", a / b }')

ice40="null"
if command -v yosys >/dev/null 2>&1; then
    # One 2-D router, coordinates as inputs (so not folded as in a network): config.mk's
    # router and the one before. DIMS=3 takes yosys over 10 minutes and 3 GB: only with
    # NOC_SYNTH_3D=1.
    dim_list="2"; [ "${NOC_SYNTH_3D:-0}" = 1 ] && dim_list="2 3"
    for dims in $dim_list; do
        for cfg in "$vcs $depth default" "2 4 before"; do
            set -- $cfg
            v=$1 d=$2 what=$3
            [ "$what" = before ] && [ "$v" = "$vcs" ] && [ "$d" = "$depth" ] && continue
            echo "== yosys synth_ice40 of one router (DIMS=$dims, $v VCs of $d flits, coordinates as inputs)"
            stat="$out/router_ice40_d${dims}_v${v}_b${d}.stat"
            yosys -q -p "read_verilog rtl/noc/noc_fifo.v rtl/noc/noc_rr_arbiter.v rtl/noc/noc_router.v; \
                chparam -set DIMS $dims -set FLIT_BITS ${FLIT_BITS:-32} -set BUF_DEPTH $d -set VCS $v noc_router; \
                synth_ice40 -top noc_router; tee -q -o $stat stat" >/dev/null
            luts=$(awk '/SB_LUT4/ {print $2}' "$stat" | tail -n 1)
            ffs=$(awk '/SB_DFF/ {s += $2} END {print s + 0}' "$stat")
            rams=$(awk '/SB_RAM40_4K/ {print $2}' "$stat" | tail -n 1)
            echo "DIMS=$dims, $v x $d: ${luts:-0} LUT4, $ffs flip-flops, ${rams:-0} SB_RAM40_4K"
            entry="\"dims${dims}_v${v}_d${d}\": {\"vcs\": $v, \"buffer_depth\": $d, \"lut4\": ${luts:-0}, \"dff\": $ffs, \"ram40_4k\": ${rams:-0}}"
            if [ "$ice40" = null ]; then ice40="{$entry"; else ice40="$ice40, $entry"; fi
        done
    done
    ice40="$ice40}"
fi

{
    echo "{"
    echo "  \"benchmark\": \"router\","
    echo "  \"cycles_per_hop\": $per_hop,"
    echo "  \"default_run\": \"$default_run\","
    echo "  \"saturation_fraction_of_bisection\": $sat_frac,"
    echo "  \"baseline_run\": \"$baseline_run\","
    echo "  \"baseline_saturation_fraction_of_bisection\": $old_frac,"
    echo "  \"ratio_vs_baseline\": $ratio,"
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
    sat=$(field "$r" saturation_throughput)
    frac=$(field "$r" saturation_fraction_of_bisection)
    lim=$(field "$r" bisection_limit)
    printf '%-30s saturation %s flits/node/cycle = %s of the bisection limit %s\n' "$r" "$sat" "$frac" "$lim"
done
echo "default ($default_run) vs before ($baseline_run): $sat_frac / $old_frac of the bisection limit = $ratio x"
echo "cycles per hop: $per_hop"
echo "written: $out/router.json and $out/router_*.svg"
