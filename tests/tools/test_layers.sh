#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-lane: beside (reads the tree; writes only a temporary folder)
# tools/layers.sh: the tree's C and C++ dependencies point one way. The tree itself must be clean;
# a copy with a planted cycle (by #include and by calls) and a planted upward call must fail,
# naming the files.
set -u
. "$(dirname "$0")/../lib.sh"
need_tool "layers" gcc tsort join realpath || exit 0

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# the tree as it is
if tools/layers.sh >"$out/tree.log" 2>&1; then
    pass "layers: $(tail -n 1 "$out/tree.log" | sed 's/^layers: //')"
else
    fail "layers: the tree has cycles or upward dependencies" "$(grep -v '^  ' "$out/tree.log" | head -n 5 | tr '\n' '|')"
fi

# the sources in a scratch copy (no build/, no node_modules)
copy="$out/tree"
mkdir -p "$copy"
find firmware tools sim kit boards \( -name node_modules -o -name build \) -prune -o \
     -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.sh' \) -print | tar -cf - -T - | tar -xf - -C "$copy"
if tools/layers.sh --root "$copy" --quiet >"$out/copy.log" 2>&1; then
    pass "layers: a plain copy of the sources is clean too (the planted problems below are all there is)"
else
    fail "layers: a plain copy of the sources is clean too" "$(head -n 3 "$out/copy.log" | tr '\n' '|')"
fi

# planted: a call from the node library up into a host generator
cat >>"$copy/firmware/sched/sched_shape.c" <<'EOF'

int sched_planted_upward(sched_schedule *s) { return sched_gen_saf_bcast(s, 0, 0); }
EOF
# planted: partial exchange and partial gather calling each other (pg already calls pe)
cat >>"$copy/tools/sched/exchange/sched_pe.c" <<'EOF'

int sched_planted_cycle(sched_schedule *out, const sched_shape *shape, const uint8_t *d) { return sched_sim_pg(out, shape, d, 0, 0); }
EOF
# planted: two headers that include each other
sed -i 's|#include <stdint.h>|#include <stdint.h>\n#include "sched_coll.h"|' "$copy/firmware/sched/sched.h"

tools/layers.sh --root "$copy" >"$out/planted.log" 2>&1
rc=$?
log="$out/planted.log"
if [ $rc -eq 1 ]; then pass "layers: a tree with planted problems fails (exit 1)"
else fail "layers: planted problems" "exit $rc, expected 1: $(tail_of "$log")"; fi
if grep -q '^upward: firmware/sched/sched_shape.c (layer 10) -> tools/sched/bcast/sched_saf.c (layer 60): calls sched_gen_saf_bcast' "$log"; then
    pass "layers: names the upward call (firmware/sched/sched_shape.c -> tools/sched/bcast/sched_saf.c)"
else fail "layers: upward call not named" "$(grep '^upward' "$log" | head -n 3 | tr '\n' '|')"; fi
if grep '^cycle:' "$log" | grep -q 'tools/sched/exchange/sched_pe.c' &&
   grep '^cycle:' "$log" | grep 'tools/sched/exchange/sched_pe.c' | grep -q 'tools/sched/exchange/sched_pg.c' &&
   grep -q '^  tools/sched/exchange/sched_pe.c -> tools/sched/exchange/sched_pg.c: calls sched_sim_pg' "$log"; then
    pass "layers: names the call cycle (sched_pe.c <-> sched_pg.c) and the call that closes it"
else fail "layers: call cycle not named" "$(grep '^cycle' "$log" | head -n 3 | tr '\n' '|')"; fi
if grep '^cycle:' "$log" | grep 'firmware/sched/sched.h' | grep -q 'firmware/sched/sched_coll.h' &&
   grep -q '^  firmware/sched/sched.h -> firmware/sched/sched_coll.h: #include' "$log"; then
    pass "layers: names the include cycle (sched.h <-> sched_coll.h)"
else fail "layers: include cycle not named" "$(grep '^cycle' "$log" | head -n 3 | tr '\n' '|')"; fi

# bad usage: exit 2 with a message that says what to do
tools/layers.sh --colour >"$out/bad.log" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q "unknown option '--colour' (try --help)" "$out/bad.log"; then
    pass "layers: an unknown option is refused (exit 2) with a hint"
else fail "layers: unknown option" "exit $rc: $(tail_of "$out/bad.log")"; fi
tools/layers.sh --root "$out" >"$out/bad.log" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q 'is not an rvmesh tree' "$out/bad.log"; then
    pass "layers: a folder that is not the tree is refused (exit 2)"
else fail "layers: --root elsewhere" "exit $rc: $(tail_of "$out/bad.log")"; fi

# the layout says what it is: each folder of the schedule library has its README, and the top
# README's layout table names every top-level folder
missing=""
for d in firmware/sched tools/sched tools/sched/*/; do
    d="${d%/}"
    [ -d "$d" ] && [ ! -f "$d/README.md" ] && missing="$missing $d"
done
if [ -z "$missing" ]; then pass "layout: every folder of the schedule library (firmware/sched, tools/sched/*) has a README.md"
else fail "layout: folders without a README.md" "$missing"; fi
unlisted=""
for d in */; do
    d="${d%/}"
    case "$d" in build) continue ;; esac
    grep -q "^| \`$d/\` |" README.md || unlisted="$unlisted $d"
done
if [ -z "$unlisted" ]; then pass "layout: README.md's layout table names every top-level folder"
else fail "layout: top-level folders missing from README.md's layout table" "$unlisted"; fi
