#!/bin/bash
# paths-max=2: path-limit checks cut every region to at most 2 paths,
# said by verbose and the dump; counts stay exact (every traversal sampled
# at sparsity 1), and the program runs as plain.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
plain_run
# paths-max=2: path-limit checks, every region within 2 paths.
dir=$scratch/limit; mkdir -p "$dir"
if compile "$dir/shapes" -O2 -fplugin-arg-sampler-schemes=paths \
        -fplugin-arg-sampler-paths-max=2 -fplugin-arg-sampler-verbose \
        -fplugin-arg-sampler-dump="$dir/dump"; then
    run "$dir/shapes" 1 2 "$dir/r"
    totals "$dir/r" --binary "$dir/shapes" >"$dir/totals"
    if grep -q 'path-limit checks keep every region within 2 paths' "$dir/shapes.build" &&
       grep -q 'check path-limit' "$dir/dump" &&
       awk '/^  region line/ { if ($4 > 2) bad = 1; n++ } END { exit bad || n == 0 }' "$dir/dump" &&
       awk '$2 != $4 || $3 != 0 { bad = 1 } END { exit bad }' "$dir/totals" &&
       cmp -s "$scratch/plain.out" "$dir/r.out"; then
        pass "path-limit: every region within 2 paths, counts exact"
    else
        fail_with "path-limit" "$(grep -e region -e path-limit "$dir/dump" | head)" \
            "$(cat "$dir/totals")"
    fi
else
    fail_with "path-limit build" "$(cat "$dir/shapes.build")"
fi
finish
