#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Traffic tests of the router network with noc-sim (sim/noc): every pattern on every shape
# at low load and past saturation (packet payloads of 1..64 flits), the contention-free
# step timing, the error cases, the watchdog, and the command line. Fixed seeds.
set -u
. tests/lib.sh
make_or_fail "build noc-sim" "$BUILD/tests/noc-sim-build.log" noc-sim || exit 1
sim="${BUILD:-build}/bin/noc-sim"
log="${BUILD:-build}/tests/noc-traffic.runs.log"
: > "$log"

shapes=("2x2 --mesh" "4x4 --mesh" "8x4 --mesh" "4x4 --torus" "5x5 --torus" "3x3x3 --torus" "3x3x3 --mesh" "1x8 --mesh")
patterns=(uniform transpose bitcomp neighbor hotspot tornado)
total=0

run() {   # name, expected exit status, then noc-sim arguments
    local name=$1 want=$2; shift 2
    local out rc
    out=$("$sim" --quiet "$@" 2>&1); rc=$?
    echo "== $name: $*" >>"$log"; echo "$out" >>"$log"
    RUN_OUT=$out
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL $name: exit $rc (want $want): $(echo "$out" | grep -m 3 -E 'FAIL|noc-sim:|stuck' | tr '\n' ' ')"
        return 1
    fi
    return 0
}
packets_of() { echo "$1" | sed -n 's/.*: \([0-9]*\) packets delivered.*/\1/p' | awk '{s+=$1} END {print s+0}'; }

seed=1
for shape in "${shapes[@]}"; do
    for pattern in "${patterns[@]}"; do
        seed=$((seed + 1))
        # Low load: long packets; past saturation: 2 flits/node/cycle offered, then drained.
        if run "$shape $pattern low load" 0 --shape $shape --pattern "$pattern" --load 0.08 \
               --len 1-64 --warmup 200 --cycles 3000 --seed $seed; then
            n=$(packets_of "$RUN_OUT"); total=$((total + n))
            if [ "$n" -gt 0 ]; then echo "PASS $shape $pattern low load ($n packets)"
            else echo "FAIL $shape $pattern low load: no packet delivered"; fi
        fi
        if run "$shape $pattern saturated" 0 --shape $shape --pattern "$pattern" --load 2.0 \
               --len 1-16 --warmup 100 --cycles 1200 --ej-stall 0.1 --seed $seed; then
            n=$(packets_of "$RUN_OUT"); total=$((total + n))
            if [ "$n" -gt 0 ]; then echo "PASS $shape $pattern saturated ($n packets)"
            else echo "FAIL $shape $pattern saturated: no packet delivered"; fi
        fi
    done
    # Contention-free steps: every worm takes exactly hops + length + 1 cycles.
    if run "$shape step" 0 --shape $shape --pattern step; then
        late=$(echo "$RUN_OUT" | grep -c 'WRONG')
        if [ "$late" -eq 0 ]; then echo "PASS $shape contention-free step: hops + length + 1 cycles, no stall"
        else echo "FAIL $shape contention-free step: $late runs late"; fi
    fi
    # Bad headers: refused at injection (checked) or consumed and counted (unchecked),
    # with background traffic that must all arrive.
    if run "$shape errors" 0 --shape $shape --pattern errors --load 0.3 --len 1-16 --warmup 100 --cycles 3000 --seed 7; then
        n=$(packets_of "$RUN_OUT"); total=$((total + n))
        echo "PASS $shape error cases ($(echo "$RUN_OUT" | grep -m1 '^errors:' | sed 's/^errors: //'); $n good packets intact)"
    fi
done

# The same router with 4 and 8 virtual channels per link (4x4 torus, 3x3 mesh), with VC
# buffers of 3 flits (the least at full rate; not a power of two) and 8 flits instead of the
# default 4, with the last-hop VC rule (VC_LAST_HOP = 1), with 1 VC (3x3 mesh), and the lean
# board router (config.mk's ROUTER_BOARD_*: 1 VC, buffers in block RAM, injection channel j
# to link j only, registered route and allocation): 2x2 and 4x4 meshes and the 2x2 torus,
# and with 2 VCs of 4 flits on the 4x4 torus (the dateline through the lean pipeline).
for variant in "4x4 --torus --vcs 4" "3x3 --mesh --vcs 8" "4x4 --torus --buf-depth 3" "4x4 --mesh --buf-depth 8" \
               "4x4 --torus --last-hop-vc" "3x3 --mesh --vcs 1" "2x2 --mesh --board" "4x4 --mesh --board" \
               "2x2 --torus --board" "4x4 --torus --board --vcs 2 --buf-depth 4"; do
    for pattern in uniform tornado; do
        if run "$variant $pattern" 0 --shape $variant --pattern "$pattern" --load 2.0 --len 1-16 \
               --warmup 100 --cycles 1500 --ej-stall 0.1 --seed 5; then
            n=$(packets_of "$RUN_OUT"); total=$((total + n))
            if [ "$n" -gt 0 ]; then echo "PASS $variant $pattern saturated ($n packets)"
            else echo "FAIL $variant $pattern saturated: no packet delivered"; fi
        fi
    done
    if run "$variant step" 0 --shape $variant --pattern step; then
        if echo "$RUN_OUT" | grep -q WRONG; then echo "FAIL $variant contention-free step: a worm was late"
        elif [[ $variant == *--board* ]]; then echo "PASS $variant contention-free step: every worm as fast as alone"
        else echo "PASS $variant contention-free step: hops + length + 1 cycles, no stall"; fi
    fi
    if run "$variant errors" 0 --shape $variant --pattern errors --load 0.3 --len 1-16 --warmup 100 --cycles 3000 --seed 9; then
        echo "PASS $variant error cases"
    fi
done

if [ "$total" -gt 100000 ]; then echo "PASS more than 100000 packets checked ($total), none lost"
else echo "FAIL more than 100000 packets checked: only $total"; fi

# The watchdog names the stuck buffers when nothing can move (no node ever ejects).
if run "watchdog" 1 --shape 4x4 --torus --pattern uniform --load 0.2 --cycles 500 --ej-stall 1 --watchdog 300; then
    if echo "$RUN_OUT" | grep -q 'watchdog: nothing moved' && echo "$RUN_OUT" | grep -q 'stuck buffer: node'; then
        echo "PASS watchdog fails a wedged run and names the stuck buffers"
    else
        echo "FAIL watchdog: no report of the stuck buffers"
    fi
fi

# The command line refuses wrong input with a clear message and status 2.
cli() {
    local name=$1 want=$2; shift 2
    out=$("$sim" "$@" 2>&1); rc=$?
    if [ "$rc" -eq 2 ] && echo "$out" | grep -q -- "$want"; then echo "PASS command line refuses $name"
    else echo "FAIL command line refuses $name: exit $rc, output: $(echo "$out" | head -n 2 | tr '\n' ' ')"; fi
}
cli "an unknown flag" "unknown option '--bogus'" --shape 4x4 --torus --bogus 1
cli "a shape not compiled in" "not compiled into this binary" --shape 7x7 --torus
cli "a missing torus/mesh choice" "say --torus or --mesh" --shape 4x4
cli "an unknown pattern" "unknown --pattern" --shape 4x4 --torus --pattern zigzag
cli "a bad length range" "--len wants" --shape 4x4 --torus --len 0-65
cli "a bad trace name" "--trace wants" --shape 4x4 --torus --trace out.vcd

# --trace writes an FST waveform.
trace="${BUILD:-build}/tests/noc-trace.fst"
rm -f "$trace"
if run "trace" 0 --shape 2x2 --mesh --pattern uniform --warmup 10 --cycles 100 --trace "$trace" && [ -s "$trace" ]; then
    echo "PASS --trace writes an FST waveform"
elif [ ! -s "$trace" ]; then
    echo "FAIL --trace writes an FST waveform: no file $trace"
fi
