#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# schedgen --package: a program's tables grouped per node (firmware/sched/sched_table.h, what
# the application kit builds). The good case: the package of the kit's default bcast,
# allgather and alltoall on the 4x4 and 8x8 tori (every schedule checked first), its header
# (magic, shape, the largest area), every node's area back to back, and the assembly file
# that reserves the largest area; on the 8x8 torus a node holds at most 16 KiB (issue 18's
# target). The refusals, each with its message and exit status 2 and no file written: an
# unknown collective or algorithm, an algorithm of another collective, a root on a rootless
# collective or off the machine, a collective declared twice, chunks on another algorithm,
# no --coll, --coll without --package, --package with --algo. And an unknown --algo names
# every algorithm (issue 18 item 7). Scatter and gather on rows and columns (rings and linear
# arrays of 2 to 16 nodes) build and check for every root (issue 18 item 3).
set -u
. tests/lib.sh
work="$BUILD/tests/schedgen-package"
gen="$BUILD/bin/schedgen"
rm -rf "$work"
mkdir -p "$work"

make_or_fail schedgen-package-build "$work/make.log" schedgen || exit 1
pass schedgen-package-build

u32() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }   # u32 FILE OFFSET

# ---- good packages: header, areas, asm
for shape in 4x4 8x8; do
    pkg="$work/$shape.pkg"
    if "$gen" --shape $shape --torus --package "$pkg" --asm "$work/$shape.S" --coll bcast --coll allgather \
            --coll alltoall >"$work/$shape.out" 2>&1; then
        nodes=$(( ${shape%x*} * ${shape#*x} ))
        magic=$(u32 "$pkg" 0); total=$(u32 "$pkg" 8); largest=$(u32 "$pkg" 28); n=$(u32 "$pkg" 24)
        size=$(stat -c %s "$pkg")
        # walk the areas: each starts with "RVTA" and its length; the last ends the file
        off=32; ok=1; biggest=0
        for ((v = 0; v < nodes; v++)); do
            [ "$(u32 "$pkg" $off)" = 1096046162 ] || { ok=0; break; }       # "RVTA"
            [ "$(u32 "$pkg" $((off + 24)))" = "$v" ] || { ok=0; break; }    # its node
            len=$(u32 "$pkg" $((off + 8)))
            [ "$len" -gt "$biggest" ] && biggest=$len
            off=$((off + len))
        done
        if [ "$magic" = 1263556178 ] && [ "$total" = "$size" ] && [ "$n" = "$nodes" ] && [ $ok = 1 ] &&
                [ "$off" = "$size" ] && [ "$biggest" = "$largest" ] &&
                grep -q "^    .zero $largest$" "$work/$shape.S" && grep -qF ".incbin \"$pkg\"" "$work/$shape.S" &&
                grep -q "a node holds at most $largest bytes" "$work/$shape.out"; then
            pass "schedgen-package-$shape (a node holds at most $largest bytes; the package $size)"
        else
            fail "schedgen-package-$shape" "magic $magic total $total/$size nodes $n areas-ok $ok end $off largest $largest/$biggest: $(tail_of "$work/$shape.out" 2)"
        fi
        if [ "$shape" = 8x8 ]; then
            [ "$largest" -le 16384 ] && pass "schedgen-package-8x8-fits-16KiB ($largest bytes)" ||
                fail schedgen-package-8x8-fits-16KiB "a node holds $largest bytes, more than 16384"
        fi
    else
        fail "schedgen-package-$shape" "$(tail_of "$work/$shape.out" 3)"
    fi
done
# the variants of "default", least preferred first, and the chosen algorithms
if grep -q "5 tables: tsay-wang bcast-edst(4 parts) mnb-opt alltoall-pairwise te-a3;" "$work/4x4.out"; then
    pass schedgen-package-defaults
else
    fail schedgen-package-defaults "$(head -c 300 "$work/4x4.out")"
fi
if "$gen" --shape 4x4 --mesh --package "$work/mesh.pkg" --coll bcast:bcast-edst/8@5 --coll allgather \
        --coll scatter@3 >"$work/mesh.out" 2>&1 &&
        grep -q "3 tables: bcast-edst(16 parts) mnb-diag scatter;" "$work/mesh.out"; then
    pass schedgen-package-mesh-named
else
    fail schedgen-package-mesh-named "$(tail_of "$work/mesh.out" 2)"
fi

# ---- refusals
refuse() {   # refuse NAME TEXT ARGS...: exit 2, TEXT on stderr, nothing on stdout, no package
    local name="$1" text="$2" rc
    shift 2
    rm -f "$work/bad.pkg"
    "$gen" --shape 4x4 --torus "$@" >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    if [ $rc -ne 2 ]; then fail "$name" "exit status $rc, expected 2: $(tail_of "$work/$name.err")"
    elif ! grep -qF -- "$text" "$work/$name.err"; then fail "$name" "stderr lacks '$text': $(tail_of "$work/$name.err")"
    elif [ -s "$work/$name.out" ] || [ -e "$work/bad.pkg" ]; then fail "$name" "it wrote something"
    else pass "$name"; fi
}
p=(--package "$work/bad.pkg")
refuse package-unknown-collective "schedgen: --coll 'reduce': unknown collective 'reduce' (bcast, scatter, gather, allgather, alltoall); the form is COLL[:ALGO][@ROOT]" "${p[@]}" --coll reduce
refuse package-unknown-algo "schedgen: --coll 'bcast:fast': unknown algorithm 'fast' (the algorithms: default, tsay-wang," "${p[@]}" --coll bcast:fast
refuse package-wrong-collective "schedgen: --coll 'allgather:te-a3': te-a3 is an alltoall schedule, not allgather" "${p[@]}" --coll allgather:te-a3
refuse package-root-rootless "schedgen: --coll 'alltoall@3': alltoall has no root; drop '@3'" "${p[@]}" --coll alltoall@3
refuse package-root-off "schedgen: --coll 'bcast@16': the root must be a node id 0..15 of the 4x4 torus (node id = x + X*y)" "${p[@]}" --coll bcast@16
refuse package-twice "schedgen: --coll 'bcast:tsay-wang@0': bcast with this root is declared twice; name each collective (and root) once" "${p[@]}" --coll bcast --coll bcast:tsay-wang@0
refuse package-chunks-other "schedgen: --coll 'bcast:tsay-wang/8': '/K' (chunks) applies to bcast-edst only" "${p[@]}" --coll bcast:tsay-wang/8
refuse package-chunks-bad "schedgen: --coll 'bcast:bcast-edst/0': chunks per tree after '/' must be 1 .. 1024" "${p[@]}" --coll bcast:bcast-edst/0
refuse package-no-coll "schedgen: --package needs at least one --coll SPEC" "${p[@]}"
refuse package-coll-alone "schedgen: --coll and --asm go with --package FILE" --coll bcast
refuse package-with-algo "schedgen: --package takes --coll SPECs (and --asm, --quiet) only" "${p[@]}" --algo tsay-wang --coll bcast
refuse package-unwritable "schedgen: --package: cannot write $work/no-such-folder/x.pkg" --package "$work/no-such-folder/x.pkg" --coll bcast

# ---- issue 18 item 7: an unknown --algo is refused with the list of every algorithm (each
# name in it is one schedgen knows: none is refused as unknown)
"$gen" --shape 4x4 --torus --algo foo >"$work/algo.out" 2>"$work/algo.err"
rc=$?
list=$(sed -n "s/^schedgen: unknown --algo 'foo' (the algorithms: \(.*\))$/\1/p" "$work/algo.err" | tr -d ' ' | tr ',' ' ')
unknown=""
for a in $list; do
    "$gen" --shape 4x4 --torus --algo "$a" --quiet --sources 0,5 2>&1 | grep -q "unknown --algo" && unknown="$unknown $a"
done
missing=""
for a in tsay-wang mnb-opt allgather-ring alltoall-pairwise bcast-edst bcast-binomial te-a3 pe; do
    echo " $list " | grep -q " $a " || missing="$missing $a"
done
if [ $rc -eq 2 ] && [ "$(echo $list | wc -w)" -ge 21 ] && [ -z "$unknown" ] && [ -z "$missing" ]; then
    pass "schedgen-unknown-algo-lists-all ($(echo $list | wc -w) algorithms)"
else
    fail schedgen-unknown-algo-lists-all "exit $rc, list '$list', refused as unknown:$unknown, missing:$missing"
fi

# ---- scatter and gather on rows and columns (issue 18 item 3): a line on a torus is a ring
# whose other side is 1, where each node is its own neighbour across that side; every root of
# rings and linear arrays of 2 to 16 builds (the root was taken for a branch of its own tree
# before 2026-11-27: row.gather@0 on the 4x4 torus "could not build a scatter tree")
bad=""
for topo in torus mesh; do
    for n in 2 3 4 5 8 16; do
        for ((r = 0; r < n; r++)); do
            "$gen" --shape ${n}x4 --$topo --package "$work/line.pkg" --coll row.scatter@$r --coll row.gather@$r \
                --coll col.scatter@$((r % 4)) --coll col.gather@$((r % 4)) >"$work/line.out" 2>&1 || bad="$bad ${n}x4-$topo@$r"
        done
    done
done
[ -z "$bad" ] && pass "schedgen-line-scatter-gather (every root of rings and linear arrays of 2..16, checked)" ||
    fail schedgen-line-scatter-gather "refused:$bad: $(tail_of "$work/line.out" 1)"
