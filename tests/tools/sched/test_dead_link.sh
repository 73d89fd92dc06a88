#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedules around dead links (tools/sched/fault, schedgen --dead-link): every -ft algorithm
# proved by the checker with one or two dead cables on meshes and tori, never crossing one;
# the checker rejects a schedule that does; bad --dead-link values and a machine cut in two
# are refused with what to do, and nothing is written.
set -u
. tests/lib.sh
tmp="$BUILD/tests/dead-link.tmp"
rm -rf "$tmp"; mkdir -p "$tmp"
make_or_fail "dead-link: schedgen builds" "$tmp/build.log" schedgen || exit 0
gen="$BUILD/bin/schedgen"

# every -ft algorithm on each shape with its dead links: proved (PASS), and the dump never
# names a hop over a dead cable
while read -r shape kind root dead; do
    args=(); for d in $dead; do args+=(--dead-link "$d"); done
    for algo in bcast-ft scatter-ft gather-ft allgather-ft alltoall-ft; do
        name="dead-link: $algo on the $shape $kind, root $root, dead $dead"
        if "$gen" --shape "$shape" --"$kind" --algo "$algo" --root "$root" "${args[@]}" >"$tmp/out" 2>&1 &&
           grep -q '^check: PASS' "$tmp/out"; then
            pass "$name: proved ($(head -n 1 "$tmp/out" | sed 's/.*: \([0-9]* steps\).*/\1/'))"
        else fail "$name" "$(tail_of "$tmp/out")"; fi
    done
done <<'SHAPES'
4x4 mesh 1,1 1,1:0
4x4 torus 0,0 0,0:2
8x8 torus 1,1 3,3:0
5x3 mesh 0,0 0,0:0 2,1:3
3x3x3 torus 1,1,1 1,1,1:4
SHAPES

# the undamaged machine: the same algorithms, no dead link
if "$gen" --shape 4x4 --torus --algo alltoall-ft --check >"$tmp/out" 2>&1 && grep -q '^check: PASS' "$tmp/out"; then
    pass "dead-link: alltoall-ft with no dead link is a schedule like any other"
else fail "dead-link: alltoall-ft, no dead link" "$(tail_of "$tmp/out")"; fi

# a schedule that crosses a dead link is rejected, naming the link (exit 1)
"$gen" --shape 4x4 --mesh --algo saf-bcast --root 1,1 --dead-link 1,1:0 >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q '^check: FAIL .*(1,1)->(2,1) piece 0: route crosses the dead link (1,1) port 0' "$tmp/out"; then
    pass "dead-link: the checker rejects saf-bcast over the dead link (1,1) port 0, naming the message (exit 1)"
else fail "dead-link: crossing saf-bcast" "exit $rc: $(tail_of "$tmp/out")"; fi
"$gen" --shape 4x4 --torus --algo mnb-opt --dead-link 0,0:2 >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q '^check: FAIL .*message crosses a dead link' "$tmp/out"; then
    pass "dead-link: the allgather checker rejects mnb-opt over a dead link (exit 1)"
else fail "dead-link: crossing mnb-opt" "exit $rc: $(tail_of "$tmp/out")"; fi
# the reverse direction of the cable is dead too
"$gen" --shape 4x4 --mesh --algo saf-bcast --root 2,1 --dead-link 1,1:0 >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q 'route crosses the dead link (2,1) port 1' "$tmp/out"; then
    pass "dead-link: a dead cable is dead both ways ((1,1) port 0 is also (2,1) port 1)"
else fail "dead-link: reverse direction" "exit $rc: $(tail_of "$tmp/out")"; fi

# bad values: exit 2, the reason, no file written
bad() {  # name, expected text, --dead-link value
    rm -f "$tmp/t.tbl"
    "$gen" --shape 4x4 --mesh --algo bcast-ft --tables "$tmp/t.tbl" --dead-link "$3" >"$tmp/out" 2>&1; local rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$2" "$tmp/out" && [ ! -e "$tmp/t.tbl" ]; then pass "dead-link: refuses $1 (exit 2, nothing written)"
    else fail "dead-link: refuses $1" "exit $rc: $(tail_of "$tmp/out")"; fi
}
bad "a value without a port" "give the node and the port it leaves by, like 1,2:3" 1,1
bad "a port past 2d" "ports are 0..3" 1,1:9
bad "a node outside the shape" "the node is outside the shape" 9,1:0
bad "a port at the mesh's edge" "no link leaves that node by that port" 0,0:1
bad "a malformed node" "give the node and the port it leaves by" 1,x:0
rm -f "$tmp/t.tbl"
"$gen" --shape 4x4 --mesh --algo bcast-ft --tables "$tmp/t.tbl" --dead-link 0,0:0 --dead-link 0,0:2 >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q 'the dead links cut node (1,0) off from node (0,0): no schedule can reach it' "$tmp/out" && [ ! -e "$tmp/t.tbl" ]; then
    pass "dead-link: a machine cut in two is refused by name (exit 2, nothing written)"
else fail "dead-link: cut machine" "exit $rc: $(tail_of "$tmp/out")"; fi
"$gen" --shape 4x4 --torus --package "$tmp/p.pkg" --coll bcast --dead-link 0,0:0 >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q -- '--dead-link goes with --algo' "$tmp/out" && [ ! -e "$tmp/p.pkg" ]; then
    pass "dead-link: refused with --package (exit 2)"
else fail "dead-link: with --package" "exit $rc: $(tail_of "$tmp/out")"; fi
rm -rf "$tmp"
