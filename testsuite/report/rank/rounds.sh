#!/bin/sh
# Rounds: runs of builds with different sites (make-round-runs.py).
# Adaptive instrumentation (docs/ranking.md, "Runs of several builds"): round
# 1's build has the branch x > 50 only; round 2's, a denser build, has it and
# main's entry (function-entries: a site observed in every run of its build).
# Round 1: 200 runs, 10 failing; round 2, run mostly where the failure
# shows: 50 runs, 45 failing.  x > 50 is true exactly in the failing runs.
# Counting main's entry as observed in every run of both rounds (naive
# mixing) gives Context 55/250 = 0.22 against Failure 0.9: bound 0.56,
# Importance 0.70, ahead of round 1's x > 50 (F 10 of 10, Context 0.05:
# Importance 0.62).  Observed only in the runs of its own build, main's
# entry has Context 0.9 = Failure: not kept; x > 50 leads.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
mkdir -p "$scratch/rounds/runs"
python3 "$SRCDIR/make-round-runs.py" "$scratch/rounds"
first_predicate () { python3 "$SRCDIR/ranking-lists.py" --first "$1"; }
rounds="$scratch/rounds/runs --sites $scratch/rounds/sites.txt"
"$tool" rank $rounds --top=0 --format=csv >"$scratch/rounds.csv" 2>&1
if [ "$(first_predicate "$scratch/rounds.csv")" = "x > 50" ] &&
   ! grep -q ',main entered,' "$scratch/rounds.csv"; then
    pass "rounds: an every-run site is observed only in its own build's runs; x > 50 leads"
else
    fail "rounds: an every-run site is observed only in its own build's runs; x > 50 leads" \
        "$scratch/rounds.csv"
fi
finish
