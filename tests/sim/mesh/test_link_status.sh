#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The links' counters read by the firmware through the NI (LINK_STATUS(p): ni_link_errors,
# ni_link_retries). progs/link_status.c exchanges 8 worms of 64 words with every neighbour,
# checks every word, waits until all traffic is over and prints its ports' counters. On the
# protected machine (mesh-sim-4x4t-guard) with flits damaged, the counts the 16 nodes read
# add up to mesh-sim's own totals (link-errors=, retries=), exactly; without damage, and on
# the plain machine, every count a node reads is 0.
set -u
. tests/lib.sh
. tests/sim/mesh/lib.sh
work="$BUILD/tests/mesh-link-status"
rm -rf "$work"; mkdir -p "$work"
make_or_fail link-status-build "$work/make.log" mesh-sim-4x4t-guard mesh-sim-4x4t || exit 0
build_elf tests/sim/mesh/progs/link_status.c link-status-elf "$work/make.log" || exit 0
sim="$BUILD/bin/mesh-sim-4x4t-guard"
mesh_want_4x4_torus link-status-shape

# sums FILE: "errors retries" added up over the nodes' "links ... total E R" lines
sums() { awk '/\] links errors .* total / { e += $(NF - 1); r += $NF } END { print e + 0, r + 0 }' "$1"; }
# counter NAME FILE: mesh-sim's summary NAME=value
counter() { grep -o " $1=[0-9]*" "$2" | head -1 | cut -d= -f2; }

while read -r bin rate; do
    name="link-status: $bin, flips at $rate"
    out="$work/$bin-$rate.out"
    flips=(--flip-rate "$rate" --fault-seed 3)
    [ "$bin" = mesh-sim-4x4t ] && flips=()     # (plain links take no fault options)
    "$BUILD/bin/$bin" --elf "$elf" "${flips[@]}" --progress 0 >"$out" 2>&1; rc=$?
    lines=$(grep -c '\] links errors .* total ' "$out")
    read -r e r <<<"$(sums "$out")"
    me=$(counter link-errors "$out"); mr=$(counter retries "$out")
    if [ $rc -ne 0 ] || [ "$lines" != 16 ]; then
        fail "$name" "exit $rc, $lines of 16 nodes reported: $(tail_of "$out")"
    elif [ "$rate" = 0 ] && [ "$e $r" = "0 0" ] && [ "${me:-0}${mr:-0}" = 00 ]; then
        pass "$name: every word right, every count the nodes read 0"
    elif [ "$rate" != 0 ] && [ "$e" -gt 0 ] && [ "$e" = "$me" ] && [ "$r" = "$mr" ] && [ "$r" -ge "$e" ]; then
        pass "$name: every word right; the nodes read $e errors and $r retries, as mesh-sim counted"
    else fail "$name" "the nodes read errors $e retries $r; mesh-sim: link-errors=$me retries=$mr"; fi
done <<'RUNS'
mesh-sim-4x4t 0
mesh-sim-4x4t-guard 0
mesh-sim-4x4t-guard 1e-2
RUNS
rm -rf "$work"
