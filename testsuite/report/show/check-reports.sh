#!/bin/sh
# The checker of real packages' reports (integration/real/check-reports.py):
# at sparsity 1 a process that started at main entered it once, a fork
# child (its `parent' record says so, nothing else does) need not have;
# bounds with a minimum above the maximum are a problem, NaN and infinite
# ones are not compared.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
build_fixtures || fail "build binaries with site-table sections" "$scratch/build.log"

# fork_report PID [PARENT]: a run of demo-prog at sparsity 1 whose main
# counted a branch; entered once, unless it has a parent.
fork_report () {
    record sampler-report 1; record program "$scratch/demo-prog"; record pid "$1"
    record sparsity 1; record seed 7
    [ -z "${2-}" ] || record parent "$2"
    record exit status 0; record unit $MAIN 9 20 demo/main.c
    [ -n "${2-}" ] || record 0 1
    record 1 0 1; record end
}
check_reports () {
    python3 "$TESTSUITE/integration/real/check-reports.py" --report-tool "$tool" --plausible "$1"
}
# expect_problems NAME DIR LINE...: the checker fails on DIR, saying exactly LINEs.
expect_problems () {
    local name=$1 dir=$2 status
    shift 2
    check_reports "$dir" >/dev/null 2>"$dir.err"
    status=$?
    printf '%s\n' "$@" >"$dir.expected"
    if [ $status = 1 ] && diff -u "$dir.expected" "$dir.err" >"$scratch/diff"; then
        pass "$name"
    else
        echo "exit status $status" >>"$scratch/diff"
        fail "$name" "$scratch/diff"
    fi
}
mkdir -p "$scratch/forked" "$scratch/unmarked"
# Alone: its parent's report may be elsewhere, or none.
fork_report 4243 4242 >"$scratch/forked/r-4243"
check_reports "$scratch/forked" >"$scratch/forked.out" 2>"$scratch/forked.err"
status=$?
if [ $status = 0 ] && [ "$(cat "$scratch/forked.out")" = "1 reports read back, 1 checked at sparsity 1 (1 of them fork children), 0 of programs deleted since read without site tables, 1 folders analysed by values, paths and subpaths" ]; then
    pass "check-reports: a report with a parent record is a fork child"
else
    fail_with "check-reports: a report with a parent record is a fork child" "exit status $status" \
        "$(cat "$scratch/forked.out" "$scratch/forked.err")"
fi
# Main not entered, without the record: wrong, even beside a report that
# entered main.
fork_report 4242 >"$scratch/unmarked/r-4242"
fork_report 4243 4242 | grep -v '^parent' >"$scratch/unmarked/r-4243"
expect_problems "check-reports: without a parent record, main must be entered once" \
    "$scratch/unmarked" \
    "$scratch/unmarked/r-4243 ($scratch/demo-prog): main entered 0 times, not once" \
    "$scratch/unmarked/r-4243 ($scratch/demo-prog): function main has counts but was never entered"

# Bounds: a minimum above the maximum is wrong; a NaN or an infinity (null in
# jsonl) is not compared (gawk's format_nan_inf saw only NaNs).
# bounds_report PID MIN MAX: util's `ratio' saw two doubles (bit patterns).
bounds_report () {
    record sampler-report 1; record program "$scratch/demo-prog"; record pid "$1"
    record sparsity 1; record seed 7; record exit status 0
    record unit $MAIN 9 20 demo/main.c; record 0 1; record 1 0 1
    record unit $UTIL 3 15 demo/util.c; record 2 2 "$2" "$3"
    record end
}
mkdir -p "$scratch/nan-bounds" "$scratch/bad-bounds"
# (util has no function-entries site, so the checker also says that scale
# was never entered: that line, and nothing about its bounds.)
bounds_report 4300 9221120237041090560 9218868437227405312 >"$scratch/nan-bounds/r-4300"
expect_problems "check-reports: NaN and infinite bounds are not compared" "$scratch/nan-bounds" \
    "$scratch/nan-bounds/r-4300 ($scratch/demo-prog): function scale has counts but was never entered"
# 2.0 and 1.0
bounds_report 4301 4611686018427387904 4607182418800017408 >"$scratch/bad-bounds/r-4301"
expect_problems "check-reports: a minimum above the maximum is a problem" "$scratch/bad-bounds" \
    "$scratch/bad-bounds/r-4301 ($scratch/demo-prog): demo/util.c:7: bounds min 2 > max 1" \
    "$scratch/bad-bounds/r-4301 ($scratch/demo-prog): function scale has counts but was never entered"
finish
