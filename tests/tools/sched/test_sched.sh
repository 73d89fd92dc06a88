#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Schedule library, host side (tools/sched): the C test driver (sweeps, digest values, negative
# tests, tables), the schedgen command line, and make sched-tables. The node side on the core:
# tests/firmware/sched/test_sched_core.sh.
set -u
. tests/firmware/lib.sh
tmp="$BUILD/tests/sched.tmp"
mkdir -p "$tmp"

if make -s sched-test-bin >"$tmp/build.log" 2>&1; then pass "sched: host library, schedgen and test driver build (-Wall -Wextra -Werror)"
else fail "sched: build" "$(tail -n 5 "$tmp/build.log" | tr '\n' ' ')"; exit 1; fi
gen="$BUILD/bin/schedgen"

# The C driver prints its own PASS/FAIL lines; a crash or an exit without a FAIL line is
# a failure of its own.
run_driver "sched_test" "$tmp/sched_test.out" "$BUILD/sched/sched_test"

if make -q "$BUILD/bin/schedgen" "$BUILD/sched/sched_test" 2>/dev/null; then pass "sched: a second make rebuilds nothing"
else fail "sched: second make" "make -q says the tool is out of date right after building it"; fi

# Bad arguments: clear message, exit status 2.
bad() {  # name, expected text, args...
    local name="$1" want="$2"; shift 2
    "$gen" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ "$rc" -eq 2 ] && grep -q -- "$want" "$tmp/err"; then pass "schedgen refuses $name"
    else fail "schedgen refuses $name" "exit $rc, stderr: $(head -c 200 "$tmp/err")"; fi
}
bad "a missing --shape" "missing --shape" --torus --algo tsay-wang
bad "a malformed shape" "bad --shape" --shape 8by8 --torus --algo tsay-wang
bad "a side of 1" "at least 2" --shape 1x8 --torus --algo tsay-wang   # (a line: the lines' broadcasts only)
bad "a side of 0" "every side length must be at least 2" --shape 0x8 --torus --algo saf-bcast
bad "a side past 16 bits" "a side length is above 1024" --shape 70000x8 --torus --algo saf-bcast
bad "an unknown algorithm" "unknown --algo" --shape 8x8 --torus --algo foo
bad "an unknown option" "unknown option" --shape 8x8 --torus --algo saf-bcast --bogus
bad "a root outside the shape" "outside the shape" --shape 8x8 --torus --algo saf-bcast --root 8,0
bad "a root with the wrong arity" "one coordinate per dimension" --shape 8x8 --torus --algo saf-bcast --root 1,2,3
bad "tsay-wang on a mesh" "needs a torus" --shape 8x8 --mesh --algo tsay-wang
bad "cang-wu on 6x6" "2^k x 2^k" --shape 6x6 --mesh --algo cang-wu
bad "no mesh/torus choice" "--mesh or --torus" --shape 8x8 --algo saf-bcast

# --check, --dump, --tables, --svg on one schedule each.
if "$gen" --shape 5x5 --torus --algo tsay-wang --root 0,0 --check --dump "$tmp/tw5.txt" --svg "$tmp/tw5.svg" \
        --tables "$tmp/tw5.bin" >"$tmp/out" 2>&1 && grep -q "check: PASS steps 2 messages 24 total_distance 42" "$tmp/out"; then
    pass "schedgen --check: tsay-wang 5x5 torus passes in 2 steps, 24 messages, 42 hops"
else fail "schedgen --check tsay-wang 5x5" "$(head -c 300 "$tmp/out")"; fi
n=$(grep -vc '^#' "$tmp/tw5.txt"); badlines=$(grep -v '^#' "$tmp/tw5.txt" | grep -Evc '^[0-9]+ [0-9]+,[0-9]+ [0-9]+,[0-9]+ [0-9] [+-]$')
if [ "$n" -eq 24 ] && [ "$badlines" -eq 0 ]; then pass "dump: one line per message, 'step src dst start_dim dir'"
else fail "dump format" "$n lines, $badlines malformed"; fi
# Golden: digest B5 example d=2 n=5, step 1 (dims 1-based there, 0-based here).
printf '1 0,0 1,1 0 +\n1 0,0 2,2 1 +\n1 0,0 3,3 1 -\n1 0,0 4,4 0 -\n' >"$tmp/gold1"
if diff <(grep '^1 ' "$tmp/tw5.txt" | sort) "$tmp/gold1" >/dev/null; then pass "dump: tsay-wang 5x5 step 1 equals the digest's golden example"
else fail "dump golden" "$(grep '^1 ' "$tmp/tw5.txt" | tr '\n' ';')"; fi
if [ "$(grep -c '^2 ' "$tmp/tw5.txt")" -eq 20 ] && [ -z "$(grep '^2 ' "$tmp/tw5.txt" | awk '{split($2,s,",");split($3,t,","); if (s[1]!=s[2]) print}')" ]; then
    pass "dump: tsay-wang 5x5 step 2 has 20 messages, all from diagonal nodes (digest)"
else fail "dump golden step 2" "unexpected step 2"; fi
if head -c 5 "$tmp/tw5.svg" | grep -q '<?xml' && tail -n 1 "$tmp/tw5.svg" | grep -q '</svg>' &&
        [ "$(grep -c '<g id="step' "$tmp/tw5.svg")" -eq 2 ] && lines=$(grep -o "<line" "$tmp/tw5.svg" | wc -l) && [ "$lines" -ge 42 ] && [ "$lines" -le 84 ]; then
    pass "svg: well-formed ends, one group per step, one or two lines (wrap) per hop, 42 hops"
else fail "svg" "structure differs"; fi
if "$gen" --shape 5x5 --torus --verify-tables "$tmp/tw5.bin" >"$tmp/out" 2>&1; then pass "tables: schedgen --verify-tables accepts the tables for their shape"
else fail "tables verify" "$(cat "$tmp/out")"; fi
"$gen" --shape 5x6 --torus --verify-tables "$tmp/tw5.bin" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 1 ] && grep -q "another machine shape" "$tmp/err"; then pass "tables: refused for another shape with a clear message"
else fail "tables refusal" "exit $rc: $(cat "$tmp/err")"; fi
size=$(stat -c %s "$tmp/tw5.bin")
want=$((25 * 48 + 24 * 20 + 24 * 12))
if [ "$size" -eq "$want" ]; then pass "tables: file size = 25 headers + 24 sends + 24 receives ($want bytes)"
else fail "tables size" "$size bytes, expected $want"; fi

# --stats: per-step messages and hops of Tsay-Wang 7x7x7 (digest B5: 6/42/42/252 messages,
# 36/266/147/504 hops, longest 9/7/6/3).
"$gen" --shape 7x7x7 --torus --algo tsay-wang --stats --quiet >"$tmp/out" 2>&1
if [ "$(awk 'NR>1{printf "%s/%s/%s/%s ", $1,$2,$3,$4}' "$tmp/out")" = "1/6/36/9 2/42/266/7 3/42/147/6 4/252/504/3 " ]; then
    pass "schedgen --stats: tsay-wang 7x7x7 per-step messages, hops, longest route = digest B5"
else fail "schedgen --stats" "$(tr '\n' ';' <"$tmp/out")"; fi

# Every algorithm through the CLI once, checked.
for args in "--shape 8x8 --mesh --algo cang-wu --root 0,0" "--shape 8x8 --mesh --algo cang-wu-dp --root 2,3" \
            "--shape 4x5x3 --mesh --algo saf-bcast --root 1,2,1" "--shape 7x6 --torus --algo scatter --root 3,3" \
            "--shape 6x5 --mesh --algo gather --root 0,4" "--shape 7x7x7 --torus --algo tsay-wang --root 1,2,3"; do
    if "$gen" $args --check --quiet >"$tmp/out" 2>&1 && grep -q "check: PASS" "$tmp/out"; then pass "schedgen $args --check"
    else fail "schedgen $args --check" "$(head -c 300 "$tmp/out")"; fi
done
# make sched-tables for a configured machine (own BUILD directory, so the shared build's
# config header is not touched): the algorithms that apply, valid for that shape only.
cfg="$tmp/cfg"
rm -rf "$cfg"
if make -s BUILD="$cfg" MESH_DIMS=2 MESH_X=4 MESH_Y=4 MESH_TORUS=1 sched-tables >"$tmp/cfg.log" 2>&1 &&
        [ "$(ls "$cfg/sched/tables/4x4-torus/"*.tbl | wc -l)" -eq 11 ] &&
        "$gen" --shape 4x4 --torus --verify-tables "$cfg/sched/tables/4x4-torus/mnb-opt.tbl" >/dev/null &&
        "$gen" --shape 4x4 --torus --verify-tables "$cfg/sched/tables/4x4-torus/tsay-wang.tbl" >/dev/null &&
        ! "$gen" --shape 4x4 --mesh --verify-tables "$cfg/sched/tables/4x4-torus/tsay-wang.tbl" >/dev/null 2>&1; then
    pass "make sched-tables: 11 checked tables for a 4x4 torus (6 broadcast/scatter/gather, bcast-edst, bcast-binomial, mnb-opt, allgather-ring, alltoall-pairwise), valid for it and refused for a 4x4 mesh"
else fail "make sched-tables 4x4 torus" "$(tail -n 3 "$tmp/cfg.log" | tr '\n' ' ')"; fi
if make -s BUILD="$cfg" MESH_DIMS=2 MESH_X=6 MESH_Y=5 MESH_TORUS=0 sched-tables >"$tmp/cfg.log" 2>&1 &&
        [ "$(ls "$cfg/sched/tables/6x5-mesh/"*.tbl | wc -l)" -eq 7 ] && [ -f "$cfg/sched/tables/6x5-mesh/allgather-ring.tbl" ] &&
        make -s BUILD="$cfg" MESH_DIMS=2 MESH_X=5 MESH_Y=5 MESH_TORUS=0 sched-tables >"$tmp/cfg.log" 2>&1 &&
        [ "$(ls "$cfg/sched/tables/5x5-mesh/"*.tbl | wc -l)" -eq 6 ] && [ ! -f "$cfg/sched/tables/5x5-mesh/allgather-ring.tbl" ]; then
    pass "make sched-tables: a 6x5 mesh gets the 7 algorithms that apply (saf-bcast, scatter, gather, bcast-edst, bcast-binomial, alltoall-pairwise, allgather-ring), a 5x5 mesh all but allgather-ring"
else fail "make sched-tables 6x5 mesh" "$(tail -n 3 "$tmp/cfg.log" | tr '\n' ' ')"; fi
rm -rf "$cfg"
exit 0
