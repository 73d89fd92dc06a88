#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-mesh: the collectives on the simulated machine of RISC-V tiles (mesh-sim), on
# the 4x4 and 8x8 tori: cycles per collective against message size, against the cost model
# and the all-port lower bound; flits per link; and the simulator's own speed (machine
# cycles per second of wall time) with Verilator on one thread and on two.
#
# Every (shape, size, collective) is one mesh-sim run of two jobs: the first is the warmup,
# the second the measurement, and the barrier after each the drain (mesh-sim releases all
# nodes only once every node has finished and been checked). Delivery is checked byte for byte on every job; a failed check fails the bench.
# Results: tables on stdout, $(BUILD)/bench/mesh.json, per-run reports and link SVGs in
# $(BUILD)/bench/mesh/.
#
# Environment: BUILD; BENCH_MESH_SHAPES (default "4x4 8x8"); BENCH_MESH_SIZES_4x4 and
# BENCH_MESH_SIZES_8x8 (bytes per block). Sizes whose buffers do not fit a node's RAM
# are skipped for that collective (the table says so), never silently truncated.
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
out="$BUILD/bench/mesh"
rm -rf "$out"   # no stale runs in the fit
mkdir -p "$out"
shapes="${BENCH_MESH_SHAPES:-4x4 8x8}"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
sg="$BUILD/bin/schedgen"
fail=0

need=("$elf" schedgen)
for s in $shapes; do need+=("mesh-sim-${s}t" "mesh-sim-${s}t-mt"); done
echo "bench-mesh: building ${need[*]} (the 8x8 models take several minutes)"
make -s "${need[@]}" || exit 1

# the largest block size of each collective that fits a node (RAM_BYTES of config.mk; the
# program's arena and jobs area, firmware/apps/mesh/collectives.c): N blocks of result and
# of send buffer, plus transit slots; measured limits, checked by the program itself
fits() {  # fits COLLECTIVE NODES BYTES -> 0 if it fits
    local coll=$1 n=$2 m=$3 total
    case $coll in
        bcast|scatter) total=$((m)) ;;
        gather|allgather|pallgather) total=$((2 * n * m)) ;;
        alltoall) total=$((5 * n * m)) ;;
    esac
    [ "$total" -le "${BENCH_MESH_ARENA:-32768}" ]
}

json="$BUILD/bench/mesh.json"
{
    echo "{"
    echo "  \"bench\": \"mesh\","
    echo "  \"method\": \"each collective run twice per mesh-sim run (warmup, measure); the barrier between jobs drains the machine; cycles = first node's step 1 (after the start barrier) to the last node's return (mcycle)\","
    echo "  \"runs\": ["
} >"$json"
first_run=1

for s in $shapes; do
    x=${s%x*}; y=${s#*x}; n=$((x * y))
    root="$(( (x - 1) / 2 )),$(( y / 2 ))"
    t="$out/$s-tables"
    mkdir -p "$t"
    # the fastest of our schedules for each collective at these sizes (make bench-coll; tools/demo.sh)
    declare -A algo=([bcast]=bcast-edst [scatter]=scatter [gather]=gather [allgather]=mnb-opt [alltoall]=te-a3
                     [pallgather]=pmnb)
    for c in bcast scatter gather allgather alltoall pallgather; do
        extra=(); [ "$c" = pallgather ] && extra=(--sources "random:$((n / 4)):7")
        "$sg" --shape "$s" --torus --algo "${algo[$c]}" --root "$root" "${extra[@]}" --check --quiet \
            --tables "$t/$c.tbl" >"$t/$c.log" 2>&1 || { echo "bench-mesh: schedgen ${algo[$c]} $s failed"; exit 1; }
    done
    var="BENCH_MESH_SIZES_$s"
    default_sizes="16 64 256 1024"; [ "$s" = 8x8 ] && default_sizes="16 128"
    sizes="${!var:-$default_sizes}"
    echo
    echo "== $s torus, root $root, $n nodes: cycles per collective (measure run; warmup discarded)"
    printf '%-18s %-17s %6s %5s %10s %10s %10s %7s %9s %9s %6s\n' collective algorithm bytes steps cycles model \
        lower-bnd eff ram-bnd busiest delivery
    for m in $sizes; do
        for c in bcast scatter gather allgather alltoall pallgather; do
            if ! fits "$c" "$n" "$m"; then
                printf '%-18s %-17s %6s %5s %10s\n' "$c" "${algo[$c]}" "$m" - "skipped: buffers do not fit $((${BENCH_MESH_ARENA:-32768} / 1024)) KiB"
                continue
            fi
            # one run per collective and size: warmup job, measured job
            run="$out/$s-$m-$c"
            start=$(date +%s.%N)
            "$BUILD/bin/mesh-sim-${s}t" --elf "$elf" --job "$t/$c.tbl:$m:$m" --job "$t/$c.tbl:$m:$((m + 1))" \
                --report "$run.json" --link-svg "$run-links.svg" --max-cycles 400000000 --progress 20000000 \
                >"$run.out" 2>"$run.err"
            rc=$?
            wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
            if [ $rc -eq 120 ] && grep -q "bytes of tables area" "$run.err"; then
                printf '%-18s %-17s %6s %5s %10s\n' "$c" "${algo[$c]}" "$m" - "skipped: $(grep -o 'need [0-9]* bytes of tables area' "$run.err") (jobs area of collectives.c)"
                continue
            elif [ $rc -ne 0 ]; then
                echo "bench-mesh: $s $c $m B: mesh-sim exit $rc (see $run.out, .err)"; fail=1; continue
            fi
            # the measured job (job 1) of the report
            awk '/"job": 1,/ {
                    split("collective algorithm bytes steps cycles model_cycles lower_bound_cycles efficiency ram_port_bound_cycles max_link_flits delivered", k, " ")
                    for (i = 1; i <= 11; i++) {
                        re = "\"" k[i] "\": \"?[^,\"]*"
                        match($0, re); v[i] = substr($0, RSTART, RLENGTH); sub(/^"[^"]*": "?/, "", v[i])
                    }
                    printf "%-18s %-17s %6s %5s %10s %10s %10.0f %6.1f%% %9s %9s %6s\n", v[1], v[2], v[3], v[4], v[5], v[6], v[7], 100 * v[8], v[9], v[10], v[11] == "true" ? "OK" : "FAILED"
                }' "$run.json"
            cycles=$(sed -n 's/.*cycles=\([0-9]*\) .*/\1/p' "$run.err" | tail -1)
            [ $first_run -eq 1 ] || echo "    ," >>"$json"
            first_run=0
            printf '    {"shape": "%s torus", "collective": "%s", "bytes": %s, "threads": 1, "sim_cycles": %s, "wall_s": %s, "report": ' \
                "$s" "$c" "$m" "${cycles:-0}" "$wall" >>"$json"
            cat "$run.json" >>"$json"
            printf '    }\n' >>"$json"
        done
    done
done
echo "  ],"  >>"$json"

# the cost model refitted to what was measured: cycles ~ alpha * steps + gamma * worms +
# beta * flits (worms and flits of the busiest node, summed over steps), least squares over
# every measured job (the 3x3 normal equations, by Cramer's rule)
fit=$(cat "$out"/*x*-[0-9]*-*.json 2>/dev/null | awk '
    function num(key,   v) { if (!match($0, "\"" key "\": [0-9.]+")) return 0
                             v = substr($0, RSTART, RLENGTH); sub(/^.*: /, "", v); return v + 0 }
    function det3(a, b, c, d, e, f, g, h, i) { return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g) }
    /"job":/ {
        if (num("job") != 1) next
        x[1] = num("steps"); x[2] = num("model_busiest_worms"); x[3] = num("model_busiest_flits"); y = num("cycles")
        for (i = 1; i <= 3; i++) { v[i] += x[i] * y; for (j = 1; j <= 3; j++) m[i, j] += x[i] * x[j] }
        n++
    } END {
        d = det3(m[1,1], m[1,2], m[1,3], m[2,1], m[2,2], m[2,3], m[3,1], m[3,2], m[3,3])
        if (n < 3 || d == 0) { print "0 0 0 0"; exit }
        a = det3(v[1], m[1,2], m[1,3], v[2], m[2,2], m[2,3], v[3], m[3,2], m[3,3]) / d
        g = det3(m[1,1], v[1], m[1,3], m[2,1], v[2], m[2,3], m[3,1], v[3], m[3,3]) / d
        b = det3(m[1,1], m[1,2], v[1], m[2,1], m[2,2], v[2], m[3,1], m[3,2], v[3]) / d
        printf "%.0f %.0f %.2f %d\n", a, g, b, n
    }')
read -r fit_alpha fit_gamma fit_beta fit_n <<<"$fit"
echo
echo "== cost model refitted to the $fit_n measured jobs: a step costs $fit_alpha + $fit_gamma per worm + $fit_beta per flit of its busiest node"
echo "   (mesh-sim's default: $("$BUILD/bin/mesh-sim" --help | grep -o 'default [0-9.]*,[0-9.]*,[0-9.]*' ); rerun with --model $fit_alpha,$fit_gamma,$fit_beta)"
echo "  \"model_fit\": {\"alpha\": $fit_alpha, \"gamma\": $fit_gamma, \"beta\": $fit_beta, \"jobs\": $fit_n}," >>"$json"

# simulator speed, 1 and 2 Verilator threads, the same run (allgather, 64 B blocks)
echo "  \"sim_speed\": [" >>"$json"
echo
echo "== simulator speed (allgather of 64-byte blocks; machine cycles per second of wall time)"
printf '%-10s %8s %12s %10s %14s\n' shape threads cycles wall-s cycles/s
first=1
for s in $shapes; do
    for th in 1 2; do
        bin="$BUILD/bin/mesh-sim-${s}t"; [ $th = 2 ] && bin="$bin-mt"
        start=$(date +%s.%N)
        "$bin" --elf "$elf" --job "$out/$s-tables/allgather.tbl:64" >/dev/null 2>"$out/speed-$s-$th.err"
        rc=$?
        wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
        cycles=$(sed -n 's/.*cycles=\([0-9]*\) .*/\1/p' "$out/speed-$s-$th.err" | tail -1)
        [ $rc -eq 0 ] || { echo "bench-mesh: speed run $s threads=$th failed"; fail=1; }
        rate=$(awk -v c="${cycles:-0}" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0) ? c / w : 0 }')
        printf '%-10s %8s %12s %10.2f %14s\n' "$s torus" $th "${cycles:-?}" "$wall" "$rate"
        [ $first -eq 1 ] || echo "    ," >>"$json"
        first=0
        printf '    {"shape": "%s torus", "threads": %s, "cycles": %s, "wall_s": %s, "cycles_per_s": %s}\n' \
            "$s" $th "${cycles:-0}" "$wall" "$rate" >>"$json"
    done
done
echo "  ]" >>"$json"
echo "}" >>"$json"
echo
echo "bench-mesh: $json; reports and link SVGs in $out/"
exit $fail
