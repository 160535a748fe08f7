#!/bin/sh
# rank on runs made for ties and zero counts (make-ties.py; also with
# --min-failing=1 and --confidence=99): PostgreSQL, DuckDB and SQLite give
# the same predicates in the same elimination order and ranking, the same
# counts, scores equal to 1e-9 (compare.py); the ties' order; a switch arm
# past bit 62 of its observations.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
start_postgresql
make_ties
for variant in "default:" "min-failing-1:--min-failing=1" "confidence-99:--confidence=99"; do
    label=${variant%%:*} options=${variant#*:}
    # shellcheck disable=SC2086
    "$tool" rank $ties --top=0 --format=csv $options >"$scratch/ties-$label.csv"
    # shellcheck disable=SC2086
    agree_rank "ties_${label%%-*}" "$scratch/ties-export" "$scratch/ties-$label.csv" $options
done
check "ties: rank puts a.c before its twin b.c, read () < 0 before the pair got < want" \
    python3 "$here/tie-order.py" "$scratch/ties-default.csv"
check "ties: the switch's arm 65 is a predicate past bit 62 (word 1 of its observations)" \
    sh -c "grep -q ',65,1,8,switch (op): case 65,' '$scratch/ties-export/predicates.csv' &&
           awk -F, '\$4 == 1' '$scratch/ties-export/observations.csv' | grep -q ."
finish
