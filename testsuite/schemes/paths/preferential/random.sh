#!/bin/bash
# gen-cfgs.py (seed 11): 24 random functions, a random half of each one's
# paths interesting (half-interesting.py, seed 5), at -O2.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
# Random control flow, random interesting sets.
dir=$scratch/random; mkdir -p "$dir"
python3 "$here/gen-cfgs.py" 11 24 >"$dir/random.c"
if compile "$dir/random.c" "$dir/exact" -O2 -fplugin-arg-sampler-paths-array=4096 &&
   exact_run "$dir/exact" "$dir" exact 300 &&
   "$report" paths "$dir/exact.report" --binary "$dir/exact" \
       --write-interesting "$dir/all" >/dev/null 2>"$dir/write.err"; then
    python3 "$here/half-interesting.py" "$dir/all" >"$dir/interesting"
    if compile "$dir/random.c" "$dir/preferred" -O2 -fplugin-arg-sampler-paths-array=8 \
           -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
           -fplugin-arg-sampler-dump="$dir/dump" &&
       exact_run "$dir/preferred" "$dir" preferred 300; then
        compare "random" "$dir"
    else
        fail_with "random build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
    fi
else
    fail_with "random training" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi
finish
