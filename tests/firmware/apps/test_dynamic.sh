#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 900
# Dynamic broadcast on the machine (firmware/apps/dynamic, issue 16), short runs on the 4x4
# torus and the 4x4 mesh (the delay-against-load figures are make bench-dynamic's):
# - STAR with 2-class priority at rho 0.6: every broadcast reaches every node exactly once
#   with its data (dyn-report, from every node's log that mesh-sim --dump wrote), N-1
#   transmissions a broadcast, delays in slots at least the torus's and near the abstract
#   model's, the JSON fields the benchmark reads;
# - adaptive STAR with the descendant discipline, and ARC on the 4x4 mesh: delivered exactly once;
# - planted faults the check must catch: a transmission dropped (a node never gets a
#   broadcast), a transmission doubled (a node gets one twice, and exits non-zero);
# - bad input: dyn-report on a truncated dump, mesh-sim --dump of a program without a log.
set -u
. tests/lib.sh
work="$BUILD/tests/apps-dynamic"
rm -rf "$work"
mkdir -p "$work"
root=$(pwd)

make_or_fail dynamic-tools "$work/make.log" mesh-sim mesh-sim-4x4m schedgen dyn-report || exit 1
pass dynamic-tools

# run NAME ARGS...: make check in the app folder with OUT=$work/NAME; sets rc and out
run() {
    local name="$1"
    shift
    out="$root/$work/$name"
    make -C firmware/apps/dynamic --no-print-directory RVMESH="$root" RVMESH_BUILD="$root/$BUILD" OUT="$out" "$@" check \
        >"$work/$name.log" 2>&1
    rc=$?
}
field() { sed -n "s/.*\"$1\": {[^}]*\"$2\": \([-0-9.]*\).*/\1/p" "$3"; }

run star SHAPE=4x4t RHO=0.6 DISC=prio2 WARMUP=10 MEASURE=40 TAIL=10
json="$out/result.json"
if [ $rc -eq 0 ] && grep -q '"result": "OK"' "$json" 2>/dev/null; then
    pass "dynamic-4x4t-star-prio2-delivered-exactly-once ($(grep -m 1 '^4x4t star' "$work/star.log" | cut -c1-160))"
else
    fail dynamic-4x4t-star-prio2-delivered-exactly-once "make check exited $rc: $(tail_of "$work/star.log" 4)"
fi
bc=$(field machine mean_broadcast_delay "$json")
model=$(field model mean_broadcast_delay "$json")
measured=$(field machine measured "$json")
slot=$(field machine slot_cycles "$json")
sent=$(field machine transmissions "$json")
bcasts=$(field machine broadcasts "$json")
# a broadcast takes at least the eccentricity (4 hops) and N-1 = 15 transmissions
if [ -n "$bc" ] && [ -n "$model" ] && [ -n "$measured" ] && [ -n "$sent" ] &&
        awk -v b="$bc" -v m="$model" -v n="$measured" -v s="$sent" -v k="$bcasts" \
            'BEGIN { exit !(n >= 20 && b >= 4 && b < 40 && m > 0 && b / m > 0.65 && b / m < 1.5 && s == 15 * k) }'; then
    pass "dynamic-4x4t-delays (mean broadcast delay $bc slots, model $model, $measured measured, slot $slot cycles, $sent transmissions = 15 x $bcasts)"
else
    fail dynamic-4x4t-delays "mean broadcast delay '$bc' slots, model '$model', measured '$measured', transmissions '$sent' for '$bcasts' broadcasts"
fi
if grep -qE '"ratio_mean_broadcast": [0-9.]+, "ratio_mean_reception": [0-9.]+' "$json" &&
        grep -qE '"formula": \{"mean_reception_delay": [0-9.]+\}' "$json" &&
        grep -qE '"p95_broadcast_delay": [0-9.]+, "mean_reception_delay"' "$json"; then
    pass "dynamic-result-json (machine, model, formula, ratios)"
else
    fail dynamic-result-json "$(cut -c1-300 "$json" 2>/dev/null)"
fi

run adaptive SHAPE=4x4t RHO=0.5 ROUTING=adaptive DISC=desc WARMUP=5 MEASURE=20 TAIL=5
[ $rc -eq 0 ] && grep -q '"result": "OK"' "$out/result.json" 2>/dev/null &&
    pass "dynamic-4x4t-adaptive-desc-delivered-exactly-once" ||
    fail dynamic-4x4t-adaptive-desc-delivered-exactly-once "make check exited $rc: $(tail_of "$work/adaptive.log" 4)"

run arc SHAPE=4x4m RHO=0.5 DISC=prio2 WARMUP=5 MEASURE=20 TAIL=5
[ $rc -eq 0 ] && grep -q '"result": "OK"' "$out/result.json" 2>/dev/null &&
    pass "dynamic-4x4m-arc-delivered-exactly-once" ||
    fail dynamic-4x4m-arc-delivered-exactly-once "make check exited $rc: $(tail_of "$work/arc.log" 4)"

# planted: node 0 drops its third forwarded transmission; someone never gets that broadcast
run drop SHAPE=4x4t RHO=0.5 WARMUP=2 MEASURE=10 TAIL=2 PLANT=1
if [ $rc -ne 0 ] && grep -qE '^dyn-report: broadcast [0-9]+ of \[[0-9],[0-9]\] \(slot [0-9]+\) never reached \[[0-9],[0-9]\]$' "$work/drop.log" &&
        grep -q '"result": "FAILED' "$out/result.json"; then
    pass "dynamic-planted-drop-caught ($(grep -m 1 'never reached' "$work/drop.log"))"
else
    fail dynamic-planted-drop-caught "make check exited $rc: $(tail_of "$work/drop.log" 4)"
fi
# planted: node 0 sends its third forwarded transmission twice
run double SHAPE=4x4t RHO=0.5 WARMUP=2 MEASURE=10 TAIL=2 PLANT=2
if [ $rc -ne 0 ] && grep -qE '^dyn-report: node \[[0-9],[0-9]\] received 1 broadcasts twice' "$work/double.log" &&
        grep -qE 'mesh-sim: 4x4 torus: .* exit=15 ' "$work/double.log"; then
    pass "dynamic-planted-double-caught ($(grep -m 1 'twice' "$work/double.log"))"
else
    fail dynamic-planted-double-caught "make check exited $rc: $(tail_of "$work/double.log" 4)"
fi

# bad input
head -c 1000 "$work/star/dump.bin" >"$work/short.bin"
"$BUILD/bin/dyn-report" --dump "$work/short.bin" >"$work/short.out" 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q 'does not match its contents (truncated?)' "$work/short.out" &&
    pass "dyn-report-refuses-truncated-dump" || fail dyn-report-refuses-truncated-dump "exit $rc: $(tail_of "$work/short.out" 2)"
if build_elf firmware/apps/hello.c mesh-dump-no-log "$work/hello.log"; then
    "$BUILD/bin/mesh-sim" --elf "$elf" --dump "$work/none.bin" >"$work/nolog.out" 2>&1
    rc=$?
    [ $rc -eq 120 ] && grep -q 'has no such symbol' "$work/nolog.out" && [ ! -e "$work/none.bin" ] &&
        pass "mesh-sim-dump-refuses-program-without-rvmesh_dump" ||
        fail mesh-sim-dump-refuses-program-without-rvmesh_dump "exit $rc: $(tail_of "$work/nolog.out" 2)"
fi
