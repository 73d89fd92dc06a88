#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Protected links on the simulated machine (mesh-sim-4x4t-guard: mesh_top GUARD = 1, every
# link a link_guard_tx/rx pair with a link_fault on each wire). With flits damaged at random
# (--flip-rate), every collective is still delivered byte for byte: each damaged flit is
# caught (link-errors = flips) and sent again (retries >= link-errors); the same seed gives
# the same run; without damage the counters stay 0; bad values are refused.
set -u
. tests/lib.sh
. tests/sim/mesh/lib.sh
work="$BUILD/tests/mesh-guarded"
rm -rf "$work"; mkdir -p "$work"
make_or_fail mesh-guarded-build "$work/make.log" mesh-sim-4x4t-guard mesh-sim-4x4m schedgen \
    build/fw/firmware/apps/mesh/collectives.elf || exit 0
gen="$BUILD/bin/schedgen"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
sim="$BUILD/bin/mesh-sim-4x4t-guard"
mesh_want_4x4_torus mesh-guarded-shape

jobs=()
seed=1
for spec in tsay-wang:1024 scatter:256 gather:256 mnb-opt:256 te-a3:256; do
    algo=${spec%%:*}
    if ! "$gen" --shape 4x4 --torus --algo "$algo" --quiet --tables "$work/$algo.tbl" >"$work/gen.log" 2>&1; then
        fail "mesh-guarded: schedgen $algo" "$(tail_of "$work/gen.log")"; exit 0
    fi
    jobs+=(--job "$work/$algo.tbl:${spec##*:}:$seed"); seed=$((seed + 1))
done

# counter NAME FILE: the summary's NAME=value
counter() { grep -o " $1=[0-9]*" "$2" | head -1 | cut -d= -f2; }

# the five runs side by side (each on one core), then their checks
pids=()
for rate in 0 1e-3 1e-2; do
    "$sim" --elf "$elf" "${jobs[@]}" --flip-rate "$rate" --fault-seed 7 --progress 0 >"$work/run-$rate.out" 2>&1 &
    pids+=($!)
done
"$sim" --elf "$elf" "${jobs[@]}" --flip-rate 1e-3 --fault-seed 7 --progress 0 >"$work/again.out" 2>&1 &
again_pid=$!
"$sim" --elf "$elf" "${jobs[@]}" --flip-rate 1e-3 --fault-seed 8 --progress 0 >"$work/other.out" 2>&1 &
other_pid=$!
k=0
for rate in 0 1e-3 1e-2; do
    name="mesh-guarded: five collectives, flits damaged at $rate"
    wait "${pids[$k]}"; rc=$?
    k=$((k + 1))
    ok=$(grep -c '^[0-9] .* OK$' "$work/run-$rate.out")
    e=$(counter link-errors "$work/run-$rate.out"); r=$(counter retries "$work/run-$rate.out")
    f=$(counter flips "$work/run-$rate.out")
    if [ $rc -ne 0 ] || [ "$ok" != 5 ] || [ -z "$e" ]; then
        fail "$name" "exit $rc, $ok of 5 OK: $(tail_of "$work/run-$rate.out")"
    elif [ "$rate" = 0 ] && [ "$e$r$f" = 000 ]; then
        pass "$name: 5 of 5 byte for byte, no errors, no retries"
    elif [ "$rate" != 0 ] && [ "$e" -gt 0 ] && [ "$e" = "$f" ] && [ "$r" -ge "$e" ]; then
        pass "$name: 5 of 5 byte for byte; $f flits damaged, $e caught, $r sent again"
    else fail "$name" "link-errors=$e retries=$r flips=$f"; fi
done

# the same seed, the same run (cycle for cycle and error for error)
wait "$again_pid"
if diff <(grep -v 'cycles/s' "$work/run-1e-3.out"; grep -o 'cycles=[0-9]*.*flips=[0-9]*' "$work/run-1e-3.out") \
        <(grep -v 'cycles/s' "$work/again.out"; grep -o 'cycles=[0-9]*.*flips=[0-9]*' "$work/again.out") >/dev/null; then
    pass "mesh-guarded: --fault-seed 7 twice gives the same run"
else fail "mesh-guarded: repeatable" "two runs with --fault-seed 7 differ"; fi
wait "$other_pid"
if [ "$(counter link-errors "$work/other.out")" != "$(counter link-errors "$work/run-1e-3.out")" ] ||
   [ "$(grep -o 'cycles=[0-9]*' "$work/other.out")" != "$(grep -o 'cycles=[0-9]*' "$work/run-1e-3.out")" ]; then
    pass "mesh-guarded: another seed damages other flits"
else fail "mesh-guarded: seed" "--fault-seed 8 gave the run of seed 7"; fi

# bad values: exit 120, a clear message, nothing written
while IFS='|' read -r bin arg want; do
    mesh_refuses "mesh-guarded: $bin $arg" "$want" "$BUILD/bin/$bin" --elf "$elf" $arg
done <<'BAD'
mesh-sim-4x4t-guard|--flip-rate 1.5|--flip-rate takes a probability per flit, 0 <= P < 1 (e.g. 1e-4), not '1.5'
mesh-sim-4x4t-guard|--flip-rate often|not 'often'
mesh-sim-4x4t-guard|--fault-seed -1|--fault-seed takes a decimal number below 2^32, not '-1'
mesh-sim-4x4m|--flip-rate 1e-3|--flip-rate: this mesh-sim's links are not protected; a model with protected links is make mesh-sim-4x4t-guard
BAD
rm -rf "$work"
