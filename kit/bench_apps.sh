#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make bench-apps: the example applications built with the application kit, run on the
# simulated 4x4 and 8x8 tori, each checked by its nodes against the host's reference, and
# the kit's own figures.
#   build/bench/apps.json  {"runs": [{"app", "shape", "size", "steps", "cycles", "comm_cycles",
#                          "comm_share", "result"}]}: cycles = the application's region (named
#                          as the app), from its first node's start to its last node's end on
#                          the machine-wide cycle count (the first program, which has none: the
#                          whole run); comm_cycles = the most cycles a node spent communicating:
#                          the app's region "<app>_comm" when it has one (sort, fft2d, jacobi,
#                          cannon, summa: their own communication only, not the check's), else the
#                          kit's region "comm" (every collective call); result "OK" or the
#                          failure. Runs (app:shape:size:steps, size as each app's Makefile
#                          takes SIZE): the first program of docs/first-program.md on the 4x4
#                          and 8x8 tori and the 8x8 mesh; n-body (bodies), sort (keys), fft2d
#                          (the side of the grid of points), jacobi (the side of the grid;
#                          steps: iterations), cannon and summa (the matrices' side) of
#                          firmware/apps on the 4x4 and 8x8 tori
#   build/bench/kit.json   per shape: the tables a node holds (the largest) and rvm_init's
#                          cycles (the most of any node) with bcast, allgather and alltoall
#                          declared, each collective's first and repeated call (4 B), the
#                          same for a 4-byte allreduce and the barrier ("allreduce_vs_bcast_4b":
#                          allreduce again / bcast again), and repeated allreduces of 1 and
#                          4 KiB with their all-port bound (reduce-scatter + allgather of m/N
#                          blocks: 2 x (N-1) x m/N / (2d x 4 bytes a cycle)) and the ratio
#                          bound / measured ("allreduce": [{"bytes", "again_cycles", "path",
#                          "bound_cycles", "of_bound"}])
#   build/bench/allreduce.json  {"runs": [{"shape", "bytes", "way", "path", "min_cycles",
#                          "avg_cycles", "max_cycles", "bound_cycles", "of_bound",
#                          "others_over_this", "result"}]}: firmware/apps/osu_allreduce (OSU's
#                          osu_allreduce: sizes doubling from 4N elements, a warm-up and timed
#                          calls, min/avg/max over the nodes of each node's mean, every result
#                          checked) on the 4x4 and 8x8 tori; way "apart", "in-place" (the NI's
#                          rings) or "no-rings" (the other paths, rvm_allreduce_rings(0));
#                          others_over_this: the no-rings mean over this way's (times faster)
#   build/bench/reduce.json, build/bench/reduce_scatter.json  the same rows for rvm_reduce (to
#                          node 0; bound as the allreduce's) and rvm_reduce_scatter (bytes: the
#                          whole vector, each node's block 1/N of it; bound: reduce-scatter's,
#                          (N-1) x m/N / (2d x 4 bytes a cycle); no in place), as osu_reduce and
#                          osu_reduce_scatter measure them, from the same program's "all" run
# Per-run reports and consoles in build/bench/apps/. BENCH_APPS_RUNS="app:shape:size:steps ..."
# replaces the runs (default below; empty: none), BENCH_KIT_SHAPES the kit's shapes (4x4t 8x8t;
# empty: none), BENCH_OSU_SHAPES osu_allreduce's (the same); a part left empty leaves its JSON
# files as they were, BENCH_OSU_MAX_BYTES its largest
# vector (16384), BENCH_OSU_INPLACE_MAX_BYTES its largest in place (49152) and BENCH_OSU_ITERS
# its timed calls a size (3),
# BENCH_APPS_OUT the folder of the JSON files (build/bench; tests/firmware/apps uses its own).
set -u
BUILD="${BUILD:-build}"
root=$(pwd)
bench="${BENCH_APPS_OUT:-$BUILD/bench}"
out="$bench/apps"
mkdir -p "$out"
runs="${BENCH_APPS_RUNS-first:4x4t:256:1 first:8x8t:256:1 first:8x8m:256:1 nbody:4x4t:256:3 nbody:8x8t:256:3 nbody:8x8t:512:3
    sort:4x4t:16384:1 sort:4x4t:16384:3 sort:8x8t:65536:1 fft2d:4x4t:64:1 fft2d:8x8t:256:1 jacobi:4x4t:128:20 jacobi:8x8t:256:20
    cannon:4x4t:64:1 cannon:4x4t:128:1 cannon:8x8t:128:1 summa:4x4t:64:1 summa:4x4t:128:1 summa:8x8t:128:1}"
kit_shapes="${BENCH_KIT_SHAPES-4x4t 8x8t}"
osu_shapes="${BENCH_OSU_SHAPES-4x4t 8x8t}"
osu_max="${BENCH_OSU_MAX_BYTES:-16384}"
osu_inplace_max="${BENCH_OSU_INPLACE_MAX_BYTES:-49152}"
osu_iters="${BENCH_OSU_ITERS:-3}"
fail=0

# region FIELD NAME FILE: over the nodes of a report, the region NAME's FIELD: "span" (the last
# node's last - the first node's first) or "max" (the most cycles of one node)
region() {
    awk -v want="$1" -v name="$2" '
        index($0, "{\"node\": ") {
            if (!match($0, "\"name\": \"" name "\", \"calls\": [0-9]+, \"cycles\": [0-9]+, \"first\": [0-9]+, \"last\": [0-9]+")) next
            split(substr($0, RSTART, RLENGTH), f, /[:,] */)
            c = f[6] + 0; a = f[8] + 0; b = f[10] + 0
            if (!seen || a < first) first = a
            if (!seen || b > last) last = b
            if (c > most) most = c
            seen = 1
        }
        END { if (!seen) exit 1; print (want == "span" ? last - first : most) }' "$3"
}

printf '%-8s %-6s %6s %6s %12s %12s %7s  %s\n' app shape size steps cycles comm_cycles comm result
rows=()
for r in $runs; do
    IFS=: read -r app shape size steps <<<"$r"
    dir="$out/$app-$shape-${size}x$steps"
    # "first": the first program (kit/template: a dot product of a 256-element vector, one
    # broadcast and one allgather), as docs/first-program.md runs it; its cycles are the run's
    src="firmware/apps/$app"
    [ "$app" = first ] && src=kit/template
    make -C "$src" --no-print-directory RVMESH="$root" SHAPE="$shape" SIZE="$size" BODIES="$size" STEPS="$steps" \
        OUT="$root/$dir" RUN_ARGS="--progress 0" report >"$dir.log" 2>&1
    rc=$?
    cycles=$(region span "$app" "$dir/report.json" 2>/dev/null ||
             sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$dir/report.json" 2>/dev/null)
    comm=$(region max "${app}_comm" "$dir/report.json" 2>/dev/null || region max comm "$dir/report.json" 2>/dev/null)
    if [ $rc -eq 0 ] && [ -n "$cycles" ] && [ -n "$comm" ]; then
        result=OK
    else
        why=$(grep -m 1 -E '^\[[0-9,]*\] (body|node|[a-z0-9]+: FAILED)|mesh-sim: [^4-8]|make: \*\*\*|^ref: ' "$dir.log" | cut -c1-160)
        result="FAILED: exit $rc${why:+: $why}"
        fail=1
    fi
    share=$(awk -v c="${comm:-0}" -v t="${cycles:-0}" 'BEGIN { printf "%.3f", (t > 0 ? c / t : 0) }')
    printf '%-8s %-6s %6s %6s %12s %12s %6.1f%%  %s\n' "$app" "$shape" "$size" "$steps" "${cycles:--}" "${comm:--}" \
        "$(awk -v s="$share" 'BEGIN { print 100 * s }')" "$result"
    rows+=("$(printf '    {"app": "%s", "shape": "%s", "size": %s, "steps": %s, "cycles": %s, "comm_cycles": %s, "comm_share": %s, "result": "%s"}' \
        "$app" "$shape" "$size" "$steps" "${cycles:-null}" "${comm:-null}" "$share" "$(printf '%s' "$result" | sed 's/\\/\\\\/g; s/"/\\"/g')")")
done
[ -n "$runs" ] && {
    echo '{'
    echo '  "runs": ['
    for ((i = 0; i < ${#rows[@]}; i++)); do
        printf '%s%s\n' "${rows[$i]}" "$([ $i -lt $((${#rows[@]} - 1)) ] && echo ,)"
    done
    echo '  ]'
    echo '}'
} >"$bench/apps.json"

# ---- the kit: tables a node holds, rvm_init, first and repeated calls
echo
printf '%-6s %12s %12s %18s %18s %18s %18s %18s  %s\n' shape tables_max init_max "bcast first/again" \
    "allgather first/again" "alltoall first/again" "allreduce 4B f/a" "barrier first/again" result
krows=()
for shape in $kit_shapes; do
    dir="$out/kit_init-$shape"
    make -C firmware/apps/kit_init --no-print-directory SHAPE="$shape" OUT="$root/$dir" RUN_ARGS="--progress 0" run \
        >"$dir.log" 2>&1
    rc=$?
    tables=$(sed -n 's/^\[[0-9,]*\] kit: init [0-9]* cycles, tables \([0-9]*\) bytes.*/\1/p' "$dir.log" | sort -n | tail -n 1)
    init=$(sed -n 's/^\[[0-9,]*\] kit: init \([0-9]*\) cycles.*/\1/p' "$dir.log" | sort -n | tail -n 1)
    calls=()
    for c in bcast allgather alltoall allreduce barrier; do
        calls+=("$(sed -n "s/^\[0,0\] kit: $c first \([0-9]*\) again \([0-9]*\)$/\1 \2/p" "$dir.log")")
    done
    result=OK
    if [ $rc -ne 0 ] || [ -z "$tables" ] || [ -z "$init" ]; then result="FAILED: exit $rc"; fail=1; fi
    printf '%-6s %12s %12s %18s %18s %18s %18s %18s  %s\n' "$shape" "${tables:--}" "${init:--}" "${calls[0]/ //}" \
        "${calls[1]/ //}" "${calls[2]/ //}" "${calls[3]/ //}" "${calls[4]/ //}" "$result"
    j=""
    for k in 0 1 2 3 4; do
        read -r a b <<<"${calls[$k]}"
        j="$j, \"$(echo bcast allgather alltoall allreduce_4b barrier | cut -d' ' -f$((k + 1)))\": {\"first_cycles\": ${a:-null}, \"again_cycles\": ${b:-null}}"
    done
    read -r _ bc <<<"${calls[0]}"
    read -r _ ar <<<"${calls[3]}"
    ratio=null
    [ -n "$bc" ] && [ -n "$ar" ] && ratio=$(awk -v a="$ar" -v b="$bc" 'BEGIN { printf "%.3f", a / b }')
    j="$j, \"allreduce_vs_bcast_4b\": $ratio"
    # the shape's nodes and links per node: 8x8t -> 64 nodes, 2d = 4
    IFS=x read -r sx sy <<<"${shape%[tm]}"
    nodes=$((sx * sy))
    big=""
    while read -r bytes again path; do
        [ -n "$bytes" ] || continue
        bound=$(awk -v n="$nodes" -v m="$bytes" 'BEGIN { printf "%d", 2 * (n - 1) * (m / n) / (4 * 4) + 0.999 }')
        of=$(awk -v b="$bound" -v a="$again" 'BEGIN { printf "%.3f", b / a }')
        printf '       allreduce %5s B: %7s cycles again (%s), all-port bound %5s: %s of it\n' "$bytes" "$again" "$path" "$bound" "$of"
        big="$big${big:+, }{\"bytes\": $bytes, \"again_cycles\": $again, \"path\": \"$path\", \"bound_cycles\": $bound, \"of_bound\": $of}"
    done < <(sed -n 's/^\[0,0\] kit: allreduce \([0-9]*\) again \([0-9]*\) (\(.*\))$/\1 \2 \3/p' "$dir.log")
    j="$j, \"allreduce\": [$big]"
    krows+=("    {\"shape\": \"$shape\", \"collectives\": \"bcast allgather alltoall\", \"tables_bytes_max\": ${tables:-null}, \"init_cycles_max\": ${init:-null}$j, \"result\": \"$result\"}")
done
[ -n "$kit_shapes" ] && {
    echo '{'
    echo '  "shapes": ['
    for ((i = 0; i < ${#krows[@]}; i++)); do
        printf '%s%s\n' "${krows[$i]}" "$([ $i -lt $((${#krows[@]} - 1)) ] && echo ,)"
    done
    echo '  ]'
    echo '}'
} >"$bench/kit.json"

# ---- rvm_allreduce as OSU's osu_allreduce measures it (firmware/apps/osu_allreduce): per
# size the rings apart, in place, and the other paths (rvm_allreduce_rings(0)), side by side;
# and rvm_reduce (to node 0) and rvm_reduce_scatter as osu_reduce and osu_reduce_scatter do
printf '\n%-18s %-6s %7s %-9s %-19s %9s %9s %9s %7s %9s %9s  %s\n' call shape bytes way path min avg max bound of_bound \
    vs_others result
arows=() rrows=() srows=()
for shape in $osu_shapes; do
    # three runs: the allreduce's three ways up to osu_max (the other paths need count +
    # count/N elements of free RAM), the same for reduce and reduce-scatter (a program of their
    # own: the code of all three leaves too little free RAM for both plans of the allreduce's
    # other path at 4 KiB on the 8x8 torus, which then compiles them at every call), then the
    # allreduce in place alone on to osu_inplace_max in a program with one big buffer
    for run in all reduce inplace; do
        dir="$out/osu_allreduce-$shape-$run"
        if [ $run = all ] || [ $run = reduce ]; then
            sizes="MAX_BYTES=$osu_max INPLACE_MAX_BYTES=$osu_max"
            colls=allreduce
            [ $run = reduce ] && colls="reduce reduce_scatter"
        else
            [ "$osu_inplace_max" -gt "$osu_max" ] || continue
            sizes="MAX_BYTES=0 INPLACE_MAX_BYTES=$osu_inplace_max"
            colls=allreduce
        fi
        # shellcheck disable=SC2086
        make -C firmware/apps/osu_allreduce --no-print-directory SHAPE="$shape" $sizes ITERS="$osu_iters" OUT="$root/$dir" \
            COLLS="$colls" RUN_ARGS="--progress 0" run >"$dir.log" 2>&1
        rc=$?
        [ $rc -eq 0 ] || { echo "osu_allreduce on $shape ($run): exit $rc ($dir.log)"; fail=1; }
        while read -r call bytes way path lo avg hi bound ok; do
            [ $run != inplace ] || [ "$bytes" -gt "$osu_max" ] || continue
            of=$(awk -v b="$bound" -v a="$avg" 'BEGIN { printf "%.3f", b / a }')
            # the other paths' mean over this way's (apart and in place: how many times faster)
            others=$(sed -n "s/^\[0,0\] $call: bytes $bytes way no-rings path [^ ]* min [0-9]* avg \([0-9]*\) .*/\1/p" "$dir.log")
            vs=$(awk -v o="${others:-0}" -v a="$avg" 'BEGIN { if (o > 0) printf "%.2f", o / a; else print "null" }')
            [ "$ok" = ok ] || fail=1
            printf '%-18s %-6s %7s %-9s %-19s %9s %9s %9s %7s %9s %9s  %s\n' "$call" "$shape" "$bytes" "$way" "$path" "$lo" \
                "$avg" "$hi" "$bound" "$of" "$vs" "$ok"
            row="    {\"shape\": \"$shape\", \"bytes\": $bytes, \"way\": \"$way\", \"path\": \"$path\", \"min_cycles\": $lo, \"avg_cycles\": $avg, \"max_cycles\": $hi, \"bound_cycles\": $bound, \"of_bound\": $of, \"others_over_this\": $vs, \"result\": \"$([ "$ok" = ok ] && echo OK || echo FAILED)\"}"
            case $call in
                osu_allreduce) arows+=("$row") ;;
                osu_reduce) rrows+=("$row") ;;
                osu_reduce_scatter) srows+=("$row") ;;
            esac
        done < <(sed -n 's/^\[0,0\] \(osu_[a-z_]*\): bytes \([0-9]*\) way \([^ ]*\) path \([^ ]*\) min \([0-9]*\) avg \([0-9]*\) max \([0-9]*\) bound \([0-9]*\) \([a-zA-Z]*\)$/\1 \2 \3 \4 \5 \6 \7 \8 \9/p' "$dir.log")
    done
done
# json_runs FILE ROWS...: {"runs": [ROWS]} into FILE
json_runs() {
    local file=$1 i
    shift
    {
        echo '{'
        echo '  "runs": ['
        for ((i = 1; i <= $#; i++)); do
            printf '%s%s\n' "${!i}" "$([ $i -lt $# ] && echo ,)"
        done
        echo '  ]'
        echo '}'
    } >"$file"
}
if [ -n "$osu_shapes" ]; then
    json_runs "$bench/allreduce.json" "${arows[@]}"
    json_runs "$bench/reduce.json" "${rrows[@]}"
    json_runs "$bench/reduce_scatter.json" "${srows[@]}"
fi
echo "bench-apps: $bench/apps.json, $bench/kit.json, $bench/allreduce.json, reduce.json, reduce_scatter.json; per-run logs and reports in $out/"
exit $fail
