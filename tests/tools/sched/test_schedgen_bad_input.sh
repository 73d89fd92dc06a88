#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# schedgen refuses bad input with the exact message and exit status, and writes nothing when
# it refuses: malformed --root and --sources (exit 2), --verify-tables on a damaged file (bit
# flipped, truncated inside a table and at a table boundary, empty, not a tables file, bytes
# after the last table, a folder: exit 1), --dump/--tables/--svg files that cannot be
# created (exit 2, checked before any work: no "check: PASS", no file), and a write that
# fails part-way (/dev/full: exit 1). The good cases and the other refusals are in
# test_sched.sh and test_coll_cli.sh.
set -u
. tests/lib.sh
work="$BUILD/tests/schedgen-bad-input"
gen="$BUILD/bin/schedgen"
rm -rf "$work"
mkdir -p "$work"

make_or_fail schedgen-build "$work/make.log" schedgen || exit 1
pass schedgen-build

# refuse NAME STATUS TEXT ARGS...: schedgen ARGS must exit with STATUS and print TEXT (a fixed
# string) on stderr, and print nothing on stdout.
refuse() {
    local name="$1" want="$2" text="$3" rc
    shift 3
    "$gen" "$@" >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name" "exit status $rc, expected $want: $(tail_of "$work/$name.err")"
    elif ! grep -qF -- "$text" "$work/$name.err"; then
        fail "$name" "stderr lacks '$text': $(tail_of "$work/$name.err")"
    elif [ -s "$work/$name.out" ]; then
        fail "$name" "stdout should be empty on a refusal: $(tail_of "$work/$name.out")"
    else
        pass "$name"
    fi
}

tw=(--shape 4x4 --torus --algo tsay-wang)

# --- --root: decimal coordinates, one per dimension, inside the shape (exit 2)
refuse root-not-a-number 2 "bad --root '1,x': give one coordinate per dimension as decimal numbers joined by commas, like 3,4" "${tw[@]}" --root 1,x
refuse root-trailing-comma 2 "bad --root '1,': give one coordinate per dimension as decimal numbers" "${tw[@]}" --root 1,
refuse root-empty 2 "bad --root '': give one coordinate per dimension (this shape has 2), like 3,4" "${tw[@]}" --root ""
refuse root-negative 2 "bad --root '-1,2': a coordinate is outside the shape (x 0..3, y 0..3)" "${tw[@]}" --root -1,2
refuse root-3-on-2d 2 "bad --root '1,2,3': give one coordinate per dimension (this shape has 2), like 3,4" "${tw[@]}" --root 1,2,3
refuse root-blank 2 "bad --root ' 1,2': give one coordinate per dimension as decimal numbers" "${tw[@]}" --root " 1,2"
refuse root-plus 2 "bad --root '+1,2': give one coordinate per dimension as decimal numbers" "${tw[@]}" --root +1,2
refuse root-2-on-3d 2 "bad --root '1,2': give one coordinate per dimension (this shape has 3), like 3,4,1" \
    --shape 4x4x4 --torus --algo tsay-wang --root 1,2

# --- --sources: node ids below N joined by commas, or random:M[:SEED] (exit 2)
pm=(--shape 4x4 --torus --algo pmnb)
refuse sources-empty-field 2 "bad --sources '0,,5': '' is not a node id: give node ids 0 .. 15 separated by commas" "${pm[@]}" --sources 0,,5
refuse sources-letters 2 "bad --sources 'a,b': 'a' is not a node id" "${pm[@]}" --sources a,b
refuse sources-random-x 2 "bad --sources 'random:x': M must be a decimal number of sources: random:M or random:M:SEED" "${pm[@]}" --sources random:x
refuse sources-random-seed-y 2 "bad --sources 'random:3:y': SEED must be a decimal number: random:M:SEED" "${pm[@]}" --sources random:3:y
refuse sources-random-seed-negative 2 "bad --sources 'random:3:-1': SEED must be a decimal number" "${pm[@]}" --sources random:3:-1
refuse sources-random-seed-too-big 2 "bad --sources 'random:3:99999999999': SEED must be 0 .. 4294967295" "${pm[@]}" --sources random:3:99999999999
refuse sources-huge-id 2 "bad --sources '99999999999': node 99999999999 is outside the shape: node ids 0 .. 15" "${pm[@]}" --sources 99999999999
refuse sources-empty 2 "bad --sources '': give node ids 0 .. 15 separated by commas (like 0,5,9) or random:M[:SEED]" "${pm[@]}" --sources ""
refuse sources-trailing-comma 2 "bad --sources '1,2,': node ids 0 .. 15 separated by commas, nothing else" "${pm[@]}" --sources 1,2,

# --- --verify-tables on damaged files (exit 1)
good="$work/good.tbl"
if ! "$gen" "${tw[@]}" --root 0,0 --quiet --tables "$good" >"$work/good.out" 2>&1 ||
   ! "$gen" --shape 4x4 --torus --verify-tables "$good" >"$work/good-verify.out" 2>&1; then
    fail verify-good-file "cannot write and verify a tables file: $(tail_of "$work/good.out") $(tail_of "$work/good-verify.out")"
else
    pass verify-good-file
    size=$(stat -c %s "$good")
    first=$(od -An -t u4 -j 8 -N 4 "$good" | tr -d ' ')   # total_bytes of node 0's table
    # one bit flipped in node 0's first send record (same length): the checksum catches it
    cp "$good" "$work/flipped.tbl"
    byte=$(od -An -t u1 -j 60 -N 1 "$good" | tr -d ' ')
    printf "$(printf '\\%03o' $((byte ^ 4)))" | dd of="$work/flipped.tbl" bs=1 seek=60 conv=notrunc status=none
    if cmp -s "$good" "$work/flipped.tbl" || [ "$(stat -c %s "$work/flipped.tbl")" -ne "$size" ]; then
        fail verify-bit-flipped "the bit flip did not happen"
    else
        refuse verify-bit-flipped 1 "flipped.tbl: node 0 (0,0), table at byte 0: table checksum mismatch (damaged); regenerate it with schedgen --tables" \
            --shape 4x4 --torus --verify-tables "$work/flipped.tbl"
    fi
    head -c 1000 "$good" >"$work/cut.tbl"
    refuse verify-truncated-inside 1 "cut.tbl is truncated: it ends inside the table of node 11 (3,2), at byte 1000; regenerate it" \
        --shape 4x4 --torus --verify-tables "$work/cut.tbl"
    head -c "$first" "$good" >"$work/one-table.tbl"
    refuse verify-truncated-boundary 1 "one-table.tbl is truncated: it ends after the tables of 1 of the 16 nodes; regenerate it" \
        --shape 4x4 --torus --verify-tables "$work/one-table.tbl"
    : >"$work/empty.tbl"
    refuse verify-empty 1 "empty.tbl is empty, not a tables file; regenerate it with schedgen --tables" \
        --shape 4x4 --torus --verify-tables "$work/empty.tbl"
    head -c 200 "$0" >"$work/text.tbl"
    refuse verify-not-tables 1 "text.tbl is not a tables file (no table magic \"RVST\" at its start); give a file written by schedgen --tables" \
        --shape 4x4 --torus --verify-tables "$work/text.tbl"
    cp "$good" "$work/extra.tbl"
    printf 'xx' >>"$work/extra.tbl"
    refuse verify-trailing-bytes 1 "extra.tbl: 2 bytes after the table of the last node (15): not a tables file of this shape, or damaged" \
        --shape 4x4 --torus --verify-tables "$work/extra.tbl"
    refuse verify-folder 1 "schedgen: cannot read $work: Is a directory" --shape 4x4 --torus --verify-tables "$work"
fi

# --- output files that cannot be created: exit 2 before any work (no check line, no file)
refuse_output() {   # NAME TEXT ARGS...: as refuse with status 2, and none of the outputs exists
    local name="$1" text="$2"
    shift 2
    rm -f "$work/out.txt" "$work/out.tbl" "$work/out.svg"
    refuse "$name" 2 "$text" "$@"
    local left
    left=$(ls "$work"/out.* 2>/dev/null | tr '\n' ' ')
    if [ -n "$left" ]; then fail "$name-nothing-written" "files left behind: $left"
    else pass "$name-nothing-written"; fi
}
refuse_output tables-no-folder "schedgen: --tables: cannot write $work/no-such-folder/x.tbl: No such file or directory; give a file in an existing folder you can write to (nothing was written)" \
    "${tw[@]}" --check --dump "$work/out.txt" --tables "$work/no-such-folder/x.tbl" --svg "$work/out.svg"
refuse_output dump-is-folder "schedgen: --dump: cannot write $work: Is a directory" \
    "${tw[@]}" --check --dump "$work" --tables "$work/out.tbl"
refuse_output svg-no-folder "schedgen: --svg: cannot write $work/no-such-folder/x.svg: No such file or directory" \
    "${tw[@]}" --check --svg "$work/no-such-folder/x.svg" --tables "$work/out.tbl"
# an existing output is left as it was when another output is refused
echo "keep me" >"$work/keep.txt"
refuse keep-existing 2 "schedgen: --tables: cannot write $work/no-such-folder/x.tbl" \
    "${tw[@]}" --dump "$work/keep.txt" --tables "$work/no-such-folder/x.tbl"
if [ "$(cat "$work/keep.txt")" = "keep me" ]; then pass keep-existing-untouched
else fail keep-existing-untouched "$work/keep.txt was changed by a refused run"; fi
# an argument refused after the outputs were checked (tsay-wang on a mesh) leaves nothing
refuse_output refused-after-output-check "tsay-wang needs a torus" \
    --shape 4x4 --mesh --algo tsay-wang --dump "$work/out.txt" --tables "$work/out.tbl"

# --- a write that fails part-way: exit 1, the reason named
if [ -w /dev/full ]; then
    "$gen" "${tw[@]}" --dump /dev/full >"$work/full.out" 2>"$work/full.err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -qF "schedgen: cannot write /dev/full: No space left on device" "$work/full.err"; then
        pass write-fails-part-way
    else
        fail write-fails-part-way "exit status $rc, expected 1: $(tail_of "$work/full.err")"
    fi
else
    skip write-fails-part-way "no writable /dev/full on this machine"
fi

# --- the usage text lists the exit statuses
if "$gen" --help >"$work/help.out" 2>&1 && grep -qF "2 bad arguments, including a --dump/--tables/--svg file that cannot be" "$work/help.out" &&
   grep -qF -- "--verify-tables found the file" "$work/help.out"; then
    pass help-exit-statuses
else
    fail help-exit-statuses "schedgen --help does not list the exit statuses: $(tail_of "$work/help.out" 6)"
fi
exit 0
