#!/bin/bash
# 16 threads on shared sites (threads.c).  Sparsity 1: each thread's own
# count and the report's totals are exact.  Sparsity 100, a fixed seed: each
# thread's samples within the 99.9% binomial bounds (Bonferroni over the
# threads), the report's total is the sum of the threads' counts, and a
# second run samples the same visits in every thread (streams follow
# creation order, not scheduling).  Dynamic and -static.
# CHECKS: bash $SRC dynamic
# CHECKS: bash $SRC static
. "$SRCDIR/lib.sh"
threads_tests() {   # LABEL BINARY
    local label=$1 bin=$2 dir=$scratch/threads-$1 rounds=20000 out bad
    mkdir -p "$dir"
    SAMPLER_SPARSITY=1 SAMPLER_FILE=$dir/exact.report "$bin" $rounds >"$dir/exact.out"
    bad=$(awk -v r=$rounds '$4 != r' "$dir/exact.out")
    if [ -z "$bad" ] && [ "$(wc -l <"$dir/exact.out")" = 16 ]; then
        pass "threads $label sp=1: every thread sampled each of its $rounds visits"
    else
        fail_with "threads $label sp=1: per-thread counts" "$(cat "$dir/exact.out")"
    fi
    same "threads $label sp=1: report counts all 16 x $rounds visits" \
        "check $((16 * rounds))" "$(checks "$dir/exact.report" --binary "$bin")"
    # The branches of work(): not sampled, so not in the report (checks only).
    for run in first again; do
        SAMPLER_SPARSITY=100 SAMPLER_SEED=4242 SAMPLER_FILE=$dir/$run.report \
            "$bin" $rounds >"$dir/$run.out"
    done
    bad=""
    local conf
    conf=$(awk 'BEGIN { printf "%.10f", 1 - 0.001 / 16 }')
    while read -r _ thread _ samples; do
        "$statcheck" binom $rounds "$samples" 1/100 "$conf" >/dev/null ||
            bad="$bad thread $thread: $samples of $rounds;"
    done <"$dir/first.out"
    if [ -z "$bad" ]; then
        pass "threads $label sp=100: each thread's samples within binomial bounds"
    else
        fail_with "threads $label sp=100: binomial bounds" "$bad"
    fi
    local sum
    sum=$(awk '{ s += $4 } END { print s }' "$dir/first.out")
    same "threads $label sp=100: report total is the threads' sum" "check $sum" \
        "$(checks "$dir/first.report" --binary "$bin")"
    if cmp -s "$dir/first.out" "$dir/again.out"; then
        pass "threads $label sp=100: same seed, same samples in every thread"
    else
        fail_with "threads $label sp=100: same seed, other samples" \
            "$(diff "$dir/first.out" "$dir/again.out" | head -n 6)"
    fi
}

bin=$scratch/bin/threads-$link
build threads "$bin" "${flags[@]}" && threads_tests $link "$bin"
finish
