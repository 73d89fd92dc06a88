#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-coll: every collective, every schedule we have for it and the baselines a user
# would otherwise write, on the 4x4 torus, the 8x8 torus and the 8x8 mesh, at block sizes
# doubling from 16 bytes to the largest that fits a node (the program refuses the rest, and
# the table says so). As the OSU micro-benchmarks do: per size a warmup call, then the timed
# call; only the call is timed (every node released in the same cycle once its plan is
# compiled, to the last node's completion); delivery checked byte for byte on every node by
# mesh-sim (and by the program itself).
#
# Results: a table per shape on stdout; $(BUILD)/bench/coll.json (a list `runs`: shape,
# collective, algorithm, role, block_bytes, cycles, bound_cycles, efficiency, setup_cycles,
# first_call_cycles, delivery; `not_fitting`; the cost model refitted on the 16-byte runs;
# the targets of issue 11); $(BUILD)/bench/coll.svg, efficiency against block size per
# collective and shape, the baselines dashed; per-run reports in $(BUILD)/bench/coll/.
#
# Environment: BUILD; BENCH_COLL_SHAPES (default "4x4t 8x8t 8x8m"); BENCH_COLL_MAX (largest
# block tried, bytes; default 65536); BENCH_COLL_ONLY (collectives, default all five);
# BENCH_COLL_REUSE=1 measures nothing and writes the JSON, fit and picture again from the
# rows of the last run ($(BUILD)/bench/coll/rows.tsv); BENCH_COLL_OUT (folder of the
# results instead of $(BUILD)/bench: the test of this script uses its own).
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
dest="${BENCH_COLL_OUT:-$BUILD/bench}"
out="$dest/coll"
json="$dest/coll.json"
svg="$dest/coll.svg"
reuse="${BENCH_COLL_REUSE:-0}"
[ "$reuse" = 1 ] || rm -rf "$out"
mkdir -p "$out"
shapes="${BENCH_COLL_SHAPES:-4x4t 8x8t 8x8m}"
max="${BENCH_COLL_MAX:-65536}"
only="${BENCH_COLL_ONLY:-bcast scatter gather allgather alltoall}"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
sg="$BUILD/bin/schedgen"
fail=0

need=("$elf" schedgen)
for s in $shapes; do need+=("mesh-sim-$s"); done
if [ "$reuse" != 1 ]; then
    echo "bench-coll: building ${need[*]} (an 8x8 model takes a minute or two)"
    make -s "${need[@]}" || exit 1
fi

# the schedules of each shape: collective:algorithm[:chunks]:role. role: "seed" (the papers'
# schedules), "ours" (found here), "baseline" (what a user would otherwise write)
algos_for() {  # algos_for KIND
    local bc=tsay-wang
    [ "$1" = mesh ] && bc=cang-wu
    local ag="mnb-opt:1:ours mnb-diag:1:seed"
    [ "$1" = mesh ] && ag="mnb-diag:1:seed"
    echo "bcast:$bc:1:seed bcast:bcast-edst:1:ours bcast:bcast-edst:8:ours bcast:bcast-edst:32:ours bcast:bcast-binomial:1:baseline"
    echo "scatter:scatter:1:seed gather:gather:1:seed"
    for a in $ag; do echo "allgather:$a"; done
    echo "allgather:mnb:1:seed allgather:allgather-ring:1:baseline"
    echo "alltoall:te-a3:1:seed alltoall:alltoall-pairwise:1:baseline"
}

rows="$out/rows.tsv"     # shape coll algo role bytes cycles bound eff setup first delivery steps
refused="$out/refused.tsv"
if [ "$reuse" = 1 ]; then
    [ -s "$rows" ] || { echo "bench-coll: BENCH_COLL_REUSE=1 but no $rows: run make bench-coll first"; exit 1; }
    shapes=$(cut -f1 "$rows" | awk '!seen[$0]++' | tr '\n' ' ')
else
    : >"$rows"
    : >"$refused"
fi

# measure SIZES...: one mesh-sim run of $tbl at these block sizes, rows appended; sets
# measured: ok (go on), stop (a size did not fit, or failed), area (tables too big for one run)
measure() {
    local list=("$@") i m why line jobs=() rc
    for m in "${list[@]}"; do jobs+=(--job "$tbl:$m:$m" --job "$tbl:$m:$((m + 1))"); done
    "$sim" --elf "$elf" "${jobs[@]}" --report "$run.json" --max-cycles 2000000000 --progress 0 \
        >"$run.out" 2>"$run.err"
    rc=$?
    if [ $rc -eq 120 ] && grep -q "tables area" "$run.err"; then
        if [ ${#list[@]} -gt 1 ]; then measured=area; return; fi
        printf '%-10s %-22s %-8s %7s %9s  skipped: %s\n' "$coll" "$label" "$role" "${list[0]}" - "$(grep -m 1 -o 'need [0-9]* bytes of tables area' "$run.err")"
        fail=1; measured=stop; return
    fi
    if [ ! -s "$run.json" ]; then
        echo "bench-coll: $s $coll $label: mesh-sim exit $rc, no report (see $run.out, $run.err)"
        fail=1; measured=stop; return
    fi
    measured=ok
    for ((i = 0; i < ${#list[@]}; i++)); do
        m=${list[$i]}
        # refused for lack of room on some node (-6 send buffer, -7 result buffer, -8
        # workspace: coll.h), the others then time out waiting for it
        why=$(grep -m 1 -o "mesh-sim: job $((2 * i)) ([a-z-]* $m B): node \[[0-9,]*\]: the collective returned -[678]" "$run.out" |
              sed 's/.*node \[\([0-9,]*\)\].*returned -6/send buffer too small on node \1/;
                   s/.*node \[\([0-9,]*\)\].*returned -7/result buffer too small on node \1/;
                   s/.*node \[\([0-9,]*\)\].*returned -8/workspace too small on node \1/')
        # mesh-sim lists a few nodes' problems only: the refusing node's console says it too
        # (the sizes go up, so the first job not delivered is the first one refused)
        if [ -z "$why" ] && ! grep -q "^$((2 * i + 1)) .* OK$" "$run.out"; then
            why=$(grep -m 1 -o '^\[[0-9,]*\] node ([0-9,]*): coll_plan_init: .*(\(send buffer\|result buffer\|workspace\) too small)$' "$run.out" |
                  sed 's/^\[[0-9,]*\] node (\([0-9,]*\)): .*(\(.*\))$/\2 on node \1/')
        fi
        if [ -n "$why" ]; then
            printf '%-10s %-22s %-8s %7s %9s  does not fit: %s\n' "$coll" "$label" "$role" "$m" - "$why"
            printf '%s\t%s\t%s\t%s\t%s\n' "$s" "$coll" "$label" "$m" "$why" >>"$refused"
            measured=stop; return
        fi
        # the timed job (2i + 1) and the warmup's compile + run (2i: the first call)
        line=$(awk -v s="$s" -v c="$coll" -v a="$label" -v r="$role" -v w="\"job\": $((2 * i))," -v t="\"job\": $((2 * i + 1)),"  '
            function num(k,   v) { match($0, "\"" k "\": [0-9.]*"); v = substr($0, RSTART, RLENGTH); sub(/^.*: /, "", v); return v + 0 }
            index($0, w) { first = num("setup_cycles") + num("cycles"); wok = ($0 ~ /"delivered": true/) }
            index($0, t) { cyc = num("cycles"); bnd = num("lower_bound_cycles"); setup = num("setup_cycles")
                           steps = num("steps"); m = num("bytes"); ok = ($0 ~ /"delivered": true/) && ($0 ~ /"within_bounds": true/); got = 1 }
            END { if (!got) exit 1
                  printf "%s\t%s\t%s\t%s\t%d\t%d\t%.1f\t%.4f\t%d\t%d\t%s\t%d\n", s, c, a, r, m, cyc, bnd,
                         (cyc > 0 ? bnd / cyc : 0), setup, first, ((ok && wok) ? "OK" : "FAILED"), steps }' "$run.json")
        if [ -z "$line" ]; then
            echo "bench-coll: $s $coll $label $m B: not in the report (mesh-sim exit $rc; see $run.out, $run.err)"
            fail=1; measured=stop; return
        fi
        echo "$line" >>"$rows"
        IFS=$'\t' read -r _ _ _ _ _ cyc bnd eff setup first deliv _ <<<"$line"
        printf '%-10s %-22s %-8s %7s %9s %9.0f %6.1f%% %9s %10s  %s\n' "$coll" "$label" "$role" "$m" "$cyc" "$bnd" \
            "$(awk -v e="$eff" 'BEGIN { print 100 * e }')" "$setup" "$first" "$deliv"
        if [ "$deliv" != OK ]; then
            echo "bench-coll: $s $coll $label $m B: delivery FAILED (see $run.out, $run.err)"
            fail=1
        fi
    done
}

for s in $shapes; do
    [ "$reuse" = 1 ] && break
    dims=${s%[tm]}; kind=torus; [ "${s: -1}" = m ] && kind=mesh
    x=${dims%x*}; y=${dims#*x}; n=$((x * y))
    root="$(( (x - 1) / 2 )),$(( (y - 1) / 2 ))"
    sim="$BUILD/bin/mesh-sim-$s"
    echo
    echo "== $dims $kind, $n nodes, root $root: cycles of the timed call (warmup discarded)"
    echo "   (bound and eff: mesh-sim's, by the schedule; coll.json bounds every broadcast by the cut-message bound)"
    printf '%-10s %-22s %-8s %7s %9s %9s %7s %9s %10s  %s\n' collective algorithm role bytes cycles bound eff setup first-call delivery
    for spec in $(algos_for $kind); do
        IFS=: read -r coll algo chunks role <<<"$spec"
        case " $only " in *" $coll "*) ;; *) continue ;; esac
        label=$algo; [ "$chunks" != 1 ] && label="$algo:$chunks"
        tbl="$out/$s-$coll-$algo-$chunks.tbl"
        extra=(); [ "$chunks" != 1 ] && extra=(--chunks "$chunks")
        if ! "$sg" --shape "$dims" --$kind --algo "$algo" --root "$root" "${extra[@]}" --check --quiet \
                --tables "$tbl" >"$tbl.log" 2>&1; then
            echo "bench-coll: schedgen $algo $dims $kind: $(tail -n 1 "$tbl.log")"; fail=1; continue
        fi
        # sizes: 16 B doubling to BENCH_COLL_MAX; a split schedule (bcast-edst) takes multiples
        # of 4 x its parts only (mesh-sim says how many: the smaller sizes are left out)
        sizes=()
        for ((m = 16; m <= max; m *= 2)); do sizes+=("$m"); done
        run="$out/$s-$coll-${label//:/-}"
        "$sim" --elf "$elf" --job "$tbl:16" --report /dev/null --max-cycles 1 >"$run.probe" 2>&1
        unit=$(grep -o 'is not a multiple of [0-9]*' "$run.probe" | grep -o '[0-9]*$')
        if [ -n "$unit" ]; then
            kept=(); for m in "${sizes[@]}"; do [ $((m % unit)) -eq 0 ] && kept+=("$m"); done
            sizes=("${kept[@]}")
        fi
        # a result larger than a node's RAM is refused by mesh-sim before the run (the program's
        # arena, smaller than the RAM, refuses a smaller size first: nothing measurable is lost)
        ram=$("$sim" --help | grep -o '[0-9]* bytes of RAM' | grep -o '^[0-9]*')
        kept=(); for m in "${sizes[@]}"; do
            case $coll in bcast|scatter) r=$m ;; *) r=$((n * m)) ;; esac
            [ -z "$ram" ] || [ "$r" -le "$ram" ] && kept+=("$m")
        done
        sizes=("${kept[@]}")
        [ ${#sizes[@]} -gt 0 ] || continue    # no size up to BENCH_COLL_MAX cuts into its parts
        # one mesh-sim run for all sizes (per size a warmup job and the timed job, run in
        # order, each released on every node at once); if their tables do not fit the
        # program's jobs area together, a run per size
        measure "${sizes[@]}"
        if [ "$measured" = area ]; then
            for m in "${sizes[@]}"; do
                run="$out/$s-$coll-${label//:/-}-$m"
                measure "$m"
                [ "$measured" = ok ] || break
            done
        fi
    done
done

# the cost model refitted on the timed 16-byte calls: cycles ~ c0 + alpha * steps + gamma *
# worms + beta * flits (worms and flits of the busiest node, summed over steps; c0 the cost
# of a call: start, the start barrier of wormhole plans, completion), least squares
fit=$(cat "$out"/*.json 2>/dev/null | grep '"bytes": 16,' | awk '
    function num(k,   v) { match($0, "\"" k "\": [0-9.]*"); v = substr($0, RSTART, RLENGTH); sub(/^.*: /, "", v); return v + 0 }
    num("job") % 2 == 1 && /"delivered": true/ {
      x[1] = 1; x[2] = num("steps"); x[3] = num("model_busiest_worms"); x[4] = num("model_busiest_flits"); y = num("cycles")
      for (i = 1; i <= 4; i++) { a[i, 5] += x[i] * y; for (j = 1; j <= 4; j++) a[i, j] += x[i] * x[j] }
      n++ }
    END {
      if (n < 5) { print "0 0 0 0 " n; exit }
      for (c = 1; c <= 4; c++) {            # Gauss-Jordan with partial pivoting
        p = c; for (r = c + 1; r <= 4; r++) if ((a[r, c] < 0 ? -a[r, c] : a[r, c]) > (a[p, c] < 0 ? -a[p, c] : a[p, c])) p = r
        for (j = 1; j <= 5; j++) { t = a[c, j]; a[c, j] = a[p, j]; a[p, j] = t }
        if (a[c, c] == 0) { print "0 0 0 0 " n; exit }
        for (r = 1; r <= 4; r++) if (r != c) { f = a[r, c] / a[c, c]; for (j = 1; j <= 5; j++) a[r, j] -= f * a[c, j] }
      }
      printf "%.1f %.1f %.1f %.2f %d\n", a[1, 5] / a[1, 1], a[2, 5] / a[2, 2], a[3, 5] / a[3, 3], a[4, 5] / a[4, 4], n }')
read -r fit_call fit_alpha fit_gamma fit_beta fit_n <<<"$fit"
echo
echo "== cost model refitted to the $fit_n timed 16-byte calls: a call costs $fit_call cycles, a step $fit_alpha, a worm $fit_gamma, a flit of the busiest node $fit_beta"
echo "   (issue 11 targets: a step <= 40, a worm <= 4)"
# one bound per collective, whatever the schedule: mesh-sim bounds an uncut broadcast by
# ceil(log_{2d+1} N) x P (its table cannot cut the message) and a cut one by the root's
# eccentricity + ceil(P / deg) - 1, the all-port bound of a broadcast; every broadcast row
# takes the latter (read off a bcast-edst row of the same shape and size), and its efficiency
awk -F'\t' -v OFS='\t' 'NR == FNR { if ($2 == "bcast" && $3 ~ /^bcast-edst/) lb[$1 SUBSEP $5] = $7; next }
    $2 == "bcast" && (($1 SUBSEP $5) in lb) { $7 = lb[$1 SUBSEP $5]; $8 = sprintf("%.4f", $6 > 0 ? $7 / $6 : 0) }
    { print }' "$rows" "$rows" >"$rows.tmp" && mv "$rows.tmp" "$rows"

# the targets of issue 11, read off the rows
echo
echo "== targets (8x8 torus)"
awk -F'\t' '
    $1 == "8x8t" && $5 >= 1024 { if (!($2 in best) || $8 > best[$2]) { best[$2] = $8; at[$2] = $3 "@" $5 } }
    $1 == "8x8t" && $2 == "bcast" && $5 == 16384 { if ($6 > 0 && (bw == "" || 1032 / $6 > bw)) { bw = 1032 / $6; bwa = $3 } }
    END {
        n = split("bcast scatter gather allgather alltoall", c, " ")
        for (i = 1; i <= n; i++)
            printf "  %-10s best efficiency at >= 1 KiB: %s (%s; target 0.85)\n", c[i], (c[i] in best) ? sprintf("%.3f", best[c[i]]) : "none (no block >= 1 KiB fits)", (c[i] in at) ? at[c[i]] : "-"
        printf "  bcast 16 KiB: %s of the bandwidth bound (4096 flits / 4 ports + diameter 8 = 1032 cycles; %s; target 0.7)\n", bw == "" ? "not measured" : sprintf("%.3f", bw), bwa
    }' "$rows"

# the JSON
{
    echo "{"
    echo "  \"bench\": \"coll\","
    echo "  \"method\": \"per size one mesh-sim run: a warmup call (its plan compile + run is first_call_cycles), then the timed call; cycles = every node released in the same cycle to the last node's completion; bound_cycles = the all-port lower bound of sim/mesh/README.md; efficiency = bound_cycles / cycles; delivery checked byte for byte on every node\","
    echo "  \"runs\": ["
    awk -F'\t' '{ printf "%s    {\"shape\": \"%s\", \"collective\": \"%s\", \"algorithm\": \"%s\", \"role\": \"%s\", \"block_bytes\": %d, \"cycles\": %d, \"bound_cycles\": %s, \"efficiency\": %s, \"setup_cycles\": %d, \"first_call_cycles\": %d, \"steps\": %d, \"delivery\": \"%s\"}", (NR > 1 ? ",\n" : ""), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $12, $11 } END { print "" }' "$rows"
    echo "  ],"
    echo "  \"not_fitting\": ["
    awk -F'\t' '{ gsub(/"/, "", $5); printf "%s    {\"shape\": \"%s\", \"collective\": \"%s\", \"algorithm\": \"%s\", \"block_bytes\": %d, \"why\": \"%s\"}", (NR > 1 ? ",\n" : ""), $1, $2, $3, $4, $5 } END { print "" }' "$refused"
    echo "  ],"
    echo "  \"model_fit\": {\"call\": ${fit_call:-0}, \"alpha\": ${fit_alpha:-0}, \"gamma\": ${fit_gamma:-0}, \"beta\": ${fit_beta:-0}, \"jobs\": ${fit_n:-0}, \"blocks\": 16}"
    echo "}"
} >"$json"

# the picture: one panel per (shape, collective), efficiency (0..1) against log2 block size
awk -F'\t' -v shapes="$shapes" '
    BEGIN { nc = split("bcast scatter gather allgather alltoall", cols, " "); ns = split(shapes, rowsn, " ")
            pw = 260; ph = 190; ml = 40; mt = 40; gap = 30
            palette = "#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e #8c564b #e377c2 #17becf"; split(palette, pal, " ") }
    { key = $1 SUBSEP $2; series = key SUBSEP $3
      if (!(series in seen)) { seen[series] = 1; order[key] = order[key] "|" $3; role[series] = $4 }
      pts[series] = pts[series] " " $5 ":" $8 }
    function xpos(b) { return log(b / 16) / log(2) }
    END {
        W = ml + nc * (pw + gap); H = mt + ns * (ph + gap) + 10
        printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, H
        printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
        printf "<text x=\"%d\" y=\"18\" font-size=\"14\">rvmesh collectives: efficiency (all-port bound / cycles) against block size; baselines dashed</text>\n", ml
        for (r = 1; r <= ns; r++) for (c = 1; c <= nc; c++) {
            x0 = ml + (c - 1) * (pw + gap); y0 = mt + (r - 1) * (ph + gap)
            printf "<g><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n", x0, y0, pw, ph
            printf "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s %s</text>\n", x0 + 4, y0 + 12, rowsn[r], cols[c]
            for (t = 0; t <= 4; t++) printf "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#666\">%.2f</text><line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#eee\"/>\n", x0 - 2, y0 + ph - t * ph / 4 + 4, t / 4, x0, x0 + pw, y0 + ph - t * ph / 4, y0 + ph - t * ph / 4
            for (t = 0; t <= 12; t += 2) printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#666\">%s</text>\n", x0 + t * pw / 12, y0 + ph + 12, ((16 * 2 ^ t >= 1024) ? (16 * 2 ^ t / 1024) "K" : 16 * 2 ^ t)
            key = rowsn[r] SUBSEP cols[c]; k = split(substr(order[key], 2), names, "|")
            for (i = 1; i <= k; i++) {
                series = key SUBSEP names[i]; np = split(substr(pts[series], 2), p, " "); path = ""
                for (j = 1; j <= np; j++) { split(p[j], bv, ":"); px = x0 + xpos(bv[1]) * pw / 12; py = y0 + ph - (bv[2] > 1 ? 1 : bv[2]) * ph
                    path = path sprintf("%s%.1f,%.1f ", j == 1 ? "M" : "L", px, py) }
                dash = role[series] == "baseline" ? " stroke-dasharray=\"5,3\"" : ""
                printf "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s/>\n", path, pal[i], dash
                printf "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n", x0 + 6, y0 + 26 + 12 * (i - 1), pal[i], names[i] (role[series] == "baseline" ? " (baseline)" : "")
            }
            printf "</g>\n"
        }
        print "</svg>"
    }' "$rows" >"$svg"

echo
echo "bench-coll: $json, $svg; per-run reports in $out/"
exit $fail
