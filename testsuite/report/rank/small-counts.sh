#!/bin/sh
# Small counts: a fluke, a tie, the zero-width case (make-small-runs.py).
# Under the normal approximation without minimum support (the old rule),
# few != 0 (bound 0.745, Importance 0.425) leads real > limit (0.357); with
# Wilson's intervals few's bound is 0.235 and real leads.  The fluke is not
# kept (F 1 < 3); without the minimum support its bound is 0.004 (Wilson's
# interval of 1 of 1 reaches down to 0.21) and it comes last.  The tie goes
# to the return.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
python3 "$SRCDIR/make-small-runs.py" "$scratch/small"
small="$scratch/small/runs --sites $scratch/small/sites.txt"
small_lists () { python3 "$SRCDIR/ranking-lists.py" "$1"; }
first_predicate () { python3 "$SRCDIR/ranking-lists.py" --first "$1"; }
"$tool" rank $small --top=0 --format=csv >"$scratch/small.csv" 2>&1
want="elimination: real > limit; fgets (buf) == 0; few != 0 | ranking: real > limit; fgets (buf) == 0; fgets (buf) <= 0; res < buf; res <= buf; few != 0"
got=$(small_lists "$scratch/small.csv")
if [ "$got" = "$want" ]; then
    pass "small counts: the real predicate leads, the fluke is not kept, the tie goes to the return"
else
    printf 'got:      %s\nexpected: %s\n' "$got" "$want" >"$scratch/small.why"
    fail "small counts: the real predicate leads, the fluke is not kept, the tie goes to the return" \
        "$scratch/small.why"
fi
"$tool" rank $small --top=0 --format=csv --min-failing=1 >"$scratch/small1.csv" 2>&1
if [ "$(grep '^ranking,' "$scratch/small1.csv" | tail -n 1 | cut -d, -f11)" = "fluke != 0" ] &&
   [ "$(first_predicate "$scratch/small1.csv")" = "real > limit" ]; then
    pass "small counts, no minimum support: the fluke comes last, the real predicate leads"
else
    fail "small counts, no minimum support: the fluke comes last, the real predicate leads" \
        "$scratch/small1.csv"
fi
"$tool" rank $small --top=0 --format=csv --interval=normal --min-failing=1 >"$scratch/small-old.csv" 2>&1
if [ "$(first_predicate "$scratch/small-old.csv")" = "few != 0" ] &&
   grep -q '^ranking,.*,fluke != 0,' "$scratch/small-old.csv"; then
    pass "small counts, the old rule (normal approximation): the zero-width predicate leads, the fluke is kept"
else
    fail "small counts, the old rule (normal approximation): the zero-width predicate leads, the fluke is kept" \
        "$scratch/small-old.csv"
fi
"$tool" rank $small >"$scratch/small.txt" 2>&1
"$tool" rank $small --fail-if=signal >"$scratch/small-signal.txt" 2>&1
if grep -qx 'runs        200: 40 failing, 160 successful (failure: --fail-if=signal,status=1-255)' "$scratch/small.txt" &&
   grep -q 'the default rule: any signal or non-zero exit status is a failure' "$scratch/small.txt" &&
   grep -q 'true in at least 3 failing runs' "$scratch/small.txt" &&
   ! grep -q 'default rule' "$scratch/small-signal.txt"; then
    pass "small counts: the text says the failure rule, that it is the default, and the minimum support"
else
    fail "small counts: the text says the failure rule, that it is the default, and the minimum support" \
        "$scratch/small.txt"
fi
"$tool" rank $small --format=jsonl >"$scratch/small.jsonl" 2>&1
check "small counts: the jsonl summary has the failure rule, interval and minimum support" \
    python3 "$TOOLS/json-head.py" "$scratch/small.jsonl" failing=40 default_failure_rule=true \
    interval="\"wilson\"" min_failing=3

finish
