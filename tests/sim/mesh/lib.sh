# SPDX-License-Identifier: ISC
# Shared by the tests/sim/mesh/test_*.sh scripts (sourced, not run). Each script sets `sim`
# (the mesh-sim binary) and `work` (its output folder) before using these.

. tests/lib.sh

# mesh_seed: the seed of a script's random choices, in `seed` and RANDOM: 1, so that make
# test gives the same run every time, unless TEST_SEED=N (or TEST_SEED=random: a new one).
mesh_seed() {
    seed="${TEST_SEED:-1}"
    [ "$seed" = random ] && seed=$(( $(date +%s) % 100000 ))
    echo "seed $seed (TEST_SEED=$seed repeats these roots, sources and sizes)"
    RANDOM=$seed
}

# mesh_want_4x4_torus NAME: the script's checks are written for config.mk's 4x4 torus; on
# another machine it fails (FAIL NAME) and stops.
mesh_want_4x4_torus() {
    "$sim" --help | grep -q "a 4x4 torus of 16 tiles" && return 0
    echo "FAIL $1: these tests want config.mk's 4x4 torus; mesh-sim --help says: $("$sim" --help | sed -n 3p)"
    exit 1
}

# mesh_run NAME WANT ARGS...: runs $sim ARGS, stdout in $work/NAME.out and stderr in
# $work/NAME.err; a FAIL line and status 1 unless it exits with status WANT.
mesh_run() {
    local name="$1" want="$2"
    shift 2
    "$sim" "$@" >"$work/$name.out" 2>"$work/$name.err"
    local got=$?
    [ "$got" -eq "$want" ] && return 0
    echo "FAIL $name: exit status $got, expected $want ($(tail -c 300 "$work/$name.err"))"
    return 1
}

# mesh_refuses NAME WANT BIN ARGS...: BIN ARGS --report $work/refused.json must be refused as a
# bad command line: exit 120, the text WANT in its output, no report written. A PASS or FAIL
# line. (The bad-value checks of the fault options: test_dead_link, test_guarded_links,
# test_link_faults.)
mesh_refuses() {
    local name="$1" want="$2" bin="$3"
    shift 3
    rm -f "$work/refused.json"
    "$bin" "$@" --report "$work/refused.json" >"$work/refused.out" 2>&1
    local rc=$?
    if [ $rc -eq 120 ] && grep -qF -- "$want" "$work/refused.out" && [ ! -e "$work/refused.json" ]; then
        pass "$name: exit 120, '$want', nothing written"
    else fail "$name" "exit $rc, want 120 and '$want': $(tail_of "$work/refused.out")"; fi
}
