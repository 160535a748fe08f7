#!/bin/bash
# A hand-written `line' entry (line 33 of shapes.c, nested's `sink = 1'):
# every path through it interesting.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
# Every path through line 33 of shapes.c (nested's `sink = 1').
dir=$scratch/line; mkdir -p "$dir"
printf 'sampler-interesting-paths 1\n# by hand\nline nested shapes.c 33\n' >"$dir/interesting"
if compile "$shapes" "$dir/exact" -O2 && exact_run "$dir/exact" "$dir" exact 2 &&
   compile "$shapes" "$dir/preferred" -O2 -fplugin-arg-sampler-paths-array=4 \
       -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
       -fplugin-arg-sampler-dump="$dir/dump" &&
   exact_run "$dir/preferred" "$dir" preferred 2; then
    if grep -q '^  preferred: 2 interesting paths, numbers 0\.\.1, compactness 1\.000, [0-9]* pairs, array' \
            "$dir/dump"; then
        compare "line" "$dir"
    else
        fail "line: nested's two paths through line 33 are not numbered 0 and 1" "$dir/dump"
    fi
else
    fail_with "line build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi
finish
