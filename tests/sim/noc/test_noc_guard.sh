#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The router network with every link protected (noc-sim-guard: noc_network GUARD = 1,
# rtl/noc/link_guard_tx/rx) on a 4x4 torus: heavy bit flips on the links under uniform and
# saturated traffic, every packet delivered once, intact, in order, every damaged flit
# detected (noc-sim fails the run unless errors detected = flits damaged and retries >=
# errors); the contention-free step on guarded links without faults keeps its exact timing
# (no added latency); a dead link wedges traffic and the watchdog names the sending
# router's port with unacknowledged flits and the stuck VC buffers; a dropped flit (--drop-flit)
# is a sequence gap the guard sends again: every packet delivered, errors and retries > 0;
# bad fault options refused.
set -u
. tests/lib.sh
make_or_fail "build noc-sim-guard" "$BUILD/tests/noc-sim-guard-build.log" noc-sim-guard || exit 1
sim="$BUILD/bin/noc-sim-guard"
log="$BUILD/tests/noc-guard.runs.log"
: >"$log"

run() {   # name, expected exit status, then noc-sim arguments
    local name=$1 want=$2; shift 2
    local rc
    RUN_OUT=$("$sim" --quiet "$@" 2>&1); rc=$?
    echo "== $name: $*" >>"$log"; echo "$RUN_OUT" >>"$log"
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL $name: exit $rc (want $want): $(echo "$RUN_OUT" | grep -m 3 -E 'FAIL|noc-sim:|stuck' | tr '\n' ' ')"
        return 1
    fi
}
links_of() {   # "damaged errors retries" from the links: line
    echo "$RUN_OUT" | sed -n 's/^links: \([0-9]*\) flits damaged, \([0-9]*\) errors detected, \([0-9]*\) flits resent.*/\1 \2 \3/p'
}
packets_of() { echo "$RUN_OUT" | sed -n 's/.*: \([0-9]*\) packets delivered.*/\1/p'; }

for spec in "uniform|0.3|1-16|0|1e-3" "tornado|2.0|1-16|0.1|1e-3" "hotspot|0.3|1-8|0.2|3e-3"; do
    IFS='|' read -r pattern load len stall rate <<<"$spec"
    name="4x4 torus $pattern load $load, flips $rate per flit"
    if run "$name" 0 --shape 4x4 --torus --pattern "$pattern" --load "$load" --len "$len" --warmup 100 \
           --cycles 4000 --ej-stall "$stall" --seed 3 --flip-rate "$rate" --fault-seed 5; then
        read -r damaged errors retries <<<"$(links_of)"
        n=$(packets_of)
        if [ -n "$damaged" ] && [ "$errors" -gt 0 ] && [ "$errors" -eq "$damaged" ] && [ "$retries" -ge "$errors" ] \
           && [ "${n:-0}" -gt 0 ]; then
            pass "$name: $n packets intact, $errors errors detected of $damaged flits damaged, $retries flits resent"
        else
            fail "$name" "packets ${n:-none}, links: ${damaged:-?} damaged, ${errors:-?} detected, ${retries:-?} resent"
        fi
    fi
done

# No fault: guarded links add no latency (the step's exact timing) and count nothing.
if run "guarded step" 0 --shape 4x4 --torus --pattern step; then
    if echo "$RUN_OUT" | grep -q WRONG; then fail "guarded step: hops + length + 1 cycles" "a worm was late"
    else pass "guarded links add no latency: contention-free step in hops + length + 1 cycles"; fi
fi
if run "guarded, no fault" 0 --shape 4x4 --torus --pattern uniform --load 0.5 --len 1-16 --cycles 2000 --seed 4; then
    read -r damaged errors retries <<<"$(links_of)"
    if [ "$damaged" = 0 ] && [ "$errors" = 0 ] && [ "$retries" = 0 ]; then pass "no fault: no error, no retry"
    else fail "no fault: no error, no retry" "links: $damaged damaged, $errors detected, $retries resent"; fi
fi

# A dead link (into node 5's +x input, i.e. from node 6's -x output) wedges the worms that
# need it: the watchdog fails the run and names the link and the stuck buffers.
if run "dead link" 1 --shape 4x4 --torus --pattern uniform --load 0.2 --len 1-8 --cycles 3000 --seed 2 \
       --dead-link 5:0 --dead-cycle 500 --watchdog 2000; then
    if echo "$RUN_OUT" | grep -q 'stuck link: node (2,1) output -x' && echo "$RUN_OUT" | grep -q 'stuck buffer: node' \
       && echo "$RUN_OUT" | grep -q 'watchdog: nothing moved'; then
        pass "dead link: the watchdog names the link (node (2,1) output -x) and the stuck buffers"
    else
        fail "dead link: the watchdog names the link" "$(echo "$RUN_OUT" | grep -m 3 -E 'stuck|watchdog' | tr '\n' ' ')"
    fi
    if echo "$RUN_OUT" | grep -qE 'flit [0-9]+ is 0x|unknown \(damaged\)|duplicate'; then
        fail "dead link: nothing damaged delivered" "$(echo "$RUN_OUT" | grep -m 2 -E 'flit|unknown|duplicate' | tr '\n' ' ')"
    else
        pass "dead link: nothing damaged or duplicated delivered"
    fi
fi

# A flit dropped on the wire into node 5's +x input from cycle 300 on: the guard sees the
# gap in the sequence numbers and sends it again; noc-sim's scoreboard finds every packet.
name="dropped flit"
if run "$name" 0 --shape 4x4 --torus --pattern uniform --load 0.3 --len 1-8 --cycles 1500 --seed 3 \
       --drop-flit 5:0@300; then
    read -r damaged errors retries <<<"$(links_of)"
    n=$(packets_of)
    at=$(echo "$RUN_OUT" | sed -n 's/^fault: --drop-flit 5:0@300: the flit into node (1,1) input +x at cycle \([0-9]*\) dropped.*/\1/p')
    if [ -n "$at" ] && [ "$at" -ge 300 ] && [ "$damaged" = 0 ] && [ "${errors:-0}" -gt 0 ] && [ "${retries:-0}" -gt 0 ] \
       && [ "${n:-0}" -gt 0 ]; then
        pass "$name: the flit at cycle $at dropped, $n packets delivered intact, $errors errors detected, $retries flits resent"
    else
        fail "$name" "dropped at ${at:-none}, packets ${n:-none}, links: ${damaged:-?} damaged, ${errors:-?} detected, ${retries:-?} resent"
    fi
fi

cli() {
    local name=$1 want=$2; shift 2
    out=$("$sim" "$@" 2>&1); rc=$?
    if [ "$rc" -eq 2 ] && echo "$out" | grep -q -- "$want"; then pass "command line refuses $name"
    else fail "command line refuses $name" "exit $rc, output: $(echo "$out" | head -n 2 | tr '\n' ' ')"; fi
}
cli "a dead link outside the shape" "no such node or port" --shape 4x4 --torus --dead-link 16:0
cli "a malformed dead link" "--dead-link wants NODE:PORT" --shape 4x4 --torus --dead-link 3
cli "a flip rate above 1" "--flip-rate wants" --shape 4x4 --torus --flip-rate 2
cli "a dropped flit outside the shape" "--drop-flit 16:0@100: no such node or port" --shape 4x4 --torus --drop-flit 16:0@100
cli "a dropped flit on port 6" "--drop-flit wants NODE:PORT@CYCLE" --shape 4x4 --torus --drop-flit 5:6@100
cli "a dropped flit without @CYCLE" "--drop-flit wants NODE:PORT@CYCLE" --shape 4x4 --torus --drop-flit 5:0
cli "a malformed dropped flit" "--drop-flit wants NODE:PORT@CYCLE" --shape 4x4 --torus --drop-flit 5,0@100
cli "a dropped flit at cycle 0" "--drop-flit's cycle wants a decimal integer in 1..2000000000" --shape 4x4 --torus --drop-flit 5:0@0
cli "a dropped flit at a cycle not a number" "--drop-flit's cycle wants" --shape 4x4 --torus --drop-flit 5:0@x
