#!/bin/bash
# tailcall.c at -O2: a region that ends in a sibling call (free before the
# return) counts its traversals, as many as the region before it: its exit
# marker must not be jumped over.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
# A region that ends in a call GCC would make a sibling call: its exit
# marker must not be jumped over.
dir=$scratch/tailcall; mkdir -p "$dir"
if "$WRAPPER" -O2 -fplugin-arg-sampler-schemes=paths "$here/tailcall.c" \
        -o "$dir/tailcall" 2>"$dir/build"; then
    SAMPLER_SPARSITY=1 SAMPLER_FILE="$dir/r" "$dir/tailcall"
    status=$?
    rows "$dir/r" --binary "$dir/tailcall" | grep '^pop	' >"$dir/rows"
    if [ $status = 0 ] && [ "$(wc -l <"$dir/rows")" = 2 ] &&
       [ "$(cut -f2 "$dir/rows" | sort -u)" = 1000 ]; then
        pass "tailcall: the region ending in a sibling call counts its 1000 traversals"
    else
        fail_with "tailcall" "status $status" "$(cat "$dir/rows")"
    fi
else
    fail_with "tailcall build" "$(cat "$dir/build")"
fi
finish
