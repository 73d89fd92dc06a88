#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The two-thread model of the 2x2 torus (mesh-sim-2x2t-mt, Verilator --threads 2: the four
# tiles' logic split between two threads) against the one-thread model (mesh-sim-2x2t): the
# same program and the same collectives must give the same machine, cycle for cycle:
# identical consoles, identical results tables (cycles, flits per job) and identical summary
# lines (but for the simulation speed). A threaded model that races shows as a difference.
# test-timeout: 1200
set -u
. tests/sim/mesh/lib.sh
work="$BUILD/tests/sim-mesh-threads"
mkdir -p "$work"
log="$work/make.log"
: >"$log"
# (the 4x4 torus until 2026-11-27: its two-thread model took 150 s of CI to build, the 2x2
# pair about a third of that; make bench-sim still builds and times 4x4t-mt and 8x8t-mt)
one="$BUILD/bin/mesh-sim-2x2t"
two="$BUILD/bin/mesh-sim-2x2t-mt"
sg="$BUILD/bin/schedgen"
make_or_fail mesh-threads-build "$log" mesh-sim-2x2t mesh-sim-2x2t-mt schedgen || exit 1

# same_run NAME ARGS...: runs both models; console (stdout) and summary (stderr) must match
same_run() {
    local name="$1"
    shift
    "$one" "$@" >"$work/$name.one.out" 2>"$work/$name.one.err"; local r1=$?
    "$two" "$@" >"$work/$name.two.out" 2>"$work/$name.two.err"; local r2=$?
    if [ "$r1" -ne 0 ] || [ "$r2" -ne 0 ]; then
        fail "$name" "exit statuses $r1 (one thread) and $r2 (two threads): $(tail_of "$work/$name.two.err" 2)"
    elif ! cmp -s "$work/$name.one.out" "$work/$name.two.out"; then
        fail "$name" "stdout differs between the models: $(diff "$work/$name.one.out" "$work/$name.two.out" | head -n 4 | tr '\n' ' ')"
    elif ! cmp -s <(sed 's/ sim=[0-9]* cycles\/s//' "$work/$name.one.err") <(sed 's/ sim=[0-9]* cycles\/s//' "$work/$name.two.err"); then
        fail "$name" "summary differs: '$(tail -n 1 "$work/$name.one.err")' vs '$(tail -n 1 "$work/$name.two.err")'"
    else
        pass "$name ($(grep -o 'cycles=[0-9]*' "$work/$name.one.err" | head -n 1) on both)"
    fi
}

# (dma_exchange.c ran here too until 2026-11-27: 672,000 cycles, 85 s of the two-thread model
# for engines the collectives below drive as well; test_mesh_sim.sh runs it on the one-thread model)
build_elf tests/sim/mesh/progs/irq_exchange.c mesh-threads-irq "$log" && same_run mesh-threads-irq --elf "$elf" --max-cycles 1000000
if build_elf firmware/apps/mesh/collectives.c mesh-threads-collectives "$log"; then
    jobs=()
    for spec in "tsay-wang:1,1:1024" "scatter:1,0:256" "gather:0,1:256" "mnb-opt:0,0:128" "te-a3:0,0:64"; do
        IFS=: read -r algo root bytes <<<"$spec"
        tbl="$work/$algo.tbl"
        "$sg" --shape 2x2 --torus --algo "$algo" --root "$root" --check --quiet --tables "$tbl" >"$tbl.log" 2>&1 ||
            { fail mesh-threads-collectives "schedgen $algo: $(tail_of "$tbl.log" 1)"; continue; }
        jobs+=(--job "$tbl:$bytes")
    done
    same_run mesh-threads-collectives --elf "$elf" "${jobs[@]}" --max-cycles 20000000
    if [ "$(grep -cE '^[0-9]+ .* OK$' "$work/mesh-threads-collectives.two.out")" -eq 5 ]; then
        pass "mesh-threads-collectives-delivered (5 jobs OK on the two-thread model)"
    else
        fail mesh-threads-collectives-delivered "$(grep -cE '^[0-9]+ .* OK$' "$work/mesh-threads-collectives.two.out") of 5 jobs OK"
    fi
fi
