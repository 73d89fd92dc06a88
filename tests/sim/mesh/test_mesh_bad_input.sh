#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# mesh-sim's --job, --report, --junit, --link-svg and --pc-trace refuse bad input with the
# exact message and exit status before the simulation runs, and write nothing: --link-svg
# without --job (120); --job with BYTES zero, not a number or too big, or SEED
# not a number or too big (120); a tables file damaged in place (checksum, same length),
# empty, or cut at a table boundary (120); output files that cannot be created (121). An
# existing report is left as it was. A report that cannot be written after the run
# (/dev/full) makes the status 121. The other --job refusals (another shape, a size not a
# multiple of 4, no BYTES, a missing or cut file, no jobs area) are in test_jobs_bench.sh.
set -u
. tests/lib.sh
. tests/sim/mesh/lib.sh
work="$BUILD/tests/mesh-bad-input"
rm -rf "$work"
mkdir -p "$work"

make_or_fail mesh-bad-input-build "$work/make.log" mesh-sim schedgen build/fw/firmware/apps/mesh/collectives.elf || exit 1
pass mesh-bad-input-build
sim="$BUILD/bin/mesh-sim"
gen="$BUILD/bin/schedgen"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
mesh_want_4x4_torus mesh-bad-input-shape

tbl="$work/bcast.tbl"
if ! "$gen" --shape 4x4 --torus --algo tsay-wang --root 0,0 --quiet --tables "$tbl" >"$work/gen.log" 2>&1; then
    fail mesh-bad-input-tables "schedgen could not write the tables: $(tail_of "$work/gen.log")"
    exit 1
fi

# refuse NAME STATUS TEXT ARGS...: mesh-sim --elf collectives.elf ARGS exits with STATUS,
# prints "mesh-sim: " + TEXT (a fixed string) on stderr, runs nothing (stdout empty) and
# leaves no file named $work/out.*.
refuse() {
    local name="$1" want="$2" text="$3" rc left
    shift 3
    rm -f "$work"/out.*
    "$sim" --elf "$elf" "$@" >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    left=$(ls "$work"/out.* 2>/dev/null | tr '\n' ' ')
    if [ "$rc" -ne "$want" ]; then
        fail "$name" "exit status $rc, expected $want: $(tail_of "$work/$name.err")"
    elif ! grep -qF -- "mesh-sim: $text" "$work/$name.err"; then
        fail "$name" "stderr lacks 'mesh-sim: $text': $(tail_of "$work/$name.err")"
    elif [ -s "$work/$name.out" ]; then
        fail "$name" "it ran (stdout not empty): $(tail_of "$work/$name.out")"
    elif [ -n "$left" ]; then
        fail "$name" "files left behind: $left"
    else
        pass "$name"
    fi
}
# every refusal below also names outputs in a writable folder: none may appear
out=(--report "$work/out.json" --junit "$work/out.xml" --link-svg "$work/out.svg" --pc-trace "5:$work/out.txt")

# --- --link-svg draws jobs (--report and --junit describe any run: test_mesh_report.sh)
refuse svg-without-job 120 "--link-svg draws the links of jobs: give at least one --job" --link-svg "$work/out.svg"

# --- --job TABLES:BYTES[:SEED]: decimal numbers, BYTES above 0, both below 2^32
refuse bytes-zero 120 "--job '$tbl:0': the message size 0 is out of range: give 4 bytes or more (a multiple of 4), below 2^32" \
    --job "$tbl:0" "${out[@]}"
refuse bytes-not-a-number 120 "--job '$tbl:abc': the message size 'abc' is not a decimal number of bytes (--job TABLES:BYTES[:SEED]" \
    --job "$tbl:abc" "${out[@]}"
refuse bytes-negative 120 "--job '$tbl:-4': the message size '-4' is not a decimal number of bytes" --job "$tbl:-4" "${out[@]}"
refuse bytes-too-big 120 "--job '$tbl:99999999999': the message size 99999999999 is out of range" --job "$tbl:99999999999" "${out[@]}"
refuse seed-not-a-number 120 "--job '$tbl:64:x': the seed 'x' is not a decimal number (--job TABLES:BYTES[:SEED]" \
    --job "$tbl:64:x" "${out[@]}"
refuse seed-empty 120 "--job '$tbl:64:': the seed '' is not a decimal number" --job "$tbl:64:" "${out[@]}"
refuse seed-too-big 120 "--job '$tbl:64:4294967296': the seed 4294967296 is out of range: give 0 .. 4294967295" \
    --job "$tbl:64:4294967296" "${out[@]}"

# --- tables files damaged in place (same length: only the checksum can tell), empty, short
table_at() {   # table_at K: the byte offset of node K's table in $tbl
    local k off=0
    for ((k = 0; k < $1; k++)); do off=$((off + $(od -An -t u4 -j $((off + 8)) -N 4 "$tbl" | tr -d ' '))); done
    echo "$off"
}
flip() {   # flip FILE OFFSET: one bit of the byte at OFFSET inverted
    local byte
    byte=$(od -An -t u1 -j "$2" -N 1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
cp "$tbl" "$work/damaged5.tbl"
flip "$work/damaged5.tbl" $(($(table_at 5) + 44))   # a reserved header byte of node 5 ([1,1])
cp "$tbl" "$work/damaged0.tbl"
flip "$work/damaged0.tbl" 44
if cmp -s "$tbl" "$work/damaged5.tbl" || cmp -s "$tbl" "$work/damaged0.tbl" ||
   [ "$(stat -c %s "$work/damaged5.tbl")" -ne "$(stat -c %s "$tbl")" ]; then
    fail tables-damaged "the damaged copies are not damaged in place"
else
    refuse tables-damaged 120 "--job: '$work/damaged5.tbl': the table of node [1,1]: table checksum mismatch (damaged); regenerate the file with schedgen --tables" \
        --job "$work/damaged5.tbl:64" "${out[@]}"
    refuse tables-damaged-first 120 "--job: '$work/damaged0.tbl' is not a valid tables file: table checksum mismatch (damaged); regenerate the file with schedgen --tables" \
        --job "$work/damaged0.tbl:64" "${out[@]}"
fi
: >"$work/empty.tbl"
refuse tables-empty 120 "--job: the tables file '$work/empty.tbl' is empty; write it with schedgen --tables" \
    --job "$work/empty.tbl:64" "${out[@]}"
head -c "$(table_at 1)" "$tbl" >"$work/one-table.tbl"
refuse tables-one-of-16 120 "--job: '$work/one-table.tbl': the table of node [1,0]: table belongs to another node (the file holds fewer tables than this machine has nodes: truncated?); regenerate" \
    --job "$work/one-table.tbl:64" "${out[@]}"

# --- output files that cannot be created: 121 before the run
refuse report-no-folder 121 "--report: cannot write '$work/no-such-folder/r.json': No such file or directory; give a file in an existing folder you can write to" \
    --job "$tbl:64" --report "$work/no-such-folder/r.json" --link-svg "$work/out.svg"
refuse junit-no-folder 121 "--junit: cannot write '$work/no-such-folder/j.xml': No such file or directory; give a file in an existing folder you can write to" \
    --job "$tbl:64" --junit "$work/no-such-folder/j.xml" --report "$work/out.json"
refuse svg-is-folder 121 "--link-svg: cannot write '$work': Is a directory" \
    --job "$tbl:64" --report "$work/out.json" --link-svg "$work"
refuse pc-trace-no-folder 121 "--pc-trace: cannot write '$work/no-such-folder/pc.txt': No such file or directory" \
    --job "$tbl:64" --report "$work/out.json" --pc-trace "5:$work/no-such-folder/pc.txt"

# --- an existing report is left as it was when the run is refused
echo "old report" >"$work/keep.json"
refuse keep-existing 120 "--job: '$work/damaged5.tbl': the table of node [1,1]: table checksum mismatch" \
    --job "$work/damaged5.tbl:64" --report "$work/keep.json"
if [ "$(cat "$work/keep.json")" = "old report" ]; then pass keep-existing-untouched
else fail keep-existing-untouched "$work/keep.json was changed by a refused run"; fi

# --- the good run still writes its report and picture; a report that cannot be written after
# the run (a full disk) makes the status 121
rm -f "$work"/out.*
"$sim" --elf "$elf" --quiet --job "$tbl:64" --report "$work/out.json" --link-svg "$work/out.svg" \
    >"$work/good.out" 2>"$work/good.err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '"jobs"' "$work/out.json" && grep -q '</svg>' "$work/out.svg"; then
    pass good-run-writes-outputs
else
    fail good-run-writes-outputs "exit status $rc, report or picture missing: $(tail_of "$work/good.err")"
fi
if [ -w /dev/full ]; then
    "$sim" --elf "$elf" --quiet --job "$tbl:64" --report /dev/full >"$work/full.out" 2>"$work/full.err"
    rc=$?
    if [ "$rc" -eq 121 ] && grep -qF "mesh-sim: cannot write '/dev/full'" "$work/full.err"; then
        pass report-fails-after-run
    else
        fail report-fails-after-run "exit status $rc, expected 121: $(tail_of "$work/full.err")"
    fi
else
    skip report-fails-after-run "no writable /dev/full on this machine"
fi

# --- --help lists these refusals beside their statuses
"$sim" --help >"$work/help.out" 2>&1
if grep -qF "120      bad command line, also: a --job whose BYTES or SEED is not a decimal" "$work/help.out" &&
   grep -qF "121      cannot open or read the ELF file, or cannot write an output file" "$work/help.out" &&
   grep -qF "124      a segment does not fit in a node's RAM (too big, below RAM_BASE or" "$work/help.out"; then
    pass help-exit-statuses
else
    fail help-exit-statuses "mesh-sim --help does not list the refusals: $(grep -A2 '^  12[0-4]' "$work/help.out" | tr '\n' '|' | cut -c1-300)"
fi
exit 0
