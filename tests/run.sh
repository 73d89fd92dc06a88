#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# rvmesh test runner: runs every tests/**/test_*.sh (sorted; those marked "# test-lane: beside"
# in a second lane at the same time, below), counts their check lines, and ends with the line
# "N passed, M failed, K skipped".
#
# A test script is run from the repository root with BUILD (the build directory) in its
# environment, under a time limit. It reports each check on a line of its own (tests/lib.sh):
#     PASS <name>
#     FAIL <name>: <why>
#     SKIP <name>: <why>        (a check that does not apply here; listed, never a pass)
# The runner counts those lines, and adds a failure of its own when a script
#   - prints no check line at all (a script that ran no check proves nothing),
#   - exits non-zero without a FAIL line (a crash, an early exit),
#   - is killed by a signal, or
#   - runs past its time limit: TEST_TIMEOUT seconds (default 900), or the number on a
#     line "# test-timeout: N" near the top of the script.
# At the end it lists the failing scripts, the skipped checks and the slowest scripts.
#
# Usage: tests/run.sh [FILTER]   (FILTER: only scripts whose path contains it; a filter
#                                 that matches no script is an error)
# TEST_JOBS=1 runs every script in turn (no second lane).
# TESTS_DIR (default tests) is where the scripts are looked for: the runner's own test
# (tests/runner) points it at planted scripts.
set -u
cd "$(dirname "$0")/.." || exit 2
export BUILD="${BUILD:-build}"
tests_dir="${TESTS_DIR:-tests}"
filter="${1:-}"
default_limit="${TEST_TIMEOUT:-900}"
logdir="$BUILD/tests"
mkdir -p "$logdir"

mapfile -t all < <(find "$tests_dir" -name 'test_*.sh' -type f | sort)
if [ "${#all[@]}" -eq 0 ]; then
    echo "tests/run.sh: no test scripts (test_*.sh) found under $tests_dir/" >&2
    exit 2
fi
scripts=()
for script in "${all[@]}"; do
    case "$script" in *"$filter"*) scripts+=("$script") ;; esac
done
if [ "${#scripts[@]}" -eq 0 ]; then
    echo "tests/run.sh: no test script matches '$filter'; the scripts are:" >&2
    printf '  %s\n' "${all[@]}" >&2
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi

# Two lanes (TEST_JOBS, default 2; 1 runs every script in turn): a script with the line
# "# test-lane: beside" near its top builds nothing another script uses (only its own folder
# under $BUILD/tests, from the sources) and runs in a second lane beside the others, which
# run one after another in their sorted order as always. Its report is printed when it ends.
jobs="${TEST_JOBS:-2}"
case "$jobs" in 1|2) ;; *) echo "tests/run.sh: TEST_JOBS wants 1 or 2, got '$jobs'" >&2; exit 2 ;; esac
resdir="$logdir/.runner"
rm -rf "$resdir"
mkdir -p "$resdir"
main=()
beside=()
for i in "${!scripts[@]}"; do
    if [ "$jobs" -eq 2 ] && sed -n '1,30p' "${scripts[$i]}" | grep -q '^# test-lane: beside'; then
        beside+=("$i")
    else
        main+=("$i")
    fi
done

# run_one I: runs script I; writes $resdir/I.res ("P F S WALL CPU") and $resdir/I.txt (its report)
run_one() {
    local i="$1" script="${scripts[$1]}" log limit start rc took cpu p f s why
    log="$logdir/$(echo "${script#"$tests_dir"/}" | tr '/' '_' | sed 's/\.sh$//').log"
    limit=$(sed -n '1,30s/^# test-timeout: *\([0-9][0-9]*\).*/\1/p' "$script" | head -n 1)
    [ -n "${TEST_TIMEOUT:-}" ] && limit=$TEST_TIMEOUT
    limit="${limit:-$default_limit}"
    start=$SECONDS
    # the CPU seconds (user + system) of the script and everything it ran, beside the wall time
    TIMEFORMAT='%U %S'
    { time timeout --kill-after=20 "$limit" bash "$script" >"$log" 2>&1 </dev/null; } 2>"$resdir/$i.cpu"
    rc=$?
    took=$((SECONDS - start))
    cpu=$(awk '{printf "%d", $1 + $2 + 0.5}' "$resdir/$i.cpu" 2>/dev/null)
    cpu=${cpu:-0}
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    s=$(grep -c '^SKIP ' "$log")
    why=""
    if [ "$rc" -eq 124 ] || { [ "$rc" -eq 137 ] && [ "$took" -ge "$limit" ]; }; then
        why="timed out after ${limit} s, its limit (set '# test-timeout: N' in the script, or TEST_TIMEOUT=N)"
    elif [ "$rc" -gt 128 ]; then
        why="killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null))"
    elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
        why="ran no check (no PASS, FAIL or SKIP line; exit status $rc)"
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        why="exited with status $rc after its checks, without a FAIL line"
    fi
    if [ -n "$why" ]; then
        echo "FAIL $script: $why" >>"$log"
        f=$((f + 1))
    fi
    {
        printf '   %d passed, %d failed, %d skipped (%ds, %ds CPU, log %s)\n' "$p" "$f" "$s" "$took" "$cpu" "$log"
        if [ "$f" -gt 0 ]; then
            grep '^FAIL ' "$log" | head -n 20 | sed 's/^/   /'
            [ -n "$why" ] && tail -n 21 "$log" | head -n 20 | sed 's/^/   | /'
        fi
    } >"$resdir/$i.txt"
    grep '^SKIP ' "$log" | sed "s|^SKIP |$script: |" >"$resdir/$i.skips"
    echo "$p $f $s $took $cpu" >"$resdir/$i.res"
}

# the reports of the second lane's scripts that ended and are not printed yet
print_beside() {
    local i
    for i in "${beside[@]}"; do
        if [ -e "$resdir/$i.res" ] && [ ! -e "$resdir/$i.shown" ]; then
            printf '== %s (beside)\n' "${scripts[$i]}"
            cat "$resdir/$i.txt"
            : >"$resdir/$i.shown"
        fi
    done
}

lane_pid=""
if [ "${#beside[@]}" -gt 0 ]; then
    ( for i in "${beside[@]}"; do run_one "$i"; done ) &
    lane_pid=$!
    trap 'kill -- "$lane_pid" 2>/dev/null; pkill -P "$lane_pid" 2>/dev/null' EXIT
fi
for i in "${main[@]}"; do
    printf '== %s\n' "${scripts[$i]}"
    run_one "$i"
    cat "$resdir/$i.txt"
    print_beside
done
if [ -n "$lane_pid" ]; then
    wait "$lane_pid"
    trap - EXIT
    print_beside
fi

passed=0
failed=0
skipped=0
failures=()
skips=()
times=()
for i in "${!scripts[@]}"; do
    script="${scripts[$i]}"
    if ! read -r p f s took cpu <"$resdir/$i.res" 2>/dev/null; then
        p=0 f=1 s=0 took=0 cpu=0
        echo "== $script: no report (the runner's lane ended without it)"
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
    times+=("$took $cpu $script")
    [ "$f" -gt 0 ] && failures+=("$script")
    [ -e "$resdir/$i.skips" ] || continue
    while IFS= read -r line; do skips+=("$line"); done <"$resdir/$i.skips"
done

if [ "${#skips[@]}" -gt 0 ]; then
    echo
    echo "skipped checks (${#skips[@]}):"
    printf '  %s\n' "${skips[@]}" | head -n 40
fi
echo
echo "slowest scripts (wall seconds, CPU seconds):"
printf '%s\n' "${times[@]}" | sort -rn | head -n 5 | awk '{printf "  %5d s  %5d s CPU  %s\n", $1, $2, $3}'
if [ "${#failures[@]}" -gt 0 ]; then
    echo
    echo "failing scripts (full logs under $logdir/):"
    printf '  %s\n' "${failures[@]}"
fi
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
