#!/bin/bash
# paths-max=1: a function with a branch is not observed (verbose says so)
# and the program runs as plain.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
plain_run
# paths-max=1: a block with two ways out cannot be cut below it.
dir=$scratch/fallback; mkdir -p "$dir"
if compile "$dir/shapes" -O2 -fplugin-arg-sampler-schemes=paths \
        -fplugin-arg-sampler-paths-max=1 -fplugin-arg-sampler-verbose; then
    run "$dir/shapes" 1 2 "$dir/r"
    totals "$dir/r" --binary "$dir/shapes" >"$dir/totals"
    if grep -q "'early': a block has more than 1 ways out: its paths are not observed" \
            "$dir/shapes.build" &&
       ! grep -q '^early ' "$dir/totals" && cmp -s "$scratch/plain.out" "$dir/r.out"; then
        pass "fallback: functions with branches not observed at paths-max=1"
    else
        fail_with "fallback" "$(grep sampler "$dir/shapes.build" | head)" "$(cat "$dir/totals")"
    fi
else
    fail_with "fallback build" "$(cat "$dir/shapes.build")"
fi
finish
