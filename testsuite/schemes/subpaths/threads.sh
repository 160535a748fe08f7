#!/bin/bash
# threads.c: four threads at sparsity 1, every subpath counted; fork: the
# child's report holds its own subpaths only, the parent's its threads' and
# its own; an abort while the main thread records (sparsity 1): the report
# at the signal holds every list.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
# Threads and fork: f's first branch taken 500 times per 3000 passes.
if build_program threads -O2 "$scratch/threads" -pthread -fplugin-arg-sampler-schemes=subpaths; then
    env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/threads.report" \
        "$scratch/threads" 3000
    count=$(subpath_rows "$scratch/threads" 2 "$scratch/threads.report" 2>"$scratch/err" |
            awk -F'\t' '$4 == "f:16 f:17" { print $1 }')
    lists=$(grep -c '^subpaths	' "$scratch/threads.report")
    if [ "$count" = 2000 ] && [ "$lists" -ge 1 ]; then
        pass "threads: f:16 f:17 counted 2000 times over $lists lists"
    else
        fail_with "threads" "count '$count' (2000 expected), $lists lists" "$(cat "$scratch/err")"
    fi
    mkdir -p "$scratch/fork"
    env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/fork/%p.report" \
        "$scratch/threads" 3000 fork
    parent= child=
    for file in "$scratch"/fork/*.report; do
        c=$(subpath_rows "$scratch/threads" 2 "$file" | awk -F'\t' '$4 == "f:16 f:17" { print $1 }')
        if grep -q '^parent	' "$file"; then child=$c; else parent=$c; fi
    done
    if [ "$parent" = 3000 ] && [ "$child" = 500 ]; then
        pass "fork: the parent counts 3000, the child 500"
    else
        fail_with "fork" "parent '$parent' (3000 expected), child '$child' (500 expected)"
    fi
    # A crash in the middle of a subpath: the report at the signal has the
    # lists, and reads.
    (env $exact_env SAMPLER_SUBPATH_MAX=2 SAMPLER_FILE="$scratch/crash.report" \
        "$scratch/threads" 3000 abort; true) 2>/dev/null
    if grep -q '^exit	signal	6$' "$scratch/crash.report" 2>/dev/null &&
       count=$(subpath_rows "$scratch/threads" 2 "$scratch/crash.report" 2>"$scratch/err" |
               awk -F'\t' '$4 == "f:16 f:17" { print $1 }') &&
       [ "$count" = 2500 ]; then
        pass "crash: the abort's report lists f:16 f:17 $count times"
    else
        fail "crash" "$scratch/err"
    fi
else
    fail "build(threads)" "$scratch/build.err"
fi
finish
