#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# `make demo`, the first thing a newcomer types, run as they would (fixed seed): it must end
# "demo: all parts OK" with exit 0, show the collectives' results table with every job
# delivered, write the link-use picture and the JSON report, print the core's CPI table and
# the schedule and router parts.
# test-timeout: 1200
set -u
. tests/lib.sh
work="$BUILD/tests/demo"
mkdir -p "$work"
make --no-print-directory demo DEMO_SEED=1 >"$work/demo.out" 2>&1
rc=$?
out="$work/demo.out"
if [ "$rc" -eq 0 ] && [ "$(tail -n 1 "$out")" = "demo: all parts OK" ]; then pass "demo-runs (exit 0, all parts OK)"
else fail demo-runs "exit $rc, last line '$(tail -n 1 "$out")' (output: $out)"; fi

rows=$(grep -cE '^   [0-5] +[a-z-]+ +[a-z0-9-]+ +[0-9]+ .* OK$' "$out")
if [ "$rows" -eq 6 ] && grep -q "delivery OK on every node" "$out"; then pass "demo-collectives (6 collectives delivered on the $(sed -n 's/^== rvmesh demo: //p' "$out"))"
else fail demo-collectives "$rows of 6 result rows OK: $(grep -m 3 -E 'FAILED|BELOW' "$out" | tr '\n' ' ')"; fi

svg="$BUILD/demo/link-use.svg"; json="$BUILD/demo/collectives.json"
if [ -s "$svg" ] && head -c 4 "$svg" | grep -q '<svg' && tail -n 1 "$svg" | grep -q '</svg>' &&
        [ "$(grep -o '"delivered": true' "$json" | wc -l)" -eq 6 ]; then pass "demo-outputs (link-use SVG and JSON report)"
else fail demo-outputs "missing or incomplete $svg or $json"; fi

if [ "$(grep -cE '^[a-z0-9_]+ +[0-9]+ +[0-9]+ +[0-9]\.[0-9]+  OK$' "$out")" -ge 5 ]; then pass "demo-core-programs (CPI table)"
else fail demo-core-programs "the CPI table has fewer than 5 OK rows"; fi
if grep -qE '^tsay-wang +[0-9]+ steps \(bound' "$out" && grep -qE '^mnb +[0-9]+ steps \(bound' "$out" &&
        ! grep -q 'FAILED' "$out"; then pass "demo-schedules"
else fail demo-schedules "the schedule part lacks checked schedules"; fi
if grep -q "all nodes exited 0" "$out"; then pass "demo-neighbour-exchange"
else fail demo-neighbour-exchange "the mesh part did not end with all nodes exiting 0"; fi
