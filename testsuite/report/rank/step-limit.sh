#!/bin/sh
# --steps=N: elimination stops after N steps, the same steps as without a
# limit (the small-counts runs take three); the text, HTML and jsonl say it
# stopped at the limit only when a predicate was left to take.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
python3 "$SRCDIR/make-small-runs.py" "$scratch/small"
small="$scratch/small/runs --sites $scratch/small/sites.txt"
elimination () { grep '^elimination,' "$1" | cut -d, -f2-; }
"$tool" rank $small --top=0 --format=csv >"$scratch/all.csv" 2>&1
"$tool" rank $small --top=0 --format=csv --steps=2 >"$scratch/two.csv" 2>&1
if [ "$(elimination "$scratch/all.csv" | wc -l)" = 3 ] &&
   [ "$(elimination "$scratch/two.csv")" = "$(elimination "$scratch/all.csv" | head -n 2)" ] &&
   [ "$(grep -c '^ranking,' "$scratch/two.csv")" = "$(grep -c '^ranking,' "$scratch/all.csv")" ]; then
    pass "--steps=2: the first two of the three steps, the ranking unchanged"
else
    fail "--steps=2: the first two of the three steps, the ranking unchanged" "$scratch/two.csv"
fi
"$tool" rank $small --steps=2 >"$scratch/two.txt" 2>&1
check "--steps=2: the text says elimination stopped at the limit, with the failing runs left" \
    grep -q 'failing runs explained; elimination stopped at --steps=2 with [1-9][0-9]* failing runs left$' \
    "$scratch/two.txt"
"$tool" rank $small --steps=2 --format=html >"$scratch/two.html" 2>&1
check "--steps=2: the page says elimination stopped at its limit" \
    grep -q 'elimination stopped at its --steps limit' "$scratch/two.html"
"$tool" rank $small --steps=2 --format=jsonl >"$scratch/two.jsonl" 2>&1
check "--steps=2: the jsonl summary says the limit was reached" \
    python3 "$TOOLS/json-head.py" "$scratch/two.jsonl" step_limit_reached=true
"$tool" rank $small --steps=3 --format=jsonl >"$scratch/three.jsonl" 2>&1
"$tool" rank $small --steps=3 >"$scratch/three.txt" 2>&1
check "--steps=3 on three steps: not reported as stopped by the limit" \
    sh -c "python3 '$TOOLS/json-head.py' '$scratch/three.jsonl' step_limit_reached=false &&
           ! grep -q 'stopped at' '$scratch/three.txt'"
rank_usage=$("$tool" rank 2>&1 | grep '^usage:')
expect_error "rank: bad --steps" 2 "sampler-report: bad --steps '-1' (expected a number of elimination steps; 0: no limit)
$rank_usage" rank $small --steps=-1
finish
