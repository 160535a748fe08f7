#!/bin/bash
# Fairness on other shapes: the programs of the predicate schemes' tests
# (loops with and without sites, counted loops, returns, pairs, floats) with
# every predicate scheme and paths at -O2: each path's count and each
# function's sampled traversals at sparsity 100 within the binomial bounds
# of sparsity 1's.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
for src in "$TESTSUITE"/schemes/scalar-pairs/constants.c "$TESTSUITE"/schemes/predicates/counts.c \
           "$TESTSUITE"/schemes/predicates/kinds.c "$TESTSUITE"/schemes/branches/loops.c; do
    name=$(basename "$src" .c)
    dir=$scratch/schemes-$name; mkdir -p "$dir"
    if ! (cd "$(dirname "$src")" && "$WRAPPER" -O2 \
            -fplugin-arg-sampler-schemes=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds,paths \
            "$name.c" -o "$dir/prog" -lm) 2>"$dir/build"; then
        fail_with "binom($name)" "$(cat "$dir/build")"; continue
    fi
    run "$dir/prog" 1 "$ROUNDS" "$dir/full"
    run "$dir/prog" 100 "$ROUNDS" "$dir/sparse"
    python3 "$here/report-pairs.py" "$dir/full" "$dir/sparse" "$report" "$dir/prog" >"$dir/pairs"
    binom_check "$name" "$dir/pairs" 3
done
finish
