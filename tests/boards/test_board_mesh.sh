#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 1200
# A machine of boards without the boards (issue 12, item 5b; the kit's board path, issue 18
# item 6): four iCEBreaker tops wired pin to pin as a 2x2 mesh, PMOD pin n of a + row to pin
# n + 6 of the neighbour's - row (tests/boards/tb_board_mesh.v: board_icebreaker from RTL
# with config.mk's icebreaker profile, a link_phy on every port, its own oscillator (0, +200,
# -200, +400 ppm), its own SPI flash model and UART, its button released at its own time).
# They boot a program of the application kit (tests/boards/progs/board_mesh: bcast from two
# roots, scatter, gather, allgather, alltoall, allreduce, reduce_scatter, barrier, every byte
# checked on every node) from the flash
# images `make board-images` writes (the very ELF mesh-sim runs, each board's image with its
# own node's tables). Checks:
#   - the images: one per node, each with its node's tables; board-image refuses the ELF for
#     another shape and an ELF whose tables are damaged, writing nothing
#   - the same ELF on mesh-sim's 2x2 torus (the torus run's): every node ok
#   - the boards: every boot line names its node, every node's collectives byte-exact, all
#     four exit 0, each board's link LEDs show exactly its cabled ports up; board 3 starts
#     600,000 cycles after board 0, longer than the program's call timeout (rvm_init waits
#     for every board on a board)
#   - a cable taken out (board 0's +x): its two boards name the link on their consoles and
#     wait in rvm_init (no collective runs), the link LEDs show it down
#   - the 2x2 torus (+torus: two cables between each pair; the program built for 2x2t): every
#     board's collectives byte-exact, all four links up on every board
# The runs use `make board-sim` (the kit's target) and boards/scripts/board_mesh_run.sh on the
# simulator `make -C boards board-mesh-sim` builds (status 0 only when all four exit 0).
# About 1.5 minutes: the testbench compiles (~1 min) beside mesh-sim-2x2t; the boards run
# ~2.2 million cycles each (about 1.3 million of them the boot ROM loading ~51 KB over SPI),
# the three runs side by side.
set -u
. tests/lib.sh
need_tool board-mesh-build verilator make od riscv64-unknown-elf-readelf || exit 1
work="$BUILD/tests/board-mesh"
rm -rf "$work"
mkdir -p "$work"
log="$work/make.log"
: >"$log"
root=$(pwd)
B=boards/build/icebreaker
prog=tests/boards/progs/board_mesh
out="$work/prog"
tool=boards/build/bin/board-image
make_or_fail board-mesh-build "$log" -C boards BOARD=icebreaker boot params tool || exit 1
# the program (TIMEOUT: 400,000 cycles, 5x the boards' longest call; rvm_init names a link
# still down after that long)
if ! make -C "$prog" RVMESH="$root" RVMESH_BUILD="$root/$BUILD" OUT="$root/$out" TIMEOUT=400000 \
        board-images >"$work/images.log" 2>&1; then
    fail board-mesh-images "make board-images failed: $(tail_of "$work/images.log" 4)"
    exit 1
fi
elf="$out/board_mesh.elf"
imgs="$out/board-icebreaker"
# the same program for the 2x2 torus (two cables between each pair of boards)
if ! make -C "$prog" RVMESH="$root" RVMESH_BUILD="$root/$BUILD" OUT="$root/$work/prog-t" SHAPE=2x2t \
        TIMEOUT=400000 board-images >"$work/images-t.log" 2>&1; then
    fail board-mesh-images "make board-images SHAPE=2x2t failed: $(tail_of "$work/images-t.log" 4)"
    exit 1
fi

# ---- the images ----
n=0
for c in 0_0 1_0 0_1 1_1; do
    grep -q "node ${c/_/,} of 2x2 mesh, .* 2 records, .*its tables [0-9]* bytes at 0x" "$imgs/image-$c.log" && n=$((n + 1))
done
if [ "$n" = 4 ] && [ "$(find "$imgs" -name 'image-*.bin' | wc -l)" = 4 ]; then
    pass "board-mesh make board-images: an image per node, each with its node's tables"
else fail "board-mesh make board-images: an image per node, each with its node's tables" "$n of 4: $(cat "$imgs"/*.log | tr '\n' '|')"; fi
rm -f "$work/refused.bin"
if out_text=$("$tool" --coord 0,0 --shape 4x4 --torus -o "$work/refused.bin" "$elf" 2>&1); then
    fail "board-mesh board-image refuses a program built for another shape" "it succeeded: $out_text"
elif [[ "$out_text" != *"was built for the 2x2 mesh (its tables say so), this image is for the 4x4 torus"*"SHAPE=4x4t"* ]] ||
     [ -e "$work/refused.bin" ]; then
    fail "board-mesh board-image refuses a program built for another shape" "message or file: $out_text"
else pass "board-mesh board-image refuses a program built for another shape, writing nothing"; fi
# a byte of node 1's tables damaged in the ELF's package (past the package and area headers)
pkg_off=$(riscv64-unknown-elf-readelf -SW "$elf" | sed -n 's/.* \.rvmesh_package  *[A-Z_]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
cp "$elf" "$work/damaged.elf"
if [ -n "$pkg_off" ]; then
    # node 0's area is first: its total_bytes at 8
    area=$(od -An -tu4 -j $((0x$pkg_off + 32 + 8)) -N 4 "$elf" | tr -d ' ')
    printf '\125' | dd of="$work/damaged.elf" bs=1 seek=$((0x$pkg_off + 32 + area + 100)) conv=notrunc status=none
fi
if out_text=$("$tool" --coord 1,0 --shape 2x2 --mesh -o "$work/refused.bin" "$work/damaged.elf" 2>&1); then
    fail "board-mesh board-image refuses damaged tables" "it succeeded: $out_text"
elif [[ "$out_text" != *"tables for node 1"*"build it again"* ]] || [ -e "$work/refused.bin" ]; then
    fail "board-mesh board-image refuses damaged tables" "message or file: $out_text"
else pass "board-mesh board-image refuses damaged tables, writing nothing"; fi

# ---- the same ELF on mesh-sim (in the background, beside the testbench's compile): the
# torus's, on mesh-sim-2x2t, which test_mesh_threads.sh builds too ----
(make -C "$prog" RVMESH="$root" RVMESH_BUILD="$root/$BUILD" OUT="$root/$work/prog-t" SHAPE=2x2t \
    TIMEOUT=400000 run >"$work/mesh-sim.out" 2>&1; echo $? >"$work/mesh-sim.rc") &
sim_pid=$!
# the four boards' simulator (boards.mk: tests/boards/tb_board_mesh.v with board_icebreaker)
if ! make -C boards BOARD=icebreaker board-mesh-sim >"$work/build.log" 2>&1; then
    fail board-mesh-build "make -C boards board-mesh-sim failed: $(tail_of "$work/build.log" 3) $(grep -m 3 -i error "$B/mesh-sim/build.log" | tr '\n' ' ')"
    wait $sim_pid
    exit 1
fi
wait $sim_pid
if [ "$(cat "$work/mesh-sim.rc")" = 0 ] && [ "$(grep -c '^\[[0-9],[0-9]\] board_mesh: node [0-3] ok:' "$work/mesh-sim.out")" = 4 ]; then
    pass "board-mesh the same ELF on mesh-sim's 2x2 torus: every node ok"
else fail "board-mesh the same ELF on mesh-sim's 2x2 torus: every node ok" "$(tail_of "$work/mesh-sim.out" 4)"; fi

# ---- the boards: all cables, board 0's +x cable taken out, and the torus, side by side ----
# boards/scripts/board_mesh_run.sh: the images' hex files, the run, exit 0 when all four exit 0
sim=$B/mesh-sim/Vtb_board_mesh
run=boards/scripts/board_mesh_run.sh
# the kit's own target (make board-sim: the images, the simulator, board_mesh_run.sh); board 3
# starts 600,000 cycles after board 0: longer than the program's call timeout
make -C "$prog" RVMESH="$root" RVMESH_BUILD="$root/$BUILD" OUT="$root/$out" TIMEOUT=400000 \
    board-sim RUN_ARGS=+start_skew=200000 >"$work/good.out" 2>&1 &
good_pid=$!
"$run" "$sim" "$work/prog-t/board-icebreaker" --torus >"$work/torus.out" 2>&1 &
torus_pid=$!
# (rvm_init waits for that link for ever: the run ends at its cycle limit, status 1; the boot alone is
# about 1.3 million (51 KB of image), then a timeout's worth (400,000) before the boards name the
# link, then their messages at 115,200 baud; all done by 2 million)
"$run" "$sim" "$imgs" +cut_board=0 +cut_port=0 +max_cycles=2200000 >"$work/cut.out" 2>&1
cut_rc=$?
wait $good_pid
good_rc=$?
wait $torus_pid
torus_rc=$?

o="$work/good.out"
n=0
for i in 0 1 2 3; do
    grep -q "^UART$i: rvmesh boot: node $((i % 2)),$((i / 2)) of 2x2 mesh, " "$o" && n=$((n + 1))
done
[ "$n" = 4 ] && pass "board-mesh every board boots its own node's image from its flash" ||
    fail "board-mesh every board boots its own node's image from its flash" "$n of 4: $(grep 'rvmesh boot:' "$o" | tr '\n' '|')"
n=0
for i in 0 1 2 3; do grep -q "^UART$i: board_mesh: node $i ok: bcast x2, scatter, gather, allgather, alltoall, allreduce, reduce_scatter, barrier" "$o" && n=$((n + 1)); done
[ "$n" = 4 ] && pass "board-mesh bcast (two roots), scatter, gather, allgather, alltoall, allreduce, reduce_scatter, barrier byte-exact on every board" ||
    fail "board-mesh bcast (two roots), scatter, gather, allgather, alltoall, allreduce, reduce_scatter, barrier byte-exact on every board" "$n of 4: $(grep -v ': *$' "$o" | tail -n 8 | tr '\n' '|')"
if [ "$good_rc" = 0 ] && grep -q '^RESULT mesh exited 4 of 4 ' "$o"; then pass "board-mesh all four boards exit 0 (make board-sim: status 0)"
else fail "board-mesh all four boards exit 0" "$(grep RESULT "$o" | tr '\n' '|')"; fi
# link LEDs (port 3..0: -y +y -x +x): board 0 +x +y, 1 -x +y, 2 +x -y, 3 -x -y
if grep -q '^RESULT board 0 exited 0 links 0101$' "$o" && grep -q '^RESULT board 1 exited 0 links 0110$' "$o" &&
   grep -q '^RESULT board 2 exited 0 links 1001$' "$o" && grep -q '^RESULT board 3 exited 0 links 1010$' "$o"; then
    pass "board-mesh each board's link LEDs show its cabled ports up, the others down"
else fail "board-mesh each board's link LEDs show its cabled ports up, the others down" "$(grep 'RESULT board' "$o" | tr '\n' '|')"; fi

o="$work/cut.out"
if grep -q '^UART0: node (0,0): rvm_init: waiting for link +x to node (1,0): it is down' "$o" &&
   grep -q '^UART1: node (1,0): rvm_init: waiting for link -x to node (0,0): it is down' "$o" &&
   [ "$(grep -c 'waiting for link' "$o")" = 2 ] && ! grep -q 'board_mesh: node' "$o" &&
   [ "$(grep -c '^RESULT board [0-3] running ' "$o")" = 4 ] && [ "$cut_rc" = 1 ]; then
    pass "board-mesh a cable taken out: both its boards name the link that is down and wait in rvm_init, no collective runs"
else fail "board-mesh a cable taken out: both its boards name the link that is down and wait in rvm_init, no collective runs" "$(grep -v ': *$' "$o" | tail -n 8 | tr '\n' '|')"; fi
if grep -q '^RESULT board 0 running links 0100$' "$o" && grep -q '^RESULT board 1 running links 0100$' "$o" &&
   grep -q '^RESULT board 2 running links 1001$' "$o"; then
    pass "board-mesh a cable taken out: both its boards show that link down"
else fail "board-mesh a cable taken out: both its boards show that link down" "$(grep 'RESULT board' "$o" | tr '\n' '|')"; fi

o="$work/torus.out"
n=0
for i in 0 1 2 3; do
    grep -q "^UART$i: rvmesh boot: node $((i % 2)),$((i / 2)) of 2x2 torus, " "$o" &&
        grep -q "^UART$i: board_mesh: node $i ok: " "$o" && grep -q "^RESULT board $i exited 0 links 1111$" "$o" &&
        n=$((n + 1))
done
if [ "$n" = 4 ] && [ "$torus_rc" = 0 ] && grep -q '^RESULT mesh exited 4 of 4 ' "$o"; then
    pass "board-mesh the 2x2 torus (two cables a pair): every board's collectives byte-exact, every link up"
else fail "board-mesh the 2x2 torus (two cables a pair): every board's collectives byte-exact, every link up" "$n of 4: $(grep -v ': *$' "$o" | tail -n 8 | tr '\n' '|')"; fi
