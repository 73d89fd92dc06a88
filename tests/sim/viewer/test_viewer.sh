#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The replay viewer (mesh-sim --view, sim/viewer/viewer.html), in a real browser:
#   - an allgather on config.mk's 4x4 torus with --view and --view-trace: the trace agrees
#     with mesh-sim's own counts (flits per link as --links prints them, every flit in a
#     recorded worm, every worm's hops a path from its source to its destination, one worm
#     per message of the schedule tagged with its step, instructions per window);
#   - the page, opened offline in headless Chromium (Debian's, driven by playwright-core from
#     tools/browser): no request leaves the file, one element per node and per link, the
#     cycle counter advances on play and stops on pause, keys move it, the step counter
#     advances through the collective while it plays, worms are drawn, a node's counters
#     show on a click, the time line seeks; a screenshot is kept; other shapes (a 3x3x3
#     torus, a 5x3 mesh) drawn from traces loaded into the page;
#   - the same on the 4x4 mesh (mesh-sim-4x4m, mnb-diag): 48 links, not 64;
#   - --view into a folder that does not exist is refused before the run (exit 121).
# test-timeout: 600
set -u
. tests/lib.sh
sim="$BUILD/bin/mesh-sim"
mesh="$BUILD/bin/mesh-sim-4x4m"
sg="$BUILD/bin/schedgen"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
work="$BUILD/tests/sim-viewer"
rm -rf "$work"
mkdir -p "$work"

make_or_fail viewer-build "$work/make.log" mesh-sim mesh-sim-4x4m schedgen "$elf" || exit 1
need_tool viewer-tools node || exit 1
need_exe viewer-chromium "${CHROMIUM:-/usr/bin/chromium}" "Chromium (make deps installs it)" || exit 1
pass viewer-build

# view NAME MODEL SHAPE NODES LINKS: an allgather of 16-byte blocks (mnb-opt on a torus,
# mnb-diag on a mesh) with --view and
# --view-trace, then the trace's and the page's checks
view() {
    local name="$1" model="$2" shape="$3" nodes="$4" links="$5" torus=--torus algo=mnb-opt
    [ "${shape: -1}" = m ] && torus=--mesh algo=mnb-diag
    "$sg" --shape "${shape%?}" $torus --algo $algo --root 1,1 --check --quiet --tables "$work/$name.tbl" \
        >"$work/$name.sched" 2>&1 || { fail "$name-schedule" "schedgen: $(tail_of "$work/$name.sched" 1)"; return; }
    local messages steps
    messages=$(grep -o 'messages [0-9]*' "$work/$name.sched" | cut -d' ' -f2)
    steps=$(grep -o 'steps [0-9]*' "$work/$name.sched" | cut -d' ' -f2)
    "$model" --elf "$elf" --job "$work/$name.tbl:16" --links --view "$work/$name.html" \
        --view-trace "$work/$name.json" >"$work/$name.out" 2>"$work/$name.err"
    local rc=$?
    if [ "$rc" -ne 0 ] || [ ! -s "$work/$name.html" ] || [ ! -s "$work/$name.json" ]; then
        fail "$name-run" "exit $rc, page $(stat -c %s "$work/$name.html" 2>/dev/null) bytes: $(tail_of "$work/$name.err" 2)"
        return
    fi
    pass "$name-run" "$(grep -o 'cycles=[0-9]*' "$work/$name.err"), page $(stat -c %s "$work/$name.html") bytes"
    run_driver "$name-trace" "$work/$name.trace.log" node tests/sim/viewer/trace_check.mjs "$work/$name.json" \
        "$work/$name.out" "$name" "$messages" "$steps"
    run_driver "$name-page" "$work/$name.page.log" node tests/sim/viewer/viewer_check.mjs "$work/$name.html" \
        "$name" "$nodes" "$links" "$work/$name.png" --steps
}

view viewer-4x4t "$sim" 4x4t 16 64
view viewer-4x4m "$mesh" 4x4m 16 48

# an output that cannot be written is refused before the run, with nothing written
"$sim" --elf "$elf" --view "$work/no/such/folder/v.html" >"$work/refused.out" 2>"$work/refused.err"
rc=$?
if [ "$rc" -eq 121 ] && grep -q -- "--view" "$work/refused.err" && ! grep -q cycles= "$work/refused.err"; then
    pass viewer-refused "exit 121: $(head -c 120 "$work/refused.err")"
else
    fail viewer-refused "exit $rc: $(tail_of "$work/refused.err" 2)"
fi
