#!/bin/bash
# -fplugin-arg-sampler-subpath-max= refuses 3, 2048, 2^11 and text, takes
# 2^4 and 16.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
for value in 3 2048 '2^11' many; do
    if (cd "$here" && "$gcc" -fplugin-arg-sampler-schemes=subpaths \
            "-fplugin-arg-sampler-subpath-max=$value" -c loop.c -o "$scratch/x.o") \
            2>"$scratch/err"; then
        fail_with "subpath-max-arg($value)" "accepted"
    elif grep -q "subpath-max.*power of two from 2 to 1024" "$scratch/err"; then
        pass "subpath-max-arg($value)"
    else
        fail "subpath-max-arg($value)" "$scratch/err"
    fi
done
for value in '2^4' 16; do
    check "subpath-max-arg($value) taken" \
        "$gcc" -fplugin-arg-sampler-schemes=subpaths "-fplugin-arg-sampler-subpath-max=$value" \
        -c "$here/loop.c" -o "$scratch/x.o"
done
finish
