#!/bin/bash
# edges.c at -O2 as edges-O2.expected: computed gotos, weightless and
# weighty calls; a function that calls setjmp is not observed.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/paths/lib.sh"
# edges.c: computed gotos, setjmp, weightless and weighty calls.
dir=$scratch/edges; mkdir -p "$dir"
if (cd "$here" && "$WRAPPER" -O2 -fchecking \
        -fplugin-arg-sampler-schemes=paths,branches -fplugin-arg-sampler-verbose \
        edges.c -o "$dir/edges") 2>"$dir/build"; then
    run "$dir/edges" 1 2 "$dir/r"
    rows "$dir/r" --binary "$dir/edges" >"$dir/rows"
    if diff -u "$here/edges-O2.expected" "$dir/rows" >"$dir/diff" &&
       grep -q "'protected_call' calls setjmp" "$dir/build" &&
       ! grep -q '^protected_call' "$dir/rows"; then
        pass "edges: goto targets, weightless and weighty calls as edges-O2.expected; setjmp's function not observed"
    else
        fail_with "edges" "$(head -30 "$dir/diff")" "$(grep sampler "$dir/build")"
    fi
else
    fail_with "edges build" "$(cat "$dir/build")"
fi
finish
