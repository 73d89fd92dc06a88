#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# mesh-sim on config.mk's machine (the 4x4 torus): the all-port neighbour exchange, the
# NI's DMA engines, the driver's interrupts, the NI's error handling, console prefixes, exit
# statuses, bad input, --trace, --progress, --pc-trace, --shape.
# Builds mesh-sim first (about 2 minutes from scratch).
set -u
. tests/sim/mesh/lib.sh
sim="$BUILD/bin/mesh-sim"
work="$BUILD/tests/sim-mesh"
mprogs=tests/sim/mesh/progs
nprogs=tests/sim/node/progs
mkdir -p "$work"

if ! make -s mesh-sim >"$work/make.log" 2>&1; then
    echo "FAIL mesh-sim-build: make mesh-sim failed (see $work/make.log)"
    exit 1
fi
echo "PASS mesh-sim-build"
mesh_want_4x4_torus mesh-sim-shape

# run NAME EXPECTED_STATUS STDERR_PATTERN ARGS...
run() {
    local name="$1" want="$2" pattern="$3"
    shift 3
    mesh_run "$name" "$want" "$@" || return 1
    if ! grep -Eq -- "$pattern" "$work/$name.err"; then
        echo "FAIL $name: stderr does not match /$pattern/: $(head -c 300 "$work/$name.err")"
        return 1
    fi
    echo "PASS $name"
}

# --- the all-port neighbour exchange: 3 rounds of 4 one-hop worms per node (2, 14 and 66
# flits), so every one of the 64 links carries exactly 82 flits and 5248 in all
if build_elf "$mprogs/neighbours.c" neighbours "$work/make.log"; then
    if run neighbours 0 "16/16 nodes exited, exit=0 .* flits=5248 max-link=\[[0-9],[0-9]\][+-][xy]:82 " \
           --elf "$elf" --links --max-cycles 1000000; then
        links=$(grep -o '=[0-9]*' "$work/neighbours.out" | sort | uniq -c | awk '{$1=$1; print}')
        if [ "$links" = "64 =82" ]; then echo "PASS neighbours-flits-per-link"
        else echo "FAIL neighbours-flits-per-link: want 64 links of 82 flits, got: $(echo $links)"; fi
        if [ "$(grep -c '^\[0,0\] round [012]: 4 worms' "$work/neighbours.out")" -eq 3 ]; then
            echo "PASS neighbours-report"
            grep '^\[0,0\] round' "$work/neighbours.out"
        else
            echo "FAIL neighbours-report: node 0's three round lines missing"
        fi
    fi
fi

# --- the DMA engines: exchanges of 0..256-word worms on all ports at once (every word
# checked), the cost with and without DMA, refused starts (nothing sent, nothing written)
if build_elf "$mprogs/dma_exchange.c" dma-exchange "$work/make.log"; then
    if run dma-exchange 0 "16/16 nodes exited, exit=0 " --elf "$elf" --max-cycles 3000000; then
        if [ "$(grep -c '^\[0,0\] exchange of 4 worms of [0-9]* flits each way: core [0-9]* cycles' "$work/dma-exchange.out")" -eq 2 ]; then
            echo "PASS dma-exchange-report"
            grep '^\[0,0\] exchange of' "$work/dma-exchange.out"
        else
            echo "FAIL dma-exchange-report: node 0's two measurement lines missing"
        fi
    fi
fi

# --- the driver's interrupts: every node takes its 2d neighbours' worms in its RX interrupt
# handler, a piece at a time (ni_irq_on, ni_irq_handle, ni_rx_poll)
if build_elf "$mprogs/irq_exchange.c" irq-exchange "$work/make.log"; then
    if run irq-exchange 0 "16/16 nodes exited, exit=0 " --elf "$elf" --max-cycles 1000000; then
        if grep -q '^\[0,0\] 4 worms received by interrupt ([0-9]* interrupts) in [0-9]* cycles$' "$work/irq-exchange.out"; then
            echo "PASS irq-exchange-report"
            grep '^\[0,0\]' "$work/irq-exchange.out"
        else
            echo "FAIL irq-exchange-report: node 0's line missing"
        fi
    fi
fi

# --- refused worms, faulting accesses, the RX interrupt
if build_elf "$mprogs/ni_errors.c" ni-errors "$work/make.log"; then
    run ni-errors 0 "16/16 nodes exited, exit=0 " --elf "$elf" --max-cycles 1000000
fi

# --- console: every node's line once, prefixed with its coordinates
if build_elf firmware/apps/hello.c console-prefix "$work/make.log"; then
    if run console-prefix 0 "16/16 nodes exited, exit=0" --elf "$elf"; then
        bad=""
        for y in 0 1 2 3; do for x in 0 1 2 3; do
            [ "$(grep -c "^\[$x,$y\] hello from rvmesh node" "$work/console-prefix.out")" -eq 1 ] || bad="$bad [$x,$y]"
        done; done
        if [ -z "$bad" ] && [ "$(wc -l < "$work/console-prefix.out")" -eq 32 ]; then
            echo "PASS console-lines"
        else
            echo "FAIL console-lines: missing or repeated for$bad ($(wc -l < "$work/console-prefix.out") lines)"
        fi
    fi
    run progress 0 "mesh-sim: cycle 1000, [0-9]+ of 16 nodes exited" --elf "$elf" --progress 1000
    "$sim" --elf "$elf" --quiet >/dev/null 2>"$work/quiet.err"
    if [ $? -eq 0 ] && [ ! -s "$work/quiet.err" ]; then echo "PASS quiet"
    else echo "FAIL quiet: stderr not empty or bad status: $(head -c 200 "$work/quiet.err")"; fi
fi

# --- exit statuses: the first node to fail, named; a partial console line is flushed
if build_elf "$mprogs/one_fails.c" one-fails "$work/make.log"; then
    if run one-fails 7 "16/16 nodes exited, exit=7 .*first-failure=\[1,1\] exit=7 at cycle [0-9]+ \(0 more nodes non-zero\)" --elf "$elf"; then
        if grep -qx '\[1,1\] node 5 fails' "$work/one-fails.out" && [ "$(grep -c ' done$' "$work/one-fails.out")" -eq 15 ]; then
            echo "PASS one-fails-console"
        else
            echo "FAIL one-fails-console: $(head -c 200 "$work/one-fails.out")"
        fi
    fi
fi
if build_elf "$nprogs/console_exit3.S" all-exit-3 "$work/make.log"; then
    run all-exit-3 3 "exit=3 .*first-failure=\[0,0\] exit=3 .*\(15 more nodes non-zero\)" --elf "$elf"
fi
if build_elf "$nprogs/spin.S" max-cycles "$work/make.log"; then
    run max-cycles 125 "ran past --max-cycles 500 with 16 of 16 nodes still running: \[0,0\] pc 0x" --elf "$elf" --max-cycles 500
    run trace 125 "ran past --max-cycles 50" --elf "$elf" --max-cycles 50 --trace "$work/trace.fst"
    if [ -s "$work/trace.fst" ]; then echo "PASS trace-written"; else echo "FAIL trace-written: no $work/trace.fst"; fi
    run trace-unwritable 121 "cannot write the trace file" --elf "$elf" --max-cycles 5 --trace /nonexistent/dir/t.fst
fi
if build_elf "$nprogs/no_handler.S" core-halted "$work/make.log"; then
    run core-halted 126 "node \[0,0\]: core halted: .*mcause 1 .*entered for mcause 11" --elf "$elf"
fi

# --- bad input (statuses numbered as node-sim's)
run cli-unknown-flag 120 "unknown argument '--bogus'" --bogus
run cli-missing-value 120 "--elf needs a file name" --elf
run cli-no-elf 120 "--elf FILE is required" --max-cycles 10
run cli-bad-number 120 "--max-cycles takes a positive decimal number, not '12x'" --elf x --max-cycles 12x
run cli-zero-cycles 120 "--max-cycles takes a positive decimal number, not '0'" --elf x --max-cycles 0
run cli-bad-progress 120 "--progress takes a decimal number of cycles, not '-1'" --elf x --progress -1
run file-missing 121 "cannot open|No such file" --elf "$work/does-not-exist.elf"
printf 'not an elf\n' > "$work/text.elf"
run file-not-elf 122 "not an ELF" --elf "$work/text.elf"
if build_elf "$nprogs/spin.S" file-other-machine "$work/make.log" && spin_elf=$elf; then
    cp "$spin_elf" "$work/em386.elf"
    printf '\003\000' | dd of="$work/em386.elf" bs=1 seek=18 conv=notrunc status=none
    run file-other-machine 123 "machine 3, not RISC-V" --elf "$work/em386.elf"
fi
ram_line=$("$sim" --help | grep -o '[0-9]* bytes of RAM at 0x[0-9a-f]*')
ram_bytes=$(echo "$ram_line" | awk '{print $1}')
ram_base=$(echo "$ram_line" | awk '{print $6}')
if riscv64-unknown-elf-gcc -march=rv32i -mabi=ilp32 -nostdlib -Ttext="$ram_base" \
       -DTOO_BIG_BYTES="$ram_bytes" -o "$work/too-big.elf" "$nprogs/too_big.S" 2>"$work/too-big.log"; then
    run file-too-big 124 "does not fit in a node's RAM \[$ram_base, 0x" --elf "$work/too-big.elf"
else
    echo "FAIL file-too-big: cannot build the test ELF: $(head -c 200 "$work/too-big.log")"
fi
# --pc-trace: every instruction node 5 retires, "cycle pc": the first at the reset pc (RAM_BASE),
# cycles rising, pcs in RAM; bad node numbers refused
if build_elf "$mprogs/neighbours.c" pc-trace "$work/make.log"; then
    if run pc-trace 0 "16/16 nodes exited, exit=0" --elf "$elf" --pc-trace "5:$work/pc5.txt"; then
        base=$("$sim" --help | grep -o 'bytes of RAM at 0x[0-9a-f]*' | sed 's/.*0x//')
        verdict=$(awk -v base="$base" '
            { if (NR == 1 && $2 != base) { print "first pc " $2 ", want " base; exit }
              if ($1 <= last) { print "cycle " $1 " after " last; exit }
              if (substr($2, 1, 2) != substr(base, 1, 2)) { print "pc " $2 " outside RAM"; exit }
              last = $1 }
            END { if (NR < 1000) print "only " NR " instructions" }' "$work/pc5.txt")
        if [ -z "$verdict" ]; then echo "PASS pc-trace-file ($(wc -l < "$work/pc5.txt") instructions of node 5)"
        else echo "FAIL pc-trace-file: $verdict"; fi
    fi
    run pc-trace-bad-node 120 "--pc-trace takes NODE:FILE \(NODE an index below 16\)" --elf "$elf" --pc-trace "16:$work/x.txt"
    run pc-trace-no-file 120 "--pc-trace takes NODE:FILE" --elf "$elf" --pc-trace 3
fi
# --shape/--torus/--mesh: this binary's machine runs; another one with no model built says how
# to build it (a 7x7 torus is in no test); a malformed shape is refused
if build_elf "$nprogs/console_exit3.S" shape-own "$work/make.log"; then
    run shape-own 3 "4x4 torus: 16/16 nodes exited, exit=3" --shape 4x4 --torus --elf "$elf"
    run shape-unbuilt 120 "simulates a 4x4 torus; a 7x7 torus needs a model of its own.*make mesh-sim MESH_DIMS=2 MESH_X=7 MESH_Y=7 MESH_Z=1 MESH_TORUS=1" \
        --shape 7x7 --elf "$elf"
    run shape-bad 120 "--shape takes XxY or XxYxZ with sides 2..255, not '4x4x'" --shape 4x4x --elf "$elf"
    run shape-one-side 120 "--shape takes XxY or XxYxZ with sides 2..255, not '16'" --shape 16 --elf "$elf"
fi
if "$sim" --help >"$work/help.out" 2>&1 && grep -q "^  125 *ran past --max-cycles" "$work/help.out"; then echo "PASS help"
else echo "FAIL help: --help failed or does not list the exit statuses"; fi

# --- on a mesh (mesh-sim-4x4m, its own model): a worm whose route leaves the mesh is refused
# on every port of every node and disturbs nothing (progs/ni_leave_mesh.c)
if make -s mesh-sim-4x4m >>"$work/make.log" 2>&1; then
    if build_elf "$mprogs/ni_leave_mesh.c" leave-mesh "$work/make.log"; then
        sim="$BUILD/bin/mesh-sim-4x4m" run leave-mesh 0 "4x4 mesh: 16/16 nodes exited, exit=0" --elf "$elf"
        # config.mk's mesh-sim hands a run for the 4x4 mesh to mesh-sim-4x4m
        run shape-other 0 "4x4 mesh: 16/16 nodes exited, exit=0" --shape 4x4 --mesh --elf "$elf"
    fi
else
    echo "FAIL leave-mesh: make mesh-sim-4x4m failed (see $work/make.log)"
fi
