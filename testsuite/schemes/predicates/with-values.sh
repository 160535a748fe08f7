#!/bin/bash
# One unit with scalar-pairs and the hot-list schemes (counts.c at -O2 with
# every predicate scheme and the values and sizes schemes, pairs-sites=
# assignment and =pair, at sparsity 1 and a fixed seed): neither's sites,
# counts or samples change the other's.  The predicate counters are
# counts.expected, and every site's hot-list (each value and its visits)
# is that of a build with values and sizes alone.
# CHECKS: bash $SRC
set -u
. "$TOOLS/tally.sh"
here=$SRCDIR
scratch=$T
ALL=checks,branches,returns,scalar-pairs,float-kinds,function-entries,bounds
SEED=${SEED:-4242}
rows() {   # REPORT BINARY
    "$REPORT" show "$1" --binary "$2" --all --format=csv |
    python3 "$TOOLS/csv-fields.py" line:column function scheme predicate counter count | sort
}
value_rows() {   # REPORT BINARY
    "$REPORT" values "$1" --binary "$2" --top=1024 --format=csv |
    python3 "$TOOLS/csv-fields.py" line:column function observed site_visits value visits | sort
}
dir=$scratch/with-values; mkdir -p "$dir"
if (cd "$here" && "$WRAPPER" -O2 -fchecking \
        -fplugin-arg-sampler-schemes=values,sizes counts.c -o "$dir/alone" -lm) \
        2>"$dir/build.err" &&
   SAMPLER_SPARSITY=1 SAMPLER_SEED=$SEED SAMPLER_FILE=$dir/alone.report \
        "$dir/alone" 2 >/dev/null &&
   value_rows "$dir/alone.report" "$dir/alone" >"$dir/alone.values" &&
   [ -s "$dir/alone.values" ]; then
    for mode in assignment pair; do
        prog=$dir/$mode
        if ! (cd "$here" && "$WRAPPER" -O2 -fchecking \
                -fplugin-arg-sampler-schemes=$ALL,values,sizes \
                -fplugin-arg-sampler-pairs-sites=$mode counts.c -o "$prog" -lm) \
                2>"$dir/build.err"; then
            fail_with "with-values($mode): build" "$(cat "$dir/build.err")"; continue
        fi
        SAMPLER_SPARSITY=1 SAMPLER_SEED=$SEED SAMPLER_FILE=$prog.report "$prog" 2 >/dev/null
        rows "$prog.report" "$prog" | awk -F'\t' '$3 != "values" && $3 != "sizes"' >"$prog.rows"
        value_rows "$prog.report" "$prog" >"$prog.values"
        if ! diff -u "$here/counts.expected" "$prog.rows" >"$dir/diff"; then
            fail_with "with-values($mode): predicate counters differ from counts.expected" "$(head -20 "$dir/diff")"
        elif ! diff -u "$dir/alone.values" "$prog.values" >"$dir/diff"; then
            fail_with "with-values($mode): hot-lists differ from values and sizes alone" "$(head -20 "$dir/diff")"
        else
            pass "with-values($mode): $(wc -l <"$prog.rows") counters as counts.expected, $(wc -l <"$prog.values") hot-list values as without the other schemes"
        fi
    done
else
    fail_with "with-values: counts.c with values and sizes alone" "$(cat "$dir/build.err")"
fi

finish
