#!/bin/bash
# indirect.c (indirect-calls) at sparsity 1, PIE and not, -O0 and -O2,
# calling its own functions, one of a library it dlopens (indirect-lib.c,
# not instrumented) and libc's: each target's calls by name as
# indirect.expected (strcmp: the name of the implementation libc chose,
# __strcmp_avx2 and the like, reads as strcmp); the names survive merge
# into an aggregate and show in export's hot_values.csv; a report without
# address samples (sizes/sizes.c's: no targets, no pointers) has no loaded
# objects;
# addresses moved in the report (move-addresses.py) read as twice+0x1, 0x1
# (no object) and linux-vdso.so.1+0x10.
# CHECKS: bash $SRC
. "$TESTSUITE/schemes/values/lib.sh"
# The report without address samples.
here=$TESTSUITE/schemes/sizes build_program sizes -O2 &&
    SAMPLER_SPARSITY=1 SAMPLER_FILE=$scratch/sizes-O2.report "$scratch/sizes-O2" 2
# "LINE:COLUMN OBSERVED TARGET VISITS FLAG", strcmp's implementations as
# strcmp.
target_rows() {   # BINARY REPORT...
    value_rows "$@" | sed -E 's/\t__strcmp_[a-z0-9_]+\t/\tstrcmp\t/'
}

if (cd "$here" && gcc -shared -fPIC -O2 indirect-lib.c -o "$scratch/indirect-lib.so") \
       2>"$scratch/build.err"; then
    for pie in pie no-pie; do
    for opt in -O0 -O2; do
        name="indirect($pie $opt)"
        flag=$([ $pie = pie ] && echo -fPIE || echo -fno-PIE)
        binary=$scratch/indirect-$pie$opt
        if ! build_program indirect $opt "$binary" $flag -$pie -ldl; then
            fail "build($name)" "$scratch/build.err"
            continue
        fi
        if SAMPLER_SPARSITY=1 SAMPLER_FILE=$binary.report "$binary" "$scratch/indirect-lib.so" \
               >/dev/null 2>"$scratch/err" &&
           target_rows "$binary" "$binary.report" >"$binary.rows" 2>>"$scratch/err" &&
           diff -u "$here/indirect.expected" "$binary.rows" >"$scratch/diff"; then
            pass "$name: 5 targets named, as indirect.expected"
        else
            cat "$scratch/err" >>"$scratch/diff"
            fail "$name" "$scratch/diff"
        fi
    done
    done
    binary=$scratch/indirect-pie-O2
    # The table site's first three targets (entries with a count, in the
    # list's order) moved: one byte into twice, an address no object holds,
    # and one in an object without a readable file (the vDSO).
    if [ -f "$binary.report" ] &&
       python3 "$here/move-addresses.py" "$binary.report" "$(nm "$binary" | awk '$3 == "twice" { print $1 }')" \
           >"$scratch/moved.report" &&
       value_rows "$binary" "$scratch/moved.report" >"$scratch/moved.rows" 2>"$scratch/err" &&
       grep -q "	twice+0x1	" "$scratch/moved.rows" &&
       grep -q "	0x1	" "$scratch/moved.rows" &&
       grep -q "	linux-vdso.so.1+0x10	" "$scratch/moved.rows"; then
        pass "indirect: name+0xN inside a function, 0xN outside every object, object+0xN"
    else
        cat "$scratch/moved.rows" >>"$scratch/err" 2>/dev/null
        fail "indirect: names of other addresses" "$scratch/err"
    fi
    if [ -f "$binary.report" ] &&
       "$report" merge "$binary.report" --binary "$binary" --output "$scratch/indirect.agg" \
           2>"$scratch/err" &&
       target_rows "$binary" "$scratch/indirect.agg" >"$scratch/agg.rows" 2>>"$scratch/err" &&
       diff -u "$here/indirect.expected" "$scratch/agg.rows" >"$scratch/diff"; then
        pass "indirect: names survive merge into an aggregate"
    else
        cat "$scratch/err" >>"$scratch/diff"
        fail "indirect: merge" "$scratch/diff"
    fi
    if [ -f "$binary.report" ] &&
       "$report" export "$binary.report" --binary "$binary" --output "$scratch/iexport" \
           2>"$scratch/err" &&
       grep -q ',[0-9]*,twice,3$' "$scratch/iexport/hot_values.csv" &&
       grep -q ',[0-9]*,triple,2$' "$scratch/iexport/hot_values.csv" &&
       [ "$(grep -c '^loaded' "$binary.report")" -ge 3 ] &&
       [ -f "$scratch/sizes-O2.report" ] && ! grep -q '^loaded' "$scratch/sizes-O2.report"; then
        pass "indirect: export names targets; loaded objects only where targets were seen"
    else
        fail "indirect: export" "$scratch/err"
    fi
else
    fail "build(indirect-lib)" "$scratch/build.err"
fi

finish
