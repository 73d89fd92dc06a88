# SPDX-License-Identifier: ISC
# Shared by tests/kit/test_*.sh (sourced, not run, from the repository root): tests/lib.sh,
# the test's own empty folder, a program of tests/kit/progs built with the tree as its kit,
# and the check lines of a program whose every node prints "check NAME: ok".
#
#   kit_setup NAME TARGET...   work=$BUILD/tests/NAME (emptied), root=$(pwd); make TARGET...
#                              (the tools the test runs); returns 1 (FAIL NAME-tools) if not
#   kit_make LOG DIR ARGS...   make -C DIR ARGS with the tree as RVMESH, output in $work/LOG.log
#   kit_node_checks PREFIX OUT NODES CHECK...   for each CHECK, "PASS PREFIX CHECK" when all
#                              NODES nodes printed "check CHECK: ok" in OUT, a FAIL otherwise
#   kit_schedgen_refuses PREFIX NAME WANT ARGS...   schedgen ARGS --package must exit 2
#                              saying WANT and write no package: "PASS PREFIX-NAME", else a FAIL
. tests/lib.sh

kit_setup() {
    local name="$1"
    shift
    work="$BUILD/tests/$name"
    root=$(pwd)
    rm -rf "$work"
    mkdir -p "$work"
    make_or_fail "$name-tools" "$work/make.log" "$@"
}

kit_make() {
    local log="$1" dir="$2"
    shift 2
    make -C "$dir" RVMESH="$root" RVMESH_BUILD="$root/$BUILD" "$@" >"$work/$log.log" 2>&1
}

kit_node_checks() {
    local prefix="$1" out="$2" nodes="$3" check n
    shift 3
    for check in "$@"; do
        n=$(grep -c "^\[[0-9]*,[0-9]*\(,[0-9]*\)\?\] check $check: ok$" "$out")   # [x,y] or [x,y,z]
        [ "$n" -eq "$nodes" ] && pass "$prefix $check" || fail "$prefix $check" "$n of $nodes nodes say ok"
    done
}

kit_schedgen_refuses() {
    local prefix="$1" name="$2" want="$3"
    shift 3
    "$BUILD/bin/schedgen" "$@" --package "$work/refused.pkg" >"$work/$name.out" 2>&1
    local rc=$?
    [ $rc -eq 2 ] && grep -qF -- "$want" "$work/$name.out" && [ ! -e "$work/refused.pkg" ] &&
        pass "$prefix-$name" || fail "$prefix-$name" "exit $rc: $(tail_of "$work/$name.out" 2)"
}
