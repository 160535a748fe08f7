#!/bin/bash
# shapes.c trained, --write-interesting --hot=2, rebuilt: the interesting
# paths have their exact counts, every counted path exact; --hot without
# --write-interesting is a usage error.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
# Train, keep each function's two hottest paths, rebuild.
dir=$scratch/round; mkdir -p "$dir"
if compile "$shapes" "$dir/exact" -O2 && exact_run "$dir/exact" "$dir" exact 2 &&
   "$report" paths "$dir/exact.report" --binary "$dir/exact" --hot=2 \
       --write-interesting "$dir/interesting" >/dev/null 2>"$dir/write.err" &&
   compile "$shapes" "$dir/preferred" -O2 -fplugin-arg-sampler-paths-array=2 \
       -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
       -fplugin-arg-sampler-dump="$dir/dump" &&
   exact_run "$dir/preferred" "$dir" preferred 2; then
    if [ "$(grep -c '^path nested ' "$dir/interesting")" = 2 ] &&
       head -n 1 "$dir/interesting" | grep -qx 'sampler-interesting-paths 1'; then
        compare "round-trip" "$dir"
    else
        fail "round-trip: the file has not nested's two hottest paths" "$dir/interesting"
    fi
else
    fail_with "round-trip build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi


dir=$scratch/bad; mkdir -p "$dir"
if "$report" paths "$scratch/round/exact.report" --hot=3 >"$dir/hot.out" 2>&1; then
    fail "hot-usage: --hot alone accepted" "$dir/hot.out"
elif grep -q -- "--hot goes with --write-interesting" "$dir/hot.out"; then
    pass "hot-usage: --hot goes with --write-interesting"
else
    fail "hot-usage" "$dir/hot.out"
fi
finish
