#!/bin/bash
# Hash tables of 2 pairs (paths-array=2): every path that found a pair has
# the exact count of the build with arrays; sampled = pairs + lost.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
shapes -O2
# Hash tables of 2 pairs: the -O2 build's paths, found or lost.
dir=$scratch/hash; mkdir -p "$dir"
if compile "$dir/shapes" -O2 -fplugin-arg-sampler-schemes=paths,branches \
        -fplugin-arg-sampler-paths-array=2; then
    run "$dir/shapes" 1 2 "$dir/r"
    rows "$dir/r" --binary "$dir/shapes" >"$dir/rows"
    totals "$dir/r" --binary "$dir/shapes" >"$dir/totals"
    totals "$scratch/shapes-O2/small.report" --binary "$scratch/shapes-O2/shapes" \
        >"$dir/array.totals"
    # Every row is one of the array build's; sampled = pairs + lost, and
    # each function's sampled traversals are the array build's.
    if [ -z "$(comm -23 "$dir/rows" "$scratch/shapes-O2/small.rows")" ] &&
       awk '$2 != $3 + $4 { bad = 1 } END { exit bad }' "$dir/totals" &&
       [ "$(awk '{print $1, $2}' "$dir/totals")" = "$(awk '{print $1, $2}' "$dir/array.totals")" ] &&
       awk '$3 > 0 { lost = 1 } END { exit !lost }' "$dir/totals"; then
        pass "hash: paths found count exactly, the rest are lost ($(awk '{l += $3} END {print l}' "$dir/totals") lost)"
    else
        fail_with "hash" "$(comm -23 "$dir/rows" "$scratch/shapes-O2/small.rows")" \
            "$(cat "$dir/totals")" "$(cat "$dir/array.totals")"
    fi
else
    fail_with "hash build" "$(cat "$dir/shapes.build")"
fi
finish
