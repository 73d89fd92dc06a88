#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The tile (core, NI with its DMA engines, router) from a random power-on state: a 3x3x3 torus
# of tiles built with random initial values (mesh-sim-3x3x3t-xrand: Verilator --x-initial
# unique --x-assign unique, every register of every tile random from --x-seed), so a register
# that reset forgets in the core, the NI or the router shows (it found one: the RAM written
# during reset from a random engine state, now gated by reset). Under three seeds the
# interrupt-driven exchange on all ports, under another broadcast, scatter, gather,
# allgather and alltoall from schedgen's tables (payloads by DMA), each checked byte for
# byte by mesh-sim.
# test_coll_shapes.sh runs its 3x3x3 torus jobs on the same model (seed 1).
# test-timeout: 1500
set -u
. tests/sim/mesh/lib.sh
work="$BUILD/tests/tile-xrand"
mkdir -p "$work"
log="$work/make.log"
: >"$log"
sim="$BUILD/bin/mesh-sim-3x3x3t-xrand"
sg="$BUILD/bin/schedgen"
make_or_fail tile-xrand-build "$log" mesh-sim-3x3x3t-xrand schedgen || exit 1
pass tile-xrand-build

# the randomisation reaches the tiles: power-on register values differ per seed
if build_elf tests/sim/node/progs/uninit_regs.S tile-xrand-random "$log"; then
    # four seeds: statuses 0..63 (a harness error is 120 and up), not all the same
    statuses=()
    for s in 1 2 3 4; do
        "$sim" --elf "$elf" --quiet --x-seed "$s" >"$work/random$s.out" 2>&1; statuses+=($?)
    done
    distinct=$(printf '%s\n' "${statuses[@]}" | sort -u | wc -l)
    small=1
    for r in "${statuses[@]}"; do [ "$r" -lt 64 ] || small=0; done
    if [ "$small" -eq 1 ] && [ "$distinct" -ge 2 ]; then
        pass "tile-xrand-random (power-on registers: seeds 1-4 -> ${statuses[*]})"
    else
        fail tile-xrand-random "statuses ${statuses[*]}: want values below 64, not all equal"
    fi
fi

seeds="${XRAND_SEEDS:-2 3 4}"
for prog in irq_exchange; do
    build_elf "tests/sim/mesh/progs/$prog.c" "tile-xrand-$prog" "$log" || continue
    for s in $seeds; do
        run_name="tile-xrand-$prog-seed$s"
        mesh_run "$run_name" 0 --elf "$elf" --x-seed "$s" --max-cycles 5000000 &&
            pass "$run_name (27/27 nodes exited 0)"
    done
done

if build_elf firmware/apps/mesh/collectives.c tile-xrand-collectives "$log"; then
    jobs=()
    for spec in "tsay-wang:1,2,0:1024" "scatter:0,0,0:256" "gather:2,1,2:256" "mnb-diag:0,0,0:128" "te-a2:0,0,0:64"; do
        IFS=: read -r algo root bytes <<<"$spec"
        tbl="$work/$algo.tbl"
        if ! "$sg" --shape 3x3x3 --torus --algo "$algo" --root "$root" --check --quiet --tables "$tbl" >"$tbl.log" 2>&1; then
            fail tile-xrand-collectives "schedgen $algo: $(tail_of "$tbl.log" 1)"
            continue
        fi
        jobs+=(--job "$tbl:$bytes")
    done
    for s in ${XRAND_COLL_SEEDS:-2}; do     # (seed 1: test_coll_shapes.sh's 3x3x3 torus)
        run_name="tile-xrand-collectives-seed$s"
        if mesh_run "$run_name" 0 --elf "$elf" "${jobs[@]}" --x-seed "$s" --max-cycles 20000000; then
            ok=$(grep -cE '^[0-9]+ .* OK$' "$work/$run_name.out")
            if [ "$ok" -eq 5 ]; then pass "$run_name (5 collectives delivered)"
            else fail "$run_name" "$ok of 5 jobs OK ($work/$run_name.out)"; fi
        fi
    done
fi
