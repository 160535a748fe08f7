#!/bin/bash
# ppp.c trained on two paths of eight, run on four: the other two share the
# interesting ones' numbers and are still counted as themselves.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
# Aliases: trained on all-true and all-false.
dir=$scratch/aliases; mkdir -p "$dir"
if compile "$here/ppp.c" "$dir/exact" -O2 && exact_run "$dir/exact" "$dir" train 0 &&
   "$report" paths "$dir/train.report" --binary "$dir/exact" \
       --write-interesting "$dir/interesting" >/dev/null 2>"$dir/write.err" &&
   exact_run "$dir/exact" "$dir" exact 1 &&
   compile "$here/ppp.c" "$dir/preferred" -O2 -fplugin-arg-sampler-paths-array=4 \
       -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
       -fplugin-arg-sampler-dump="$dir/dump" &&
   exact_run "$dir/preferred" "$dir" preferred 1; then
    if grep -q '^  preferred: 2 interesting paths, numbers 0\.\.1' "$dir/dump" &&
       [ "$(grep -c '^ppp.c,[0-9]*,alias,' "$dir/preferred.csv")" = 4 ]; then
        compare "aliases" "$dir" --aliases
    else
        fail_with "aliases" "$(cat "$dir/dump")" "$(cat "$dir/preferred.csv")"
    fi
else
    fail_with "aliases build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi
finish
