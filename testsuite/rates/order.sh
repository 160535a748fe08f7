#!/bin/bash
# Sites of one key on several lines, numbered by the plugin in another
# order than their lines' (order.c: an assignment in a loop's condition
# after the one in its body), each take their own line's weight (here:
# the line's number).
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
o=$out/order
mkdir -p "$o"
if "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs \
        -fplugin-arg-sampler-site-table="$o/default.sites" "$here/order.c" -o "$o/default" \
        2>"$o/build.err" \
    && awk -F'\t' -v OFS='\t' 'BEGIN { print "sampler-rates", 1; print "unit", 1 }
            $1 == "unit" { source = $3 }
            $1 == "site" { print "site", $5, source, $4, $5, $7, $3, $9 }' \
        "$o/default.sites" >"$o/lines.rates" \
    && "$sgcc" -O2 -fplugin-arg-sampler-schemes=branches,returns,scalar-pairs \
        -fplugin-arg-sampler-rates="$o/lines.rates" \
        -fplugin-arg-sampler-site-table="$o/lines.sites" "$here/order.c" -o "$o/lines" \
        2>>"$o/build.err"; then
    wrong=$(awk -F'\t' '$1 == "site" && $11 != $5 { print $9 " at line " $5 ": weight " $11 }' \
                "$o/lines.sites")
    # The case itself: the table lists line 18's sites of a key before
    # line 17's.
    out_of_order=$(awk -F'\t' '$1 == "site" && $9 == "at ? haystack" { print $5 }' \
                       "$o/lines.sites" | paste -sd' ')
    if [ -z "$wrong" ] && [ "$out_of_order" = "18 17" ]; then
        pass "rates: sites of one key out of line order each take their line's weight" \
            "at ? haystack at lines $out_of_order"
    else
        fail_with "rates: sites of one key out of line order each take their line's weight" \
            "$wrong" "at ? haystack at lines '$out_of_order' (expected 18 17)"
    fi
else
    fail_with "rates: order.c builds" "$(cat "$o/build.err")"
fi

finish
