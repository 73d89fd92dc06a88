#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, issue 5: schedgen runs and checks the new algorithms, takes --sources for
# the partial ones, and refuses bad input with a clear message and exit status 2.
set -u
. "$(dirname "$0")/coll_lib.sh"
if make -s schedgen >"$coll_tmp/gen.log" 2>&1; then echo "PASS sched-coll: schedgen builds"
else echo "FAIL sched-coll: schedgen build: $(tail -n 3 "$coll_tmp/gen.log" | tr '\n' ' ')"; exit 1; fi
gen="$BUILD/bin/schedgen"
ok() {  # name, expected text in stdout, args...
    local name="$1" want="$2"; shift 2
    if "$gen" "$@" --check >"$coll_tmp/out" 2>&1 && grep -q -- "$want" "$coll_tmp/out"; then echo "PASS schedgen $name"
    else echo "FAIL schedgen $name: $(head -c 300 "$coll_tmp/out" | tr '\n' ' ')"; fi
}
ok "mnb 8x8 torus: 32 slots, checked" "check: PASS steps 32 " --shape 8x8 --torus --algo mnb
ok "mnb-split 8x8 torus: 32 mini-slots = 16 = lower bound" "check: PASS steps 32 " --shape 8x8 --torus --algo mnb-split
ok "mnb-diag 8x8 torus: 18 slots" "check: PASS steps 18 " --shape 8x8 --torus --algo mnb-diag
ok "te-a3 12x12 torus: 216 slots (thesis)" "check: PASS steps 216 " --shape 12x12 --torus --algo te-a3
ok "te-a2 4x8 torus: 48 slots" "check: PASS steps 48 " --shape 4x8 --torus --algo te-a2
ok "te-oneport 8x8 torus: 256 slots = s_G" "check: PASS steps 256 " --shape 8x8 --torus --algo te-oneport
ok "pmnb with a node list" "check: PASS" --shape 5x5 --mesh --algo pmnb --sources 0,6,12,24
ok "pmnb-split with random:M:SEED" "check: PASS" --shape 4x4x4 --torus --algo pmnb-split --sources random:20:5
ok "pe with random sources" "check: PASS" --shape 6x6 --mesh --algo pe --sources random:9:2
ok "pmnb prints M and its bounds" "9 sources: digest bound" --shape 6x6 --torus --algo pmnb --sources random:9
bad() {  # name, expected text, args...
    local name="$1" want="$2"; shift 2
    "$gen" "$@" >"$coll_tmp/out" 2>"$coll_tmp/err"; local rc=$?
    if [ "$rc" -eq 2 ] && grep -q -- "$want" "$coll_tmp/err"; then echo "PASS schedgen refuses $name"
    else echo "FAIL schedgen refuses $name: exit $rc, stderr: $(head -c 200 "$coll_tmp/err")"; fi
}
bad "pmnb without --sources" "needs a source set" --shape 4x4 --torus --algo pmnb
bad "a source outside the shape" "node ids 0 .. 15" --shape 4x4 --torus --algo pmnb --sources 3,16
bad "a source given twice" "given twice" --shape 4x4 --torus --algo pmnb --sources 3,3
bad "random:0" "M must be" --shape 4x4 --torus --algo pmnb --sources random:0
bad "--sources with mnb" "applies to pmnb" --shape 4x4 --torus --algo mnb --sources 1,2
bad "mnb on unequal sides" "all sides equal" --shape 4x6 --torus --algo mnb
bad "te-a3 on a non-square shape" "n x n" --shape 4x6 --torus --algo te-a3
bad "te-oneport on a mesh" "needs a torus" --shape 4x4 --mesh --algo te-oneport
bad "pe on a torus" "2-D meshes" --shape 4x4 --torus --algo pe --sources 1,2
# Dump, tables and SVG of an alltoall schedule: piece numbers, relays marked, tables valid.
if "$gen" --shape 4x4 --torus --algo te-a3 --quiet --dump "$coll_tmp/te.txt" --tables "$coll_tmp/te.tbl" --svg "$coll_tmp/te.svg" &&
        [ "$(grep -vc '^#' "$coll_tmp/te.txt")" -eq 512 ] && grep -q '^1 0,0 3,0 0 - 3$' "$coll_tmp/te.txt" &&
        grep -q '^1 0,0 1,0 0 + 2 relay$' "$coll_tmp/te.txt" &&
        "$gen" --shape 4x4 --torus --verify-tables "$coll_tmp/te.tbl" >/dev/null && grep -q '</svg>' "$coll_tmp/te.svg"; then
    echo "PASS schedgen te-a3 4x4: dump (512 hops, piece numbers, relays marked), valid tables, svg"
else echo "FAIL schedgen te-a3 4x4 dump/tables/svg: $(head -c 200 "$coll_tmp/te.txt" | tr '\n' ' ')"; fi
ok "dyn-star 8x8 torus: the STAR rule as an MNB burst passes the checker" "check: PASS steps 22 " --shape 8x8 --torus --algo dyn-star
bad "dyn-star on a mesh" "needs a torus" --shape 8x8 --mesh --algo dyn-star
