#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# noc-sim refuses a bad command line with the exact message and exit status 2 before it runs
# anything, and writes nothing: --load (not a number, negative, trailing junk, zero, nan,
# blanks, too high for --len), --seed (not a number, negative, hex, out of range), --vcs
# (not 1, 2, 4 or 8; a variant not compiled in), --board (a shape without a board variant),
# --sweep (empty, an empty field, a bad or zero
# load, a blank-separated list, too high, with --load), --json/--svg/--trace files that
# cannot be created. A --json write that fails after the run (/dev/full) exits 1. The shape
# list of the build refuses a torus of sides over 2 with 1 VC and a board shape too big for
# the board router's coordinates. The other command-line refusals are in test_noc_traffic.sh.
set -u
. tests/lib.sh
work="$BUILD/tests/noc-bad-input"
rm -rf "$work"
mkdir -p "$work"

make_or_fail noc-bad-input-build "$work/make.log" noc-sim || exit 1
pass noc-bad-input-build
sim="$BUILD/bin/noc-sim"
base=(--shape 4x4 --torus --pattern uniform --warmup 10 --cycles 100 --quiet)

# refuse NAME TEXT ARGS...: noc-sim ARGS exits 2, prints "noc-sim: " + TEXT (a fixed string)
# on stderr, runs nothing (stdout empty) and leaves no file named $work/out.*.
refuse() {
    local name="$1" text="$2" rc left
    shift 2
    rm -f "$work"/out.*
    "$sim" "${base[@]}" "$@" >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    left=$(ls "$work"/out.* 2>/dev/null | tr '\n' ' ')
    if [ "$rc" -ne 2 ]; then
        fail "$name" "exit status $rc, expected 2: $(tail_of "$work/$name.err")"
    elif ! grep -qF -- "noc-sim: $text" "$work/$name.err"; then
        fail "$name" "stderr lacks 'noc-sim: $text': $(tail_of "$work/$name.err")"
    elif [ -s "$work/$name.out" ]; then
        fail "$name" "it ran (stdout not empty): $(tail_of "$work/$name.out")"
    elif [ -n "$left" ]; then
        fail "$name" "files left behind: $left"
    else
        pass "$name"
    fi
}

# Each refusal also names --json/--svg outputs in a writable folder: none may appear.
out=(--json "$work/out.json" --svg "$work/out.svg")

# --- --load: a finite decimal number above 0, at most one new packet per node per cycle
refuse load-not-a-number "--load wants a number above 0 up to 64, got 'x'" --load x "${out[@]}"
refuse load-negative "--load wants a number above 0 up to 64, got '-1'" --load -1 "${out[@]}"
refuse load-trailing-junk "--load wants a number above 0 up to 64, got '0.5x'" --load 0.5x "${out[@]}"
refuse load-zero "--load wants a number above 0 up to 64, got '0'" --load 0 "${out[@]}"
refuse load-nan "--load wants a number above 0 up to 64, got 'nan'" --load nan "${out[@]}"
refuse load-blank "--load wants a number above 0 up to 64, got ' 0.5'" --load " 0.5" "${out[@]}"
refuse load-too-high-for-len "--load 30 is too high for --len 1-1: at most one new packet per node per cycle, so at most 3 flits per node per cycle" \
    --load 30 --len 1-1 "${out[@]}"

# --- --seed: decimal digits, 0..2^31-1
refuse seed-not-a-number "--seed wants a decimal integer in 0..2147483647, got 'x'" --seed x "${out[@]}"
refuse seed-negative "--seed wants a decimal integer in 0..2147483647, got '-1'" --seed -1 "${out[@]}"
refuse seed-hex "--seed wants a decimal integer in 0..2147483647, got '0x10'" --seed 0x10 "${out[@]}"
refuse seed-too-big "--seed wants a decimal integer in 0..2147483647, got '99999999999'" --seed 99999999999 "${out[@]}"

# --- --vcs: what the router is built for, and a variant compiled in
refuse vcs-three "--vcs wants 1, 2, 4 or 8 virtual channels per link (what the router is built for), got '3'" --vcs 3 "${out[@]}"
refuse vcs-not-a-number "--vcs wants 1, 2, 4 or 8 virtual channels per link (what the router is built for), got 'x'" --vcs x "${out[@]}"
refuse board-not-compiled "shape 4x4 torus with 4 VCs with the board profile is not compiled into this binary (see --help for the list); add it to NOC_SHAPES, e.g. make noc-sim NOC_EXTRA_SHAPES=4x4tv4b" \
    --board --vcs 4 "${out[@]}"
refuse vcs-not-compiled "shape 4x4 torus with 8 VCs is not compiled into this binary (see --help for the list); add it to NOC_SHAPES, e.g. make noc-sim NOC_EXTRA_SHAPES=4x4tv8" \
    --vcs 8 "${out[@]}"

# --- the shape list (sim/noc/noc_shapes.sh, run by make): clear refusals, nothing written
shapes_refuse() {   # name, expected text, shape list
    local name="$1" text="$2" rc
    rm -rf "$work/shapes"
    env FLIT_BITS=32 NOC_BUF_DEPTH=4 NOC_INJ_DEPTH=4 NOC_VCS=2 ROUTER_BOARD_VCS=1 ROUTER_BOARD_BUF_DEPTH=16 \
        ROUTER_BOARD_INJ_DEPTH=1 ROUTER_BOARD_BUF_RAM=1 ROUTER_BOARD_INJ_ANY_PORT=0 ROUTER_BOARD_PIPELINE=1 \
        ROUTER_BOARD_SIDE_BITS=3 sim/noc/noc_shapes.sh "$work/shapes" "$3" >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    if [ "$rc" -eq 0 ]; then fail "$name" "the shape list '$3' was accepted"
    elif ! grep -qF -- "$text" "$work/$name.err"; then fail "$name" "stderr lacks '$text': $(tail_of "$work/$name.err")"
    elif [ -e "$work/shapes/noc_shapes.vh" ]; then fail "$name" "noc_shapes.vh written anyway"
    else pass "$name"; fi
}
shapes_refuse shape-torus-one-vc "noc shape '4x4t4v1': a torus with 1 VC per link must have sides of at most 2 (a longer ring needs the dateline's 2 VCs: say v2)" "2x2m 4x4t4v1"
shapes_refuse shape-board-too-big "noc shape '9x2mb': a board router (ROUTER_BOARD_SIDE_BITS=3) takes sides of up to 8 nodes" "9x2mb"
shapes_refuse shape-three-vcs "noc shape '4x4t4v3': VCs must be 1, 2, 4 or 8" "4x4t4v3"
shapes_refuse shape-garbage "noc shape '4x4q': want XxY[xZ], then m or t" "4x4q"

# --- --sweep: comma-separated loads, each as --load
# the fault options need protected links (plain noc-sim: refused, nothing run)
refuse drop-flit-plain "--flip-rate, --fault-seed, --dead-link, --dead-cycle and --drop-flit need protected links: use noc-sim-guard (make noc-sim-guard)" \
    --drop-flit 5:0@200 "${out[@]}"

refuse sweep-empty "--sweep wants comma-separated loads like 0.1,0.2,0.4, got ''" --sweep "" "${out[@]}"
refuse sweep-empty-field "--sweep wants comma-separated loads like 0.1,0.2,0.4 (no empty field), got '0.1,,0.2'" --sweep 0.1,,0.2 "${out[@]}"
refuse sweep-trailing-comma "--sweep wants comma-separated loads like 0.1,0.2,0.4 (no empty field), got '0.1,'" --sweep 0.1, "${out[@]}"
refuse sweep-not-a-number "--sweep (in '0.1,x') wants a number above 0 up to 64, got 'x'" --sweep 0.1,x "${out[@]}"
refuse sweep-zero "--sweep (in '0.1,0') wants a number above 0 up to 64, got '0'" --sweep 0.1,0 "${out[@]}"
refuse sweep-inf "--sweep (in '0.1,inf') wants a number above 0 up to 64, got 'inf'" --sweep 0.1,inf "${out[@]}"
refuse sweep-blanks "--sweep (in '0.1 0.2') wants a number above 0 up to 64, got '0.1 0.2'" --sweep "0.1 0.2" "${out[@]}"
refuse sweep-too-high-for-len "--sweep: the load 20 is too high for --len 1-4: at most one new packet per node per cycle, so at most 4.5 flits" \
    --len 1-4 --sweep 0.1,20 "${out[@]}"
refuse sweep-and-load "give --load F for one run or --sweep L1,L2.. for several, not both" --load 0.1 --sweep 0.1,0.2 "${out[@]}"

# --- outputs that cannot be created: refused before the run
refuse json-no-folder "--json: cannot write '$work/no-such-folder/r.json': No such file or directory; give a file in an existing folder you can write to" \
    --json "$work/no-such-folder/r.json" --svg "$work/out.svg"
refuse svg-is-folder "--svg: cannot write '$work': Is a directory" --json "$work/out.json" --svg "$work"
refuse trace-no-folder "--trace: cannot write '$work/no-such-folder/t.fst': No such file or directory" \
    --json "$work/out.json" --trace "$work/no-such-folder/t.fst"

# --- a write that fails after the run: exit 1, the reason named
if [ -w /dev/full ]; then
    "$sim" "${base[@]}" --json /dev/full >"$work/full.out" 2>"$work/full.err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -qF "noc-sim: cannot write /dev/full: No space left on device" "$work/full.err"; then
        pass json-write-fails-after-run
    else
        fail json-write-fails-after-run "exit status $rc, expected 1: $(tail_of "$work/full.err")"
    fi
else
    skip json-write-fails-after-run "no writable /dev/full on this machine"
fi

# --- a good sweep still runs and writes both files (the checks above do refuse, not break)
rm -f "$work"/out.*
if "$sim" "${base[@]}" --sweep 0.05,0.1 "${out[@]}" >"$work/good.out" 2>"$work/good.err" &&
   [ "$(grep -c ' ok$' "$work/good.out")" -eq 2 ] && grep -q '"points"' "$work/out.json" && grep -q '</svg>' "$work/out.svg"; then
    pass good-sweep-runs
else
    fail good-sweep-runs "a two-load sweep did not run and write its JSON and SVG: $(tail_of "$work/good.out") $(tail_of "$work/good.err")"
fi

# --- --help lists the exit statuses
if "$sim" --help >"$work/help.out" 2>&1 && grep -qF "exit status: 0 every check passed, 1 a check failed" "$work/help.out" &&
   grep -qF "an output file that cannot be created (nothing is run)" "$work/help.out"; then
    pass help-exit-statuses
else
    fail help-exit-statuses "noc-sim --help does not list the exit statuses: $(tail_of "$work/help.out" 6)"
fi
exit 0
