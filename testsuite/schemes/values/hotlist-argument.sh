#!/bin/bash
# -fplugin-arg-sampler-hotlist= refuses 0, 1025 and text.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
for value in 0 1025 many; do
    if (cd "$here" && "$WRAPPER" -fplugin-arg-sampler-schemes=values \
            -fplugin-arg-sampler-hotlist=$value -c exact.c -o "$scratch/x.o") \
            2>"$scratch/err"; then
        fail_with "hotlist-arg($value)" "accepted"
    elif grep -q "hotlist.*whole number from 1 to 1024" "$scratch/err"; then
        pass "hotlist-arg($value)"
    else
        fail "hotlist-arg($value)" "$scratch/err"
    fi
done

finish
