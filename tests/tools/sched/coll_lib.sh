# Shared by tests/tools/sched/test_coll_*.sh (sourced): builds the issue-5 test driver.
# SPDX-License-Identifier: ISC
. tests/lib.sh
coll_tmp="$BUILD/tests/sched-coll.tmp"
mkdir -p "$coll_tmp"
coll_build() {
    if make -s sched-coll-test-bin >"$coll_tmp/build.log" 2>&1; then
        echo "PASS sched-coll: library and coll_test driver build (-Wall -Wextra -Werror)"
    else
        echo "FAIL sched-coll: build: $(tail -n 5 "$coll_tmp/build.log" | tr '\n' ' ')"
        exit 1
    fi
}
