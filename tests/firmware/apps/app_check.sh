# SPDX-License-Identifier: ISC
# Shared by tests/firmware/apps/test_{sort,fft2d,jacobi,cannon,summa}.sh (sourced after tests/lib.sh):
#   app_check APP SIZE STEPS OK_LINE PLANT_LINE
# 1. runs APP (firmware/apps/APP) on the 4x4 torus through make bench-apps' own script
#    (kit/bench_apps.sh) with SIZE and STEPS: its row of apps.json must be OK with cycles and
#    its own communication region ("APP_comm": comm_cycles non-zero and below cycles), and
#    node 0 must print OK_LINE (an extended regex) from its check against the host's reference;
# 2. builds it with PLANT=1 (a planted mistake on one node) and runs it: the run must fail
#    (exit 1 from the node that checked) and a node must print PLANT_LINE (what differs).
app_check() {
    local app="$1" size="$2" steps="$3" ok="$4" planted="$5"
    local work="$BUILD/tests/apps-$app" root rc run
    root=$(pwd)
    rm -rf "$work"
    mkdir -p "$work"
    make_or_fail "$app-tools" "$work/make.log" mesh-sim schedgen || return 1

    BENCH_APPS_OUT="$work" BENCH_APPS_RUNS="$app:4x4t:$size:$steps" BENCH_KIT_SHAPES="" BENCH_OSU_SHAPES="" kit/bench_apps.sh \
        >"$work/bench.out" 2>&1
    rc=$?
    run=$(grep -E "^    \{\"app\": \"$app\", \"shape\": \"4x4t\", \"size\": $size, \"steps\": $steps, \"cycles\": [1-9][0-9]*, \"comm_cycles\": [1-9][0-9]*, \"comm_share\": 0\.[0-9]+, \"result\": \"OK\"\}$" "$work/apps.json")
    local log="$work/apps/$app-4x4t-${size}x$steps.log" report="$work/apps/$app-4x4t-${size}x$steps/report.json"
    if [ $rc -eq 0 ] && [ -n "$run" ] && grep -qE "^\[0,0\] $ok" "$log" &&
            grep -q "\"name\": \"${app}_comm\", \"calls\": [1-9]" "$report"; then
        pass "$app-4x4t (as the host's reference: $(echo "$run" | sed 's/^ *//'))"
    else
        fail "$app-4x4t" "exit $rc: $(tail_of "$work/bench.out" 3) $(tail_of "$log" 3) $(tr '\n' ' ' <"$work/apps.json" 2>/dev/null | cut -c1-200)"
    fi

    make -C "firmware/apps/$app" --no-print-directory SHAPE=4x4t SIZE="$size" STEPS="$steps" PLANT=1 \
        OUT="$root/$work/planted" RUN_ARGS="--progress 0" run >"$work/planted.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -qE "^\[[0-9],[0-9]\] $planted" "$work/planted.log" && grep -q ' exit=1 ' "$work/planted.log"; then
        pass "$app-planted-mistake-fails (exit 1: $(grep -m 1 -oE "$app: FAILED.*" "$work/planted.log" | cut -c1-160))"
    else
        fail "$app-planted-mistake-fails" "make run exited $rc: $(tail_of "$work/planted.log" 3)"
    fi
}
