#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The iCE40 board's tile on the simulated machine: mesh-sim-4x4m-board is a 4x4 mesh of the
# tiles the board flow synthesises (config.mk's ROUTER_BOARD_* router: one VC, buffers in
# block RAM, injection channel j to link j only, route and allocation registered; the board
# core's options; one-word RAM lines), with plain wires for the board's link PHYs. The
# collectives program runs broadcast, scatter, gather, allgather and alltoall on it, each
# delivered byte for byte, checked by mesh-sim on every node; the same jobs on the default
# 4x4 mesh (mesh-sim-4x4m) for the ratio of their cycles.
set -u
. tests/lib.sh
. tests/sim/mesh/lib.sh
work="$BUILD/tests/mesh-board-tile"
rm -rf "$work"; mkdir -p "$work"
make_or_fail board-tile-build "$work/make.log" mesh-sim-4x4m-board mesh-sim-4x4m schedgen \
    build/fw/firmware/apps/mesh/collectives.elf || exit 0
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"

jobs=()
seed=1
for spec in cang-wu:1024 scatter:256 gather:256 mnb-diag:256 te-a3:256; do
    algo=${spec%%:*}
    if ! "$BUILD/bin/schedgen" --shape 4x4 --mesh --algo "$algo" --quiet --tables "$work/$algo.tbl" >"$work/gen.log" 2>&1; then
        fail "board-tile: schedgen $algo" "$(tail_of "$work/gen.log")"; exit 0
    fi
    jobs+=(--job "$work/$algo.tbl:${spec##*:}:$seed"); seed=$((seed + 1))
done

for model in mesh-sim-4x4m-board mesh-sim-4x4m; do
    out="$work/$model.out"
    "$BUILD/bin/$model" --elf "$elf" "${jobs[@]}" --progress 0 >"$out" 2>&1; rc=$?
    ok=$(grep -c '^[0-9] .* OK$' "$out")
    if [ $rc -eq 0 ] && [ "$ok" = 5 ] && grep -q '16/16 nodes exited, exit=0' "$out"; then
        pass "board-tile: $model, five collectives byte for byte"
    else fail "board-tile: $model" "exit $rc, $ok of 5 OK: $(tail_of "$out")"; fi
done

# the board's tile is slower (4 cycles a hop, a word per RAM access): each collective's
# cycles (column 6) on it, against the default tile's, at least 1 and below 10
ratios=$(paste <(awk '/^[0-9] .* OK$/ { print $2, $3, $6 }' "$work/mesh-sim-4x4m-board.out") \
               <(awk '/^[0-9] .* OK$/ { print $6 }' "$work/mesh-sim-4x4m.out") |
         awk '{ r = $3 / $4; printf "%s %s %.2f\n", $1, $2, r; if (r < 1 || r >= 10) bad = 1 } END { exit bad }')
if [ $? -eq 0 ] && [ "$(wc -l <<<"$ratios")" = 5 ]; then
    pass "board-tile: cycles against the default tile: $(echo $ratios)"
else fail "board-tile: cycles ratio" "want 5 ratios in [1, 10): $(echo $ratios)"; fi
rm -rf "$work"
