#!/usr/bin/env bash
# rvmesh test runner: runs every tests/**/test_*.sh (sorted), counts results, and ends
# with the line "N passed, M failed".
#
# A test script is run from the repository root with BUILD (the build directory) in its
# environment. It reports each check on a line of its own:
#     PASS <name>
#     FAIL <name>: <why>
# The runner counts those lines. A script that prints none counts as one check, passed
# if it exits 0. A script that exits non-zero without having printed a FAIL line counts
# one extra failure, so a crash can never pass silently.
#
# Usage: tests/run.sh [FILTER]   (FILTER: only scripts whose path contains it)
set -u
cd "$(dirname "$0")/.." || exit 2
export BUILD="${BUILD:-build}"
filter="${1:-}"
logdir="$BUILD/tests"
mkdir -p "$logdir"

mapfile -t scripts < <(find tests -name 'test_*.sh' -type f | sort)
if [ "${#scripts[@]}" -eq 0 ]; then
    echo "tests/run.sh: no tests found under tests/" >&2
    exit 2
fi

passed=0
failed=0
failures=()
for script in "${scripts[@]}"; do
    case "$script" in *"$filter"*) ;; *) continue ;; esac
    log="$logdir/$(echo "${script#tests/}" | tr '/' '_' | sed 's/\.sh$//').log"
    start=$SECONDS
    printf '== %s\n' "$script"
    bash "$script" >"$log" 2>&1
    rc=$?
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        if [ "$rc" -eq 0 ]; then p=1; else f=1; fi
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        echo "FAIL $script: exited with status $rc after its checks" >>"$log"
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    printf '   %d passed, %d failed (%ds, log %s)\n' "$p" "$f" $((SECONDS - start)) "$log"
    if [ "$f" -gt 0 ]; then
        failures+=("$script")
        grep '^FAIL ' "$log" | head -n 20 | sed 's/^/   /'
        [ "$(grep -c '^FAIL ' "$log")" -eq 0 ] && tail -n 20 "$log" | sed 's/^/   | /'
    fi
done

if [ "${#failures[@]}" -gt 0 ]; then
    echo
    echo "failing scripts (full logs under $logdir/):"
    printf '  %s\n' "${failures[@]}"
fi
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
