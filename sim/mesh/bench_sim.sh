#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-sim: how fast mesh-sim simulates the machine, 2x2 to 16x16 tori, on one and on
# two Verilator threads, running the collectives firmware (firmware/apps/mesh/collectives.c:
# boot, an allgather of 16-byte blocks by the mnb-opt schedule, its byte-for-byte check, exit)
# from reset to the last node's exit.
#
# Per run: machine cycles per second of wall time (cycles_per_s) and times the nodes
# (node_cycles_per_s), also per second of CPU time (user + system: a figure the other
# processes of a shared machine disturb less; the load average is recorded beside), and
# build_s: the wall-clock seconds of the binary's last build (sim/mesh/mesh.mk writes them).
# Results: a table, $(BUILD)/bench/sim.json (list `runs`) and sim.svg (node-cycles/s against
# nodes). The target of issue 14: the 8x8 torus at 1,000,000 node-cycles/s or more with its
# best thread count.
#
# Environment: BUILD; BENCH_SIM_SHAPES (default "2x2 4x4 8x8 16x16"); BENCH_SIM_THREADS
# (default "1 2 pgo"; two threads are built for 4x4 and up; pgo: one thread, the C++ built
# with a training run's profile, sim/mesh/mesh.mk, for 8x8 and 16x16); BENCH_SIM_SKIP: variants left out
# (neither built nor run), e.g. "8x8t-mt 16x16t-mt" (the two-thread models do not share
# their tiles' code: 8x8t-mt takes far longer to build than 8x8t).
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
shapes="${BENCH_SIM_SHAPES:-2x2 4x4 8x8 16x16}"
threads="${BENCH_SIM_THREADS:-1 2 pgo}"
skip=" ${BENCH_SIM_SKIP:-} "
out="$BUILD/bench/sim"
json="$BUILD/bench/sim.json"
svg="$BUILD/bench/sim.svg"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
sg="$BUILD/bin/schedgen"
mkdir -p "$out"

variant() {   # variant SHAPE THREADS -> the mesh-sim variant name, or nothing
    local v=
    if [ "$2" = 1 ]; then v="${1}t"; elif [ "$2" = 2 ] && [ "$1" != 2x2 ]; then v="${1}t-mt"
    elif [ "$2" = pgo ] && { [ "$1" = 8x8 ] || [ "$1" = 16x16 ]; }; then v="${1}t-pgo"; fi
    [ -n "$v" ] && [ "${skip/ $v /}" = "$skip" ] && echo "$v"
}
targets=(schedgen "$elf")
for s in $shapes; do for t in $threads; do v=$(variant "$s" "$t"); [ -n "$v" ] && targets+=("mesh-sim-$v"); done; done
echo "bench-sim: building ${targets[*]} (a 16x16 model takes several minutes)"
make -s "${targets[@]}" || exit 1

cpus=$(nproc)
printf '%-8s %5s %7s %9s %8s %8s %11s %13s %17s %8s %6s\n' shape nodes build cycles wall_s cpu_s cycles/s \
    node-cycles/s node-cycles/cpu-s build_s load
runs=()
fail=0
for s in $shapes; do
    x=${s%x*}; y=${s#*x}; n=$((x * y))
    root="$(( (x - 1) / 2 )),$(( y / 2 ))"
    tbl="$out/$s.tbl"
    if ! "$sg" --shape "$s" --torus --algo mnb-opt --root "$root" --check --quiet --tables "$tbl" >"$tbl.log" 2>&1; then
        echo "bench-sim: schedgen mnb-opt on the $s torus failed: $(tail -n 1 "$tbl.log")"
        fail=1
        continue
    fi
    for t in $threads; do
        v=$(variant "$s" "$t")
        [ -n "$v" ] || continue
        bin="$BUILD/bin/mesh-sim-$v"
        load=$(cut -d' ' -f1 /proc/loadavg)
        TIMEFORMAT='%R %U %S'
        { time "$bin" --elf "$elf" --job "$tbl:16" --progress 0 >"$out/$v.out" 2>"$out/$v.err"; } 2>"$out/$v.time"
        rc=$(grep -o 'exit=[0-9]*' "$out/$v.err" | tail -n 1 | cut -d= -f2)
        cycles=$(grep -o 'cycles=[0-9]*' "$out/$v.err" | tail -n 1 | cut -d= -f2)
        if [ "$rc" != 0 ] || [ -z "$cycles" ] || ! grep -qE '^0 .* OK$' "$out/$v.out"; then
            echo "bench-sim: $v: the run failed (exit ${rc:-?}): $(tail -n 1 "$out/$v.err")"
            fail=1
            continue
        fi
        read -r wall user sys <"$out/$v.time"
        build_ms=0; build_load=0
        [ -f "$BUILD/mesh-sim-$v/build.time" ] && read -r build_ms build_load <"$BUILD/mesh-sim-$v/build.time"
        row=$(awk -v c="$cycles" -v w="$wall" -v u="$user" -v sy="$sys" -v n="$n" -v b="$build_ms" \
            'BEGIN { cpu = u + sy; printf "%.2f %.2f %.0f %.0f %.0f %.1f", w, cpu, c / w, c * n / w, c * n / cpu, b / 1000 }')
        read -r wall_s cpu_s cps ncps ncpcpu build_s <<<"$row"
        nt=${t/pgo/1}; build=$([ "$t" = pgo ] && echo pgo || echo plain)
        printf '%-8s %5d %7s %9d %8s %8s %11s %13s %17s %8s %6s\n' "${s}t" "$n" "$t" "$cycles" "$wall_s" "$cpu_s" \
            "$cps" "$ncps" "$ncpcpu" "$build_s" "$load"
        runs+=("{\"shape\": \"${s}t\", \"nodes\": $n, \"threads\": $nt, \"build\": \"$build\", \"cycles\": $cycles, \"wall_s\": $wall_s, \"cpu_s\": $cpu_s, \"cycles_per_s\": $cps, \"node_cycles_per_s\": $ncps, \"cycles_per_cpu_s\": $(awk -v c="$cycles" -v p="$cpu_s" 'BEGIN{printf "%.0f", c / p}'), \"node_cycles_per_cpu_s\": $ncpcpu, \"build_s\": $build_s, \"build_load_avg\": ${build_load:-0}, \"load_avg\": $load}")
    done
done

{
    echo "{"
    echo "  \"bench\": \"sim\","
    echo "  \"method\": \"mesh-sim-<shape>t (one Verilator thread), -mt (two) and -pgo (one, the C++ built with the profile of a training run: a 1 KiB saf-bcast broadcast, not this job) run collectives.elf with one allgather job (mnb-opt, 16-byte blocks) from reset to the last node's exit; cycles_per_s = machine cycles / wall-clock seconds, node_cycles_per_s = that times the nodes; *_per_cpu_s the same per second of user+system CPU time; build_s = wall-clock seconds of the binary's last build (build_load_avg: the load average when it ended); load_avg: the 1-minute load average when the run started, on a machine of $cpus cores\","
    echo "  \"target\": {\"shape\": \"8x8t\", \"node_cycles_per_s\": 1000000},"
    echo "  \"runs\": ["
    for i in "${!runs[@]}"; do
        sep=,; [ "$i" -eq $(( ${#runs[@]} - 1 )) ] && sep=
        echo "    ${runs[$i]}$sep"
    done
    echo "  ]"
    echo "}"
} >"$json"

# the picture: node-cycles per second (wall clock) against nodes, a line per thread count
{
    printf '%s\n' "${runs[@]}" | sed -e 's/[{}",:]/ /g' | awk '
    { for (i = 1; i < NF; i++) v[$i] = $(i + 1); n = v["nodes"]; t = v["threads"]
      if (v["build"] == "pgo") t = "pgo"
      r[t, n] = v["node_cycles_per_s"]; c[t, n] = v["node_cycles_per_cpu_s"]; th[t] = 1; nd[n] = 1
      if (v["node_cycles_per_s"] > top) top = v["node_cycles_per_s"]; if (v["node_cycles_per_cpu_s"] > top) top = v["node_cycles_per_cpu_s"] }
    END {
      if (top < 1200000) top = 1200000; top = top * 1.1
      W = 640; H = 400; L = 80; R = 20; T = 40; B = 50
      print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" W "\" height=\"" H "\" font-family=\"sans-serif\" font-size=\"12\">"
      print "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
      print "<text x=\"" W / 2 "\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">mesh-sim: node-cycles per second (collectives firmware)</text>"
      for (k = 0; k <= 5; k++) { y = T + (H - T - B) * (1 - k / 5); val = top * k / 5
        printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2fM</text>\n", L, W - R, y, y, L - 6, y + 4, val / 1e6 }
      lo = 1; hi = 9  # log2 of nodes: 2..512
      for (n in nd) { x = L + (W - L - R) * (log(n) / log(2) - lo) / (hi - lo)
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x, H - B + 18, n }
      print "<text x=\"" (L + W - R) / 2 "\" y=\"" H - 10 "\" text-anchor=\"middle\">nodes (2x2 .. 16x16 torus)</text>"
      yt = T + (H - T - B) * (1 - 1000000 / top)
      printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" stroke-dasharray=\"6 4\"/><text x=\"%d\" y=\"%.1f\" fill=\"#c00\">target: 8x8 at 1M</text>\n", L, W - R, yt, yt, L + 6, yt - 5
      split("#1f77b4 #ff7f0e #2ca02c", col, " ")
      k = 0
      for (t in th) { k++
        for (pass = 0; pass < 2; pass++) {
          path = ""; m = 0
          for (n in nd) { m++; ns[m] = n + 0 }
          for (i = 2; i <= m; i++) for (j = i; j > 1 && ns[j - 1] > ns[j]; j--) { z = ns[j]; ns[j] = ns[j - 1]; ns[j - 1] = z }
          for (i = 1; i <= m; i++) { n = ns[i]; if (!((t, n) in r)) continue
            val = pass ? c[t, n] : r[t, n]
            x = L + (W - L - R) * (log(n) / log(2) - lo) / (hi - lo); y = T + (H - T - B) * (1 - val / top)
            path = path (path == "" ? "M" : "L") sprintf("%.1f,%.1f", x, y)
            printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", x, y, col[k]
            if (!pass) printf "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">%.0fk</text>\n", x + 5, y - 5, col[k], val / 1000 }
          printf "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", path, col[k], pass ? " stroke-dasharray=\"3 3\"" : "" }
        printf "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s: wall clock (solid), per CPU second (dotted)</text>\n", L + 10, T + 14 * k, col[k], (t == "pgo" ? "1 thread, profile-guided build" : t " thread" (t > 1 ? "s" : "")) }
      print "</svg>" }'
} >"$svg"
echo "bench-sim: $json, $svg"
exit $fail
