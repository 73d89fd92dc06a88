#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make soak: a long run of the protected network (noc-sim-soak: every link guarded by
# rtl/noc/link_guard_tx/rx) with bit flips on the links, over the 8x8 mesh and the 8x8
# torus and the patterns uniform, transpose, hotspot and storm (every node sending to all
# others in turn), SOAK_PACKETS packets in all (default 10^7, split evenly over the 8 runs),
# each run checked packet by packet by noc-sim (exactly once, intact, in order) with its
# watchdog on. Bit flips: SOAK_FLIP_RATE per flit per link (default 1e-6), and the same
# per reverse word. Writes $BUILD/bench/soak.json: packets, lost, duplicated,
# corrupted_delivered, errors_detected, retries, deadlocks, and per run the same with
# cycles, flits damaged and seconds. Progress on stderr. Exit 1 when any target is missed.
# SOAK_JOBS runs at once (default: the machine's cores; each run is one process).
set -u
BUILD=${BUILD:-build}
sim="${SOAK_SIM:-$BUILD/bin/noc-sim-soak}"
side=${SOAK_SIDE:-8}   # the shapes: SIDExSIDE mesh and torus (another side needs its own build)
packets=${SOAK_PACKETS:-10000000}
rate=${SOAK_FLIP_RATE:-1e-6}
out="$BUILD/bench/soak"
json="$BUILD/bench/soak.json"
mkdir -p "$out"
[ -x "$sim" ] || { echo "soak: $sim missing (make noc-sim-soak)" >&2; exit 1; }

# shape | pattern | offered load (flits/node/cycle, below saturation) | share of the nodes'
# packets that are sent (transpose: the 8 diagonal nodes would send to themselves; hotspot:
# the hotspot node's own share) ; payloads 1..6 flits
runs=(
    "${side}x$side --mesh|uniform|0.25|1" "${side}x$side --mesh|transpose|0.15|0.875" "${side}x$side --mesh|hotspot|0.08|0.996"
    "${side}x$side --mesh|storm|0.25|1"
    "${side}x$side --torus|uniform|0.4|1" "${side}x$side --torus|transpose|0.25|0.875" "${side}x$side --torus|hotspot|0.08|0.996"
    "${side}x$side --torus|storm|0.4|1"
)
per_run=$(( (packets + ${#runs[@]} - 1) / ${#runs[@]} ))
jobs_max=${SOAK_JOBS:-$(nproc 2>/dev/null || echo 1)}   # runs at once (one core each)
echo "soak: $packets packets in ${#runs[@]} runs of $per_run, $jobs_max at a time, bit flips at $rate per flit (noc-sim-soak)" >&2
start=$(date +%s)

# run_one I ENTRY: one run, to the end; its line for the summary in $out/run$I.meta
run_one() {
    local i=$1 entry=$2 shape pattern load share cycles f t0 pid waited line rc t1
    IFS='|' read -r shape pattern load share <<<"$entry"
    # mean worm = 3.5 payload + 2 header flits; packets per cycle = 64 * load / 5.5 * share
    cycles=$(awk -v n="$per_run" -v l="$load" -v s="$share" -v nodes=$((side * side)) 'BEGIN { printf "%d", n / (nodes * l / 5.5 * s) * 1.03 + 1000 }')
    f="$out/run$i.json"
    t0=$(date +%s)
    echo "soak run $i/${#runs[@]}: $shape $pattern load $load, $cycles cycles" >&2
    # shellcheck disable=SC2086
    nice -n 10 "$sim" --shape $shape --pattern "$pattern" --load "$load" --len 1-6 --warmup 0 \
        --cycles "$cycles" --drain 200000 --watchdog 20000 --seed "$i" --fault-seed "$((1000 + i))" \
        --flip-rate "$rate" --expect-packets "$per_run" --json "$f" --label "$shape $pattern" \
        >"$out/run$i.log" 2>&1 &
    pid=$!
    # progress: the simulator's own lines, once a minute
    waited=0
    while kill -0 "$pid" 2>/dev/null; do
        sleep 2
        waited=$((waited + 2))
        [ $((waited % 60)) -eq 0 ] || continue
        line=$(grep 'cycle .*delivered' "$out/run$i.log" | tail -n 1)
        [ -n "$line" ] && echo "  run $i: $line ($(( $(date +%s) - start )) s in all)" >&2
    done
    wait "$pid"
    rc=$?
    t1=$(date +%s)
    grep -E '^(FAILURE|  stuck|links:)|packets delivered' "$out/run$i.log" | head -n 20 | sed "s/^/  run $i: /" >&2
    echo "  run $i: exit $rc, $((t1 - t0)) s" >&2
    [ -s "$f" ] || echo '{"points": [{"packets": 0, "ok": false}]}' >"$f"
    echo "$f|$shape|$pattern|$load|$rc|$((t1 - t0))" >"$out/run$i.meta"
}

i=0
for entry in "${runs[@]}"; do
    i=$((i + 1))
    rm -f "$out/run$i.meta"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
    run_one "$i" "$entry" &
done
wait
files=()
for i in $(seq 1 ${#runs[@]}); do
    if [ -s "$out/run$i.meta" ]; then files+=("$(cat "$out/run$i.meta")")
    else files+=("$out/run$i.json|?|?|0|1|0"); fi
done
seconds=$(( $(date +%s) - start ))

python3 - "$json" "$packets" "$rate" "$seconds" "${files[@]}" <<'PY'
import json, sys
path, target, rate, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
keys = ["packets", "lost", "duplicated", "corrupted_delivered", "errors_detected", "retries", "deadlocks"]
tot = {k: 0 for k in keys}
tot["flits_damaged"] = 0
runs = []
ok = True
for a in sys.argv[5:]:
    f, shape, pattern, load, rc, secs = a.split("|")
    p = json.load(open(f))["points"][0]
    run = {"shape": shape.replace(" --", " "), "pattern": pattern, "load": float(load), "exit": int(rc),
           "seconds": int(secs)}
    for k in keys + ["flits_damaged", "cycles"]:
        run[k] = p.get(k, 0)
    # a run that did not finish (exit != 0 without a result) counts its packets as lost
    run["ok"] = bool(p.get("ok", False)) and int(rc) == 0
    ok = ok and run["ok"]
    for k in keys + ["flits_damaged"]:
        tot[k] += run[k]
    runs.append(run)
res = dict(tot)
res.update({"target_packets": target, "flip_rate_per_flit": rate, "seconds": seconds, "runs": runs})
met = (tot["packets"] >= target and tot["lost"] == 0 and tot["duplicated"] == 0 and tot["corrupted_delivered"] == 0
       and tot["deadlocks"] == 0 and tot["errors_detected"] > 0 and tot["retries"] >= tot["errors_detected"] and ok)
res["targets_met"] = met
with open(path, "w") as fh:
    json.dump(res, fh, indent=2)
    fh.write("\n")
print("soak: %d packets (target %d), lost %d, duplicated %d, corrupted delivered %d, deadlocks %d; "
      "%d flits damaged, %d errors detected, %d flits resent; %d s: %s"
      % (tot["packets"], target, tot["lost"], tot["duplicated"], tot["corrupted_delivered"], tot["deadlocks"],
         tot["flits_damaged"], tot["errors_detected"], tot["retries"], seconds, "targets met" if met else "TARGETS MISSED"))
print("soak: wrote " + path)
sys.exit(0 if met else 1)
PY
