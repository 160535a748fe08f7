#!/bin/sh
# Label tables (label-tables.c): the clone of a function whose table of
# labels the code neither writes nor takes the address of runs its own code
# at the labels; one whose table is written or whose address escapes is not
# cloned.  Each computes what plain does.
# CHECKS: sh $SRC
. "$TOOLS/tally.sh"
gcc -O2 "$SRCDIR/label-tables.c" "$SRCDIR/probe.c" -o "$T/label-tables-plain" &&
    "$T/label-tables-plain" | tail -n 1 >"$T/label-tables.want"
gcc -O2 -c "$SRCDIR/probe.c" -o "$T/probe.o"
if ! "$WRAPPER" -O2 -no-pie -fchecking -fplugin-arg-sampler-schemes=branches \
        "$SRCDIR/label-tables.c" "$T/probe.o" \
        -o "$T/label-tables" >"$T/out" 2>&1; then
    fail "label tables: compile" "$T/out"
else
    for sparsity in 0 1; do
        got=$(SAMPLER_SPARSITY=$sparsity SAMPLER_FILE="$T/lt-report.%p" \
            "$T/label-tables" | while read -r what addr rest; do
                if [ "$what" = r ]; then
                    echo "$what $addr $rest"
                else
                    echo "$what $(addr2line -f -e "$T/label-tables" "$addr" |
                        head -n 1 | sed -E 's/\.cold$//')"
                fi
            done | tr '\n' ' ')
        clone=
        [ $sparsity = 0 ] && clone=.unsampled.0
        want="dbl relative$clone dbl relative$clone b mutable_table b mutable_table b mutable_table ea escaping eb escaping $(cat "$T/label-tables.want") "
        if [ "$got" = "$want" ]; then
            pass "label tables, sparsity $sparsity: the right copies ran, with plain's results"
        else
            printf 'want: %s\ngot:  %s\n' "$want" "$got" >"$T/out"
            fail "label tables, sparsity $sparsity: the right copies ran, with plain's results" "$T/out"
        fi
    done
fi
finish
