#!/bin/bash
# shapes.c with every path of a training run interesting, paths-array=1
# (so that no function fits its array): the rows equal the exact run's and
# nothing is lost.
# CHECKS: bash $SRC -O0
# CHECKS: bash $SRC -O2
. "$SRCDIR/lib.sh"
opt=$1
dir=$scratch/all$opt; mkdir -p "$dir"
if compile "$shapes" "$dir/exact" $opt &&
   exact_run "$dir/exact" "$dir" exact 2 &&
   "$report" paths "$dir/exact.report" --binary "$dir/exact" \
       --write-interesting "$dir/interesting" >/dev/null 2>"$dir/write.err" &&
   compile "$shapes" "$dir/preferred" $opt -fplugin-arg-sampler-paths-array=1 \
       -fplugin-arg-sampler-paths-interesting="$dir/interesting" \
       -fplugin-arg-sampler-dump="$dir/dump" &&
   exact_run "$dir/preferred" "$dir" preferred 2; then
    compare "all($opt)" "$dir" --all
else
    fail_with "all($opt) build" "$(cat "$dir"/*.build "$dir"/*.err 2>/dev/null | tail)"
fi
finish
