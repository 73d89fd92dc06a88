#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 1800
# The board flow as a user runs it: `make -C boards BOARD=icebreaker` (yosys synth_ice40,
# nextpnr-ice40 with config.mk's fixed seed, icepack) must write report.json with exactly
# its eight fields, of the right types, and its verdict must agree with them: exit 0 only
# with lc_used <= lc_total, fmax_mhz >= target_mhz and a bitstream; otherwise a failing
# make with a DOES NOT FIT / TIMING / place-and-route line, and no bitstream left behind.
# Also: make -C boards help, and an unknown BOARD refused with the list of profiles.
set -u
. tests/lib.sh
need_tool board-flow yosys nextpnr-ice40 icepack icepll jq || exit 1
work="$BUILD/tests/board-flow"
mkdir -p "$work"
B=boards/build/icebreaker

if out=$(make -s -C boards help 2>&1) && grep -q 'prog ' <<<"$out" && grep -q 'estimate' <<<"$out"; then
    pass "board-flow help lists the targets"
else fail "board-flow help lists the targets" "$(head -n 3 <<<"$out" | tr '\n' '|')"; fi
if out=$(make -s -C boards BOARD=nosuchboard report 2>&1); then
    fail "board-flow refuses an unknown board" "make succeeded: $out"
elif grep -q "unknown BOARD 'nosuchboard'.*icebreaker" <<<"$out"; then
    pass "board-flow refuses an unknown board"
else fail "board-flow refuses an unknown board" "$(tail_of <(echo "$out") 2)"; fi

start=$SECONDS
rm -f "$B/report.json" "$B/board_icebreaker.bin"
make -C boards BOARD=icebreaker >"$work/make.log" 2>&1
rc=$?
echo "board flow: make exited $rc after $((SECONDS - start)) s"
report="$B/report.json"
if [ ! -s "$report" ]; then
    fail "board-flow writes report.json" "no $report (make exited $rc): $(tail_of "$work/make.log" 3)"
    exit 0
fi
keys=$(jq -r 'keys_unsorted | join(",")' "$report" 2>/dev/null)
if [ "$keys" = "device,lc_used,lc_total,ebr_used,spram_used,dsp_used,fmax_mhz,target_mhz" ]; then
    pass "board-flow report.json has exactly its eight fields"
else fail "board-flow report.json has exactly its eight fields" "keys: $keys"; fi
if jq -e '(.device | type == "string") and ([.lc_used, .lc_total, .ebr_used, .spram_used, .dsp_used, .target_mhz] | all(type == "number"))
          and (.fmax_mhz == null or (.fmax_mhz | type == "number")) and .lc_total == 5280 and .target_mhz > 0' \
        "$report" >/dev/null; then
    pass "board-flow report.json fields are numbers (fmax_mhz null only when not routed)"
else fail "board-flow report.json fields are numbers (fmax_mhz null only when not routed)" "$(tr '\n' ' ' <"$report")"; fi
echo "report.json: $(jq -c . "$report")"
fits=$(jq -r 'if .fmax_mhz != null and .lc_used <= .lc_total and .fmax_mhz >= .target_mhz then 1 else 0 end' "$report")
if [ "$fits" = 1 ]; then
    if [ "$rc" -eq 0 ] && [ -s "$B/board_icebreaker.bin" ] && grep -q 'boards: fits' "$work/make.log"; then
        pass "board-flow: the design fits, meets timing, and the bitstream is written"
    else fail "board-flow: the design fits, meets timing, and the bitstream is written" "make $rc: $(tail_of "$work/make.log" 2)"; fi
else
    if [ "$rc" -ne 0 ] && grep -qE 'boards: (DOES NOT FIT|TIMING NOT MET|place and route failed)' "$work/make.log"; then
        pass "board-flow: the design does not fit or meet timing yet, and make says so and fails"
    else fail "board-flow: the design does not fit or meet timing yet, and make says so and fails" "make $rc: $(tail_of "$work/make.log" 2)"; fi
    if jq -e '.fmax_mhz == null' "$report" >/dev/null && [ -e "$B/board_icebreaker.bin" ]; then
        fail "board-flow leaves no bitstream of an unrouted design" "$B/board_icebreaker.bin exists"
    else pass "board-flow leaves no bitstream of an unrouted design"; fi
fi
