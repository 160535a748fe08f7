#!/bin/bash
# sizes.c at sparsity 1, -O0 and -O2 (the sizes scheme: memcpy, memset,
# malloc, calloc, strncmp, __builtin_memmove; constant sizes are no
# sites): every value's visits as sizes.expected.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
name=sizes
for opt in -O0 -O2; do
    if ! build_program $name $opt; then
        fail "build($name $opt)" "$scratch/build.err"
        continue
    fi
    if SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/$name$opt.report "$scratch/$name$opt" 2 &&
       value_rows "$scratch/$name$opt" "$scratch/$name$opt.report" >"$scratch/$name$opt.rows" &&
       diff -u "$here/$name.expected" "$scratch/$name$opt.rows" >"$scratch/diff"; then
        pass "$name($opt): $(wc -l <"$scratch/$name$opt.rows") values as $name.expected"
    else
        fail "$name($opt)" "$scratch/diff"
    fi
done

finish
