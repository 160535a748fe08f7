#!/bin/sh
# rank on the hand-made runs (fixtures.sh): every score as recomputed by an
# independent reference (reference.py) and the elimination's steps as
# derived, at 95% and 99% (where the bounds are lower and no predicate is
# gained); the text as expected/hand.txt, the jsonl as the csv.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
hand_csv
check "hand-made runs: every score as recomputed, elimination as derived" \
    python3 "$SRCDIR/reference.py" "$scratch/hand.csv" 1.959963984540054
"$tool" rank $hand >"$scratch/hand.txt" 2>&1
check "hand-made runs: text" diff -u "$SRCDIR/expected/hand.txt" "$scratch/hand.txt"
"$tool" rank $hand --format=jsonl --top=0 >"$scratch/hand.jsonl" 2>&1
check "hand-made runs: jsonl is the csv" \
    python3 "$SRCDIR/jsonl-is-csv.py" "$scratch/hand.jsonl" "$scratch/hand.csv"
# At 99% the bounds are lower: the reference agrees with z at 99%, and no
# predicate is kept that was not kept at 95%.
"$tool" rank $hand --top=0 --format=csv --confidence=99 >"$scratch/hand99.csv" 2>&1
check "confidence 99%: the reference agrees with z = 2.5758" \
    python3 "$SRCDIR/reference.py" "$scratch/hand99.csv" 2.5758293035489004
check "confidence 99%: lower bounds, no predicate gained" \
    python3 "$SRCDIR/lower-bounds.py" "$scratch/hand.csv" "$scratch/hand99.csv"
finish
