#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# test-timeout: 1200
# The application kit (kit/program.mk, firmware/coll/rvmesh.h) end to end on the 4x4 torus:
#   - the first program as docs/first-program.md makes it (make new-program DIR=...: the
#     template, a dot product with bcast and allgather every node checks) in a folder of its
#     own, built and run with one command by the CI script (kit/ci/run-on-mesh.sh, which runs
#     make report): exit 0, node 0 says "ok", report.json has 16 nodes that exited 0 with 2
#     collective calls in their "comm" region, junit.xml 16 passing test cases; the image holds only a node's own tables (the
#     reserved area is the largest node's area, below the package); a program whose node 5
#     returns 3 makes the CI script fail;
#   - tests/kit/progs/errors: every bad call returns its code with its message (a collective
#     or a root the program did not declare, a root off the machine, m 0 or not words, a
#     workspace the free RAM cannot hold, a misaligned buffer, a call before rvm_init), and the
#     nodes stay in step (a 12-byte broadcast from node 5 and an allgather deliver; the same
#     allgather again runs the kept plan, one into another buffer compiles its own; a scatter
#     and a gather through node 0 deliver, the other nodes passing NULL for what they lack); built
#     with -DFATAL, the undeclared call ends every node with status 84 (mesh-sim's exit 84);
#   - tests/kit/progs/mismatch: one node's allgather with another block size ends in a
#     timeout naming rvm_allgather (status 80), not a hang;
#   - a program built for the 8x8 torus is refused by the 4x4 mesh-sim before reset (120),
#     and so is one whose tables were damaged in the ELF (120);
#   - the kit's own refusals: no RVMESH, a bad SHAPE, no C files.
set -u
. tests/kit/lib.sh
sim="$BUILD/bin/mesh-sim"

kit_setup kit mesh-sim schedgen || exit 1
if ! "$sim" --help | grep -q "a 4x4 torus of 16 tiles"; then
    fail kit-shape "these tests want config.mk's 4x4 torus: $("$sim" --help | sed -n 3p)"
    exit 1
fi
pass kit-tools

# ---- the first program, as docs/first-program.md makes it, run by the CI script
first="$work/first"
export RVMESH_BUILD="$root/$BUILD"
if ! make -s new-program DIR="$first" >"$work/new-program.log" 2>&1 || ! grep -qx "RVMESH      := $root" "$first/Makefile" ||
        ! cmp -s kit/template/main.c "$first/main.c"; then
    fail kit-new-program "$(tail_of "$work/new-program.log" 2)"
elif make -s new-program DIR="$first" >"$work/new-program-again.log" 2>&1 ||
        ! grep -qF "$first/Makefile exists already: give a new folder" "$work/new-program-again.log"; then
    fail kit-new-program "a second make new-program into the same folder was not refused"
else
    pass kit-new-program
fi
if kit/ci/run-on-mesh.sh "$first" 4x4t >"$work/first.log" 2>&1 &&
        grep -q '^\[0,0\] dot product 5625216 on 16 nodes: ok' "$work/first.log" &&
        grep -q 'mesh-sim: 4x4 torus: 16/16 nodes exited, exit=0' "$work/first.log" &&
        grep -q '^run-on-mesh: passed on 4x4t$' "$work/first.log" &&
        [ "$(grep -c '^    {"node": "\[[0-9],[0-9]\]", .*"exit": 0, .*"regions": \[{"name": "comm", "calls": 2,' "$first/build/4x4t/report.json")" -eq 16 ] &&
        grep -q '^<testsuites name="mesh-sim" tests="16" failures="0">$' "$first/build/4x4t/junit.xml"; then
    pass "kit-first-program (run-on-mesh.sh: $(grep -o 'dot product.*' "$work/first.log"))"
else
    fail kit-first-program "run-on-mesh.sh $first failed: $(tail_of "$work/first.log" 4)"
fi
elf="$first/build/4x4t/first.elf"
# each node holds its own tables: the reserved area is the largest node's, the package (every
# node's) rides outside RAM
area=$(riscv64-unknown-elf-nm -S "$elf" 2>/dev/null | awk '$4 == "rvmesh_tables" { print $2 }')
[ -n "$area" ] && area=$((16#$area))
pkg=$(stat -c %s "$first/build/4x4t/tables.pkg" 2>/dev/null)
largest=$(od -An -t u4 -j 28 -N 4 "$first/build/4x4t/tables.pkg" 2>/dev/null | tr -d ' ')
if [ -n "$area" ] && [ -n "$pkg" ] && [ "$area" = "$largest" ] && [ "$area" -gt 0 ] && [ $((area * 8)) -lt "$pkg" ]; then
    pass "kit-own-tables (a node holds $area bytes of the package's $pkg)"
else
    fail kit-own-tables "area '$area' bytes, largest '$largest', package '$pkg'"
fi
# a second make run builds nothing again
if make -C "$first" RVMESH_BUILD="$root/$BUILD" >"$work/first-again.log" 2>&1 && ! grep -q 'CC\|LINK\|TABLES' "$work/first-again.log"; then
    pass kit-up-to-date
else
    fail kit-up-to-date "a second make rebuilt: $(tail_of "$work/first-again.log" 3)"
fi

# ---- a program that declares no collectives carries no tables, and runs
mkdir -p "$work/plain"
printf 'RVMESH := %s\ninclude $(RVMESH)/kit/program.mk\n' "$root" >"$work/plain/Makefile"
cat >"$work/plain/main.c" <<'EOF'
#include <stdio.h>
#include "rvmesh.h"
int main(void)
{
    rvm_init();
    if (rvm_node() == 15) printf("node 15 of %lu, tables %lu bytes\n", (unsigned long)rvm_nodes(), (unsigned long)rvm_tables_bytes());
    return 0;
}
EOF
if make -C "$work/plain" RVMESH_BUILD="$root/$BUILD" run >"$work/plain.log" 2>&1 &&
        grep -q '^\[3,3\] node 15 of 16, tables 0 bytes' "$work/plain.log" &&
        ! riscv64-unknown-elf-readelf -S "$work/plain/build/4x4t/plain.elf" | grep -q rvmesh_package; then
    pass "kit-no-collectives (no tables, runs)"
else
    fail kit-no-collectives "$(tail_of "$work/plain.log" 3)"
fi
# the same with node 5 returning 3: the CI script fails
sed -i 's/    return 0;/    return rvm_node() == 5 ? 3 : 0;/' "$work/plain/main.c"
kit/ci/run-on-mesh.sh "$work/plain" 4x4t >"$work/plain-fails.log" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q '^== 4x4t: FAILED$' "$work/plain-fails.log" && grep -q '^run-on-mesh: failed on 4x4t$' "$work/plain-fails.log" &&
        grep -q 'exit=3 .*first-failure=\[1,1\] exit=3' "$work/plain-fails.log"; then
    pass "kit-ci-script-fails (node [1,1] returned 3: exit 1)"
else
    fail kit-ci-script-fails "exit $rc: $(tail_of "$work/plain-fails.log" 3)"
fi

# ---- errors returned, and the nodes still in step
if kit_make errors-build tests/kit/progs/errors OUT="$root/$work/errors"; then
    "$sim" --elf "$work/errors/errors.elf" --max-cycles 5000000 >"$work/errors.out" 2>"$work/errors.err"
    rc=$?
    [ $rc -eq 0 ] && pass kit-errors-run || fail kit-errors-run "exit $rc: $(grep -m 3 FAILED "$work/errors.out" | tr '\n' ' ')$(tail_of "$work/errors.err" 2)"
    while IFS='|' read -r check message; do
        n=$(grep -c "^\[[0-9],[0-9]\] check $check: ok$" "$work/errors.out")
        if [ "$n" -ne 16 ]; then
            fail "kit-error $check" "$n of 16 nodes say ok: $(grep -m 1 "check $check" "$work/errors.out")"
        elif [ -n "$message" ] && [ "$(grep -cF -- "$message" "$work/errors.out")" -ne 16 ]; then
            fail "kit-error $check" "not 16 nodes printed '$message': $(grep -m 1 "node (0,0): rvm_" "$work/errors.out")"
        else
            pass "kit-error $check"
        fi
    done <<'EOF'
before-init|rvm_bcast: call rvm_init() first
init|
init-again|
timeout-default|
undeclared-collective|rvm_alltoall: alltoall is not declared: add it to COLLECTIVES in the program's Makefile (it declares: bcast@0 bcast@5 allgather scatter@0 gather@0) (collective not declared)
undeclared-root|rvm_bcast: bcast with root 3 is not declared: add bcast@3 to COLLECTIVES in the program's Makefile (it declares: bcast@0 bcast@5 allgather scatter@0 gather@0) (collective not declared)
root-off-machine|rvm_bcast: root 16 is off the machine (nodes 0..15)
m-zero|rvm_allgather: m = 0 bytes: the declared allgather schedules take a non-zero multiple of 4 (message size
m-not-words|rvm_allgather: m = 6 bytes: the declared allgather schedules take a non-zero multiple of 4 (message size
workspace|rvm_scatter: blocks of 120000 bytes need
buffer-misaligned|rvm_allgather: buffers must be word-aligned RAM, not null
bcast-12-bytes|
bcast-12-bytes-delivered|
allgather|
allgather-delivered|
allgather-again|
allgather-again-kept-plan|
allgather-again-delivered|
allgather-other-buffer|
allgather-other-buffer-compiled|
allgather-other-buffer-delivered|
scatter|
scatter-delivered|
gather|
gather-delivered|
EOF
else
    fail kit-errors-build "$(tail_of "$work/errors-build.log" 4)"
fi

# ---- an undeclared call with the default error handling ends every node: status 84
if kit_make fatal-build tests/kit/progs/errors OUT="$root/$work/fatal" CFLAGS=-DFATAL; then
    "$sim" --elf "$work/fatal/errors.elf" --max-cycles 5000000 >"$work/fatal.out" 2>"$work/fatal.err"
    rc=$?
    n=$(grep -c "rvm_alltoall failed with error -20: exit status 84$" "$work/fatal.out")
    if [ $rc -eq 84 ] && [ "$n" -eq 16 ] && grep -q "16/16 nodes exited, exit=84" "$work/fatal.err"; then
        pass "kit-fatal-undeclared (every node ends with 84)"
    else
        fail kit-fatal-undeclared "exit $rc, $n nodes said 'exit status 84': $(tail_of "$work/fatal.err" 2)"
    fi
else
    fail kit-fatal-build "$(tail_of "$work/fatal-build.log" 4)"
fi

# ---- mismatched block sizes: a timeout error naming the call, then status 80
if kit_make mismatch-build tests/kit/progs/mismatch OUT="$root/$work/mismatch"; then
    "$sim" --elf "$work/mismatch/mismatch.elf" --max-cycles 5000000 >"$work/mismatch.out" 2>"$work/mismatch.err"
    rc=$?
    t=$(grep -c "rvm_allgather: timeout: lines counted per port" "$work/mismatch.out")
    h=$(grep -c "rvm_allgather: no progress for 20000 cycles: did every node make this call, with the same m and root?" "$work/mismatch.out")
    if [ $rc -eq 80 ] && [ "$t" -ge 1 ] && [ "$h" -eq "$t" ] && grep -q "16/16 nodes exited, exit=80" "$work/mismatch.err"; then
        pass "kit-mismatched-sizes ($t nodes time out naming rvm_allgather, exit 80)"
    else
        fail kit-mismatched-sizes "exit $rc, $t timeouts, $h hints: $(tail_of "$work/mismatch.err" 2)"
    fi
else
    fail kit-mismatch-build "$(tail_of "$work/mismatch-build.log" 4)"
fi

# ---- a program built for the 8x8 torus, run on the 4x4 torus: refused before reset
if make -C "$first" RVMESH_BUILD="$root/$BUILD" SHAPE=8x8t >"$work/first-8x8.log" 2>&1; then
    "$sim" --elf "$first/build/8x8t/first.elf" >"$work/shape.out" 2>"$work/shape.err"
    rc=$?
    want="mesh-sim: $first/build/8x8t/first.elf: the program was built for the 8x8 torus (its tables say so), this is the 4x4 torus: run it on mesh-sim-8x8t (mesh-sim --shape 8x8 --torus), or build it for this machine (make run SHAPE=4x4t in its folder)"
    if [ $rc -eq 120 ] && grep -qxF -- "$want" "$work/shape.err" && [ ! -s "$work/shape.out" ]; then
        pass "kit-shape-refused (exit 120 before reset)"
    else
        fail kit-shape-refused "exit $rc: $(tail_of "$work/shape.err" 2)"
    fi
else
    fail kit-shape-build "make SHAPE=8x8t: $(tail_of "$work/first-8x8.log" 3)"
fi

# ---- the tables damaged in the ELF (one bit of a node's area): refused before reset
off=$(riscv64-unknown-elf-readelf -S -W "$elf" | sed -n 's/.* \.rvmesh_package *[A-Z]* *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
[ -n "$off" ] && off=$((16#$off))
if [ -n "$off" ]; then
    cp "$elf" "$work/damaged.elf"
    at=$((off + 32 + 40))   # inside node 0's area: its header is 32 bytes, then its entries
    byte=$(od -An -t u1 -j "$at" -N 1 "$work/damaged.elf" | tr -d ' ')
    printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$work/damaged.elf" bs=1 seek="$at" conv=notrunc 2>/dev/null
    "$sim" --elf "$work/damaged.elf" >"$work/damaged.out" 2>"$work/damaged.err"
    rc=$?
    if [ $rc -eq 120 ] && grep -qF "the program's tables, node 0: tables area checksum mismatch (damaged); build the program again" "$work/damaged.err" &&
            [ ! -s "$work/damaged.out" ]; then
        pass "kit-damaged-tables-refused (exit 120)"
    else
        fail kit-damaged-tables-refused "exit $rc: $(tail_of "$work/damaged.err" 2)"
    fi
else
    fail kit-damaged-tables-refused "no .rvmesh_package section in $elf"
fi

# ---- the kit's own refusals, before anything is built
refuse_make() {   # refuse_make NAME TEXT DIR ARGS...: make fails, saying TEXT
    local name="$1" text="$2" dir="$3"
    shift 3
    if make -C "$dir" "$@" >"$work/$name.log" 2>&1; then
        fail "$name" "make succeeded"
    elif grep -qF -- "$text" "$work/$name.log"; then
        pass "$name"
    else
        fail "$name" "no '$text': $(tail_of "$work/$name.log" 2)"
    fi
}
mkdir -p "$work/norvmesh" "$work/empty"
printf 'include /nonexistent/kit/program.mk\n' >"$work/norvmesh/Makefile"
printf 'RVMESH := %s\ninclude $(RVMESH)/kit/program.mk\n' "$root" >"$work/empty/Makefile"
refuse_make kit-no-rvmesh "RVMESH is not set: put \`RVMESH := /path/to/rvmesh\`" "$work/norvmesh" -f "$root/kit/program.mk"
refuse_make kit-not-a-tree "RVMESH = /tmp is not an rvmesh tree (no config.mk there)" "$first" -f "$root/kit/program.mk" RVMESH=/tmp
refuse_make kit-bad-shape "SHAPE = 4x4: end it with t (torus) or m (mesh)" "$first" SHAPE=4x4
refuse_make kit-bad-sides "SHAPE = 4xat: the sides must be numbers" "$first" SHAPE=4xat
refuse_make kit-no-sources "no C files in $root/$work/empty (SRCS is empty): write main.c there, or set SRCS" "$work/empty" RVMESH_BUILD="$root/$BUILD"
refuse_make kit-bad-collective "schedgen: --coll 'reduce': unknown collective 'reduce'" "$first" RVMESH_BUILD="$root/$BUILD" \
    COLLECTIVES="bcast reduce" OUT="$root/$work/badcoll"
