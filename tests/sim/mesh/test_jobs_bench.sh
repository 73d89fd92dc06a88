#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# mesh-sim's collectives test bench (--job) tested on its own, with an oracle program that
# writes each collective's result from coll_pattern without communicating
# (progs/jobs_oracle.c): the bench must accept the right buffers, and name node, sender and
# step of a corrupted block, a missing block and a stray byte (progs/jobs_oracle_bad.c);
# --job input errors must be refused with a message saying what to do.
set -u
. tests/sim/mesh/lib.sh
sim="$BUILD/bin/mesh-sim"
sg="$BUILD/bin/schedgen"
work="$BUILD/tests/sim-mesh-jobs"
progs=tests/sim/mesh/progs
mkdir -p "$work"

if ! make -s mesh-sim schedgen "$BUILD/fw/$progs/jobs_oracle.elf" "$BUILD/fw/$progs/jobs_oracle_bad.elf" \
        "$BUILD/fw/$progs/jobs_oracle_fast.elf" \
        "$BUILD/fw/$progs/neighbours.elf" >"$work/make.log" 2>&1; then
    echo "FAIL jobs-bench-build: see $work/make.log"
    exit 1
fi
mesh_want_4x4_torus jobs-bench-shape
good="$BUILD/fw/$progs/jobs_oracle.elf"
bad="$BUILD/fw/$progs/jobs_oracle_bad.elf"
fast="$BUILD/fw/$progs/jobs_oracle_fast.elf"
t="$work/tables"
mkdir -p "$t"
gen() {  # gen NAME ALGO ROOT [extra schedgen args]
    local name="$1" algo="$2" root="$3"
    shift 3
    "$sg" --shape 4x4 --torus --algo "$algo" --root "$root" --check --quiet --tables "$t/$name.tbl" "$@" \
        >"$t/$name.log" 2>&1 || { echo "FAIL jobs-bench-tables: schedgen $algo: $(tail -1 "$t/$name.log")"; exit 1; }
}
gen bcast tsay-wang 2,1
gen scatter scatter 1,2
gen gather gather 3,3
gen allgather mnb 0,0
gen alltoall te-a3 0,0
gen pallgather pmnb 0,0 --sources random:5:3
"$sg" --shape 5x5 --torus --algo tsay-wang --root 0,0 --quiet --tables "$t/bcast-5x5.tbl" >/dev/null 2>&1

expect() {  # expect NAME FILE PATTERN WHAT
    if grep -Eq -- "$3" "$work/$1.$2"; then return 0; fi
    echo "FAIL $1: $4 (no /$3/ in $work/$1.$2)"
    return 1
}

# the right buffers pass: six collectives, results table, JSON, SVG
if mesh_run jobs-bench-accepts 0 --elf "$good" --job "$t/bcast.tbl:64" --job "$t/scatter.tbl:128:7" \
       --job "$t/gather.tbl:32" --job "$t/allgather.tbl:256" --job "$t/alltoall.tbl:64:9" \
       --job "$t/pallgather.tbl:100" --report "$work/report.json" --link-svg "$work/links.svg"; then
    rows=$(grep -cE '^[0-5] +[a-z-]+ +[a-z0-9-]+ +[0-9]+ +[0-9]+ +[0-9]+ .* OK$' "$work/jobs-bench-accepts.out")
    if [ "$rows" -eq 6 ]; then echo "PASS jobs-bench-accepts"
    else echo "FAIL jobs-bench-accepts: want 6 OK rows in the results table, got $rows"; fi
    if [ "$(grep -o '"delivered": true' "$work/report.json" | wc -l)" -eq 6 ] &&
       [ "$(grep -o '"ram_port_bound_cycles": [1-9][0-9]*' "$work/report.json" | wc -l)" -eq 6 ] &&
       grep -q '"collective": "partial-allgather"' "$work/report.json"; then echo "PASS jobs-bench-report"
    else echo "FAIL jobs-bench-report: $work/report.json lacks 6 delivered jobs with their RAM-port bounds"; fi
    if grep -q '^<svg' "$work/links.svg" && [ "$(grep -c '<circle' "$work/links.svg")" -eq 96 ]; then
        echo "PASS jobs-bench-svg"
    else echo "FAIL jobs-bench-svg: $work/links.svg is not 6 panels of 16 nodes"; fi
fi

# physics: the oracle with a broken clock (progs/jobs_oracle_fast.c: every job recorded as
# one cycle long). Each job takes fewer cycles than its all-port lower bound and its RAM-port
# bound allow: each fails, named, and the run exits 127
if mesh_run jobs-bench-below-bound 127 --elf "$fast" --job "$t/bcast.tbl:1024" --job "$t/allgather.tbl:256" \
       --report "$work/below.json"; then
    expect jobs-bench-below-bound out 'job 0 \(broadcast 1024 B\): 1 cycles measured, below the all-port lower bound of [0-9.]+ cycles: the bound or the measurement is wrong' \
        "the broadcast's bound violation is not named" &&
    expect jobs-bench-below-bound out 'job 1 \(allgather 256 B\): 1 cycles measured, below the all-port lower bound' \
        "the allgather's bound violation is not named" &&
    expect jobs-bench-below-bound out '^0 +broadcast .*BELOW-BOUND$' "job 0 is not marked BELOW-BOUND" &&
    expect jobs-bench-below-bound err '0 of 2 jobs failed the delivery check, 2 ran below a bound' "stderr does not sum up" &&
    if [ "$(grep -o '"within_bounds": false' "$work/below.json" | wc -l)" -eq 2 ]; then echo "PASS jobs-bench-below-bound"
    else echo "FAIL jobs-bench-below-bound: $work/below.json does not mark both jobs within_bounds false"; fi
fi
# --no-bounds lets the same run through (delivery is still checked)
if mesh_run jobs-bench-no-bounds 0 --elf "$fast" --job "$t/bcast.tbl:1024" --job "$t/allgather.tbl:256" --no-bounds; then
    pass "jobs-bench-no-bounds"
fi

# faults are named: node, sender, step; the run fails with 127
if mesh_run jobs-bench-catches 127 --elf "$bad" --job "$t/allgather.tbl:64" --job "$t/scatter.tbl:128"; then
    expect jobs-bench-catches out 'node \[1,1\]: block 0 corrupted at byte 7 .*from node \[[0-9],[0-9]\] in step [0-9]+' \
        "the corrupted byte of node 5 is not named" &&
    expect jobs-bench-catches out 'node \[2,1\]: block 0 missing \(still poison\), from node \[[0-9],[0-9]\] in step [0-9]+' \
        "the missing block of node 6 is not named" &&
    expect jobs-bench-catches out 'node \[1,2\]: block 15 corrupted at byte 63' \
        "the overwritten last byte of node 9 is not named" &&
    expect jobs-bench-catches out '^0 +allgather .*FAILED$' "job 0 is not marked FAILED" &&
    expect jobs-bench-catches out '^1 +scatter .*OK$' "job 1 (no faults) is not OK" &&
    expect jobs-bench-catches err '1 of 2 jobs failed the delivery check' "stderr does not sum up" &&
    echo "PASS jobs-bench-catches"
fi

# bad input: each refused with 120 and a message that says what to do
if mesh_run jobs-bench-other-shape 120 --elf "$good" --job "$t/bcast-5x5.tbl:64" &&
   expect jobs-bench-other-shape err "was built for a 5x5 torus, but this mesh-sim simulates a 4x4 torus" \
       "no clear shape error"; then echo "PASS jobs-bench-other-shape"; fi
if mesh_run jobs-bench-size 120 --elf "$good" --job "$t/bcast.tbl:6" &&
   expect jobs-bench-size err "message size 6 is not a multiple of 4" "no clear size error"; then
    echo "PASS jobs-bench-size"; fi
if mesh_run jobs-bench-syntax 120 --elf "$good" --job "$t/bcast.tbl" &&
   expect jobs-bench-syntax err "TABLES:BYTES" "no usage hint"; then echo "PASS jobs-bench-syntax"; fi
if mesh_run jobs-bench-model 120 --elf "$good" --job "$t/bcast.tbl:64" --model 1,2 &&
   expect jobs-bench-model err "three numbers A,W,F" "no clear --model error"; then echo "PASS jobs-bench-model"; fi
if mesh_run jobs-bench-missing 120 --elf "$good" --job "$t/nonexistent.tbl:64" &&
   expect jobs-bench-missing err "cannot read the tables file" "no clear missing-file error"; then
    echo "PASS jobs-bench-missing"; fi
head -c 600 "$t/bcast.tbl" >"$t/truncated.tbl"
if mesh_run jobs-bench-damaged 120 --elf "$good" --job "$t/truncated.tbl:64" &&
   expect jobs-bench-damaged err "table of node|not a valid tables file" "no clear damaged-file error"; then
    echo "PASS jobs-bench-damaged"; fi
if mesh_run jobs-bench-no-area 120 --elf "$BUILD/fw/$progs/neighbours.elf" --job "$t/bcast.tbl:64" &&
   expect jobs-bench-no-area err "has no jobs area" "no clear missing-area error"; then
    echo "PASS jobs-bench-no-area"; fi
# nine alltoall tables that differ (their root field) need more than the oracle's 8 KiB
# tables area; nine jobs of one tables file share one copy of it, and fit
many=()
for r in 0,0 1,0 2,0 3,0 0,1 1,1 2,1 3,1 0,2; do
    "$sg" --shape 4x4 --torus --algo te-a3 --root "$r" --quiet --tables "$t/alltoall-$r.tbl" >/dev/null 2>&1
    many+=(--job "$t/alltoall-$r.tbl:64")
done
if mesh_run jobs-bench-area-full 120 --elf "$good" "${many[@]}" &&
   expect jobs-bench-area-full err "need [0-9]+ bytes of tables area, but the program's rvmesh_jobs holds 8192" \
       "no clear area-too-small error"; then echo "PASS jobs-bench-area-full"; fi
shared=()
for i in 1 2 3 4 5 6 7 8 9; do shared+=(--job "$t/alltoall.tbl:64:$i"); done
if mesh_run jobs-bench-area-shared 0 --elf "$good" "${shared[@]}" &&
   [ "$(grep -cE '^[0-8] +alltoall .* OK$' "$work/jobs-bench-area-shared.out")" -eq 9 ]; then
    echo "PASS jobs-bench-area-shared (9 jobs of one tables file in an 8 KiB tables area: one copy)"
else
    [ -s "$work/jobs-bench-area-shared.out" ] && echo "FAIL jobs-bench-area-shared: $(grep -cE 'OK$' "$work/jobs-bench-area-shared.out") of 9 OK"
fi
