#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# mesh-sim --report FILE.json and --junit FILE.xml for any program, with or without --job:
#   - progs/report.c on the 4x4 torus (node 5 exits 3, the others 0; every node times the
#     regions "work" and "print" and prints characters JSON and XML must escape): the JSON
#     has the run's exit status and cycles and, per node, its exit status, exit cycle,
#     instructions, console (escaped) and regions (calls, cycles, first and last on the
#     machine-wide cycle count); the JUnit XML a test case per node, node [1,1] failed with
#     "exit status 3", the console escaped;
#   - the same program stopped by --max-cycles: every node "did not exit", a failure each;
#   - collectives.elf with --job: the jobs' results and the nodes in one report, a test case
#     per job in the JUnit XML.
set -u
. tests/sim/mesh/lib.sh
sim="$BUILD/bin/mesh-sim"
gen="$BUILD/bin/schedgen"
work="$BUILD/tests/sim-mesh-report"
prog="$BUILD/fw/tests/sim/mesh/progs/report.elf"
coll="$BUILD/fw/firmware/apps/mesh/collectives.elf"
rm -rf "$work"
mkdir -p "$work"

make_or_fail report-build "$work/make.log" mesh-sim schedgen "$prog" "$coll" || exit 1
pass report-build
mesh_want_4x4_torus report-shape

# has NAME FILE PATTERN...: every extended regex matches a line of FILE
has() {
    local name="$1" file="$2" p
    shift 2
    for p in "$@"; do
        if ! grep -qE -- "$p" "$file"; then
            fail "$name" "no line matching /$p/ in $file"
            return 1
        fi
    done
    pass "$name"
}
# count FILE PATTERN: lines of FILE matching the extended regex
count() { grep -cE -- "$2" "$1"; }

# ---- a program without --job: the nodes, their consoles and regions
"$sim" --elf "$prog" --quiet --report "$work/run.json" --junit "$work/run.xml" >"$work/run.out" 2>"$work/run.err"
rc=$?
[ $rc -eq 3 ] && pass "report-run-status (exit 3: node [1,1]'s)" || fail report-run-status "exit $rc: $(tail_of "$work/run.err")"
n=$(count "$work/run.json" '^    \{"node": "\[[0-9],[0-9]\]", "id": [0-9]+, "exited": true, "exit": [03], "cycles": [0-9]+, "instret": [1-9][0-9]*, "regions": \[\{"name": "work", "calls": 1, "cycles": [0-9]+, "first": [0-9]+, "last": 300[0-9][0-9]\}, \{"name": "print", "calls": 1, ')
[ "$n" -eq 16 ] && pass "report-json-nodes (16 nodes with exit, cycles, instret, regions)" ||
    fail report-json-nodes "$n of 16 node lines as expected: $(grep -m 1 '"node"' "$work/run.json" | cut -c1-300)"
has report-json-run "$work/run.json" '^  "shape": "4x4 torus",$' '^  "shape_id": "4x4t",$' '^  "exit": 3,$' \
    '^  "cycles": [0-9]+,$' '^  "instret": [0-9]+,$' '"elf": ".*report\.elf"'
has report-json-failed-node "$work/run.json" '"node": "\[1,1\]", "id": 5, "exited": true, "exit": 3,'
# the console, JSON-escaped: quotes, backslashes, the tab and the newline
has report-json-console "$work/run.json" \
    '"node": "\[2,3\]".*"console_dropped": 0, "console": "node 14: \\"quoted\\" <tag> & \\\\back\\\\slash\\u0009done\\n"\}'
if grep -q '"jobs"' "$work/run.json"; then fail report-json-no-jobs "a run without --job lists jobs"; else pass report-json-no-jobs; fi
# JUnit: a test case per node, one failure
has report-junit-suite "$work/run.xml" '^<\?xml version="1.0" encoding="UTF-8"\?>$' \
    '^<testsuites name="mesh-sim" tests="16" failures="1">$' \
    '^  <testsuite name="report\.4x4t" tests="16" failures="1" errors="0" skipped="0">$' \
    '<property name="exit" value="3"/>'
n=$(count "$work/run.xml" '^    <testcase classname="report\.4x4t" name="node \[[0-9],[0-9]\]">$')
[ "$n" -eq 16 ] && pass report-junit-cases || fail report-junit-cases "$n test cases, want 16"
has report-junit-failure "$work/run.xml" '^      <failure type="exit" message="exit status 3">exit status 3</failure>$'
[ "$(count "$work/run.xml" '<failure ')" -eq 1 ] && pass report-junit-one-failure || fail report-junit-one-failure "$(count "$work/run.xml" '<failure ') failures"
has report-junit-console "$work/run.xml" \
    '^      <system-out>node 0: &quot;quoted&quot; &lt;tag&gt; &amp; \\back\\slash	done$' \
    '^\[exit 0 at cycle [0-9]+, [0-9]+ instructions\]$' '^\[region work: [0-9]+ cycles in 1 calls\]$'
# the report's regions: "work" ends on the machine-wide cycle 30,000 on every node
firsts=$(grep -oE '"name": "work", "calls": 1, "cycles": [0-9]+, "first": [0-9]+, "last": [0-9]+' "$work/run.json" |
         sed 's/.*"last": //' | sort -u | awk '$1 >= 30000 && $1 < 30100' | wc -l)
[ "$firsts" -ge 1 ] && pass "report-regions-machine-cycles (work ends just after cycle 30000)" ||
    fail report-regions-machine-cycles "$(grep -m 1 -oE '"name": "work"[^}]*' "$work/run.json")"

# ---- stopped by --max-cycles: no node exited
"$sim" --elf "$prog" --quiet --max-cycles 10000 --report "$work/hang.json" --junit "$work/hang.xml" >"$work/hang.out" 2>"$work/hang.err"
rc=$?
if [ $rc -eq 125 ] && [ "$(count "$work/hang.json" '"exited": false, "exit": null, "cycles": null')" -eq 16 ] &&
        [ "$(count "$work/hang.xml" '<failure type="hang" message="did not exit: ran past --max-cycles 10000 with 16 of 16 nodes still running')" -eq 16 ] &&
        grep -q '^<testsuites name="mesh-sim" tests="16" failures="16">$' "$work/hang.xml" &&
        grep -q '^  "exit": 125,$' "$work/hang.json"; then
    pass "report-hang (exit 125, 16 nodes did not exit)"
else
    fail report-hang "exit $rc: $(grep -m 1 '<failure' "$work/hang.xml")"
fi

# ---- with --job: the jobs and the nodes
tbl="$work/bcast.tbl"
if "$gen" --shape 4x4 --torus --algo tsay-wang --quiet --tables "$tbl" >"$work/gen.log" 2>&1; then
    "$sim" --elf "$coll" --quiet --job "$tbl:64" --report "$work/job.json" --junit "$work/job.xml" >"$work/job.out" 2>"$work/job.err"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^    {"job": 0, "collective": "broadcast", "algorithm": "tsay-wang", "bytes": 64,' "$work/job.json" &&
            [ "$(count "$work/job.json" '^    \{"node": ')" -eq 16 ] &&
            grep -q '^    <testcase classname="collectives\.4x4t\.jobs" name="job 0 broadcast (tsay-wang) 64 B">$' "$work/job.xml" &&
            grep -q '^<testsuites name="mesh-sim" tests="17" failures="0">$' "$work/job.xml"; then
        pass "report-with-job (the job and 16 nodes; 17 test cases)"
    else
        fail report-with-job "exit $rc: $(tail_of "$work/job.err") $(head -c 200 "$work/job.xml")"
    fi
else
    fail report-with-job "schedgen: $(tail_of "$work/gen.log")"
fi
