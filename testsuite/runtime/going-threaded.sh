#!/bin/bash
# Going threaded (going-threaded.c): main samples alone, then with 8
# threads on the same site (all started together at a barrier), then alone
# again (counters go from plain adds to atomic ones): at sparsity 1 the
# report counts every visit.  Dynamic and -static.
# CHECKS: bash $SRC dynamic
# CHECKS: bash $SRC static
. "$SRCDIR/lib.sh"
going_threaded_test() {   # LABEL BINARY
    local label=$1 bin=$2 dir=$scratch/going-threaded-$1 rounds=1000000
    mkdir -p "$dir"
    SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/exact.report "$bin" $rounds >"$dir/exact.out"
    same "going-threaded $label sp=1: every call ran, and the report counts all 11 x $rounds" \
        "ran $((11 * rounds))|check $((11 * rounds))" \
        "$(cat "$dir/exact.out")|$(checks "$dir/exact.report" --binary "$bin")"
}

bin=$scratch/bin/going-threaded-$link
build going-threaded "$bin" "${flags[@]}" && going_threaded_test $link "$bin"
finish
