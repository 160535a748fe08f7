#!/bin/bash
# merge keeps the counts of loop.c's exact run and says that the subpath
# lists stay behind.
# CHECKS: bash $SRC
. "$SRCDIR/lib.sh"
build_loop
exact_loop -O2
# merge keeps the counts and says that the subpath lists stay behind.
if [ -f "$scratch/exact-O2.report" ] &&
   "$report" merge "$scratch/exact-O2.report" --binary "$scratch/loop-O2" \
       --output "$scratch/merged.aggregate" 2>"$scratch/merge.err" &&
   grep -q "1 run's subpath lists are not carried into the aggregate" "$scratch/merge.err" &&
   grep -q '^aggregate-end	1$' "$scratch/merged.aggregate" &&
   ! grep -q '^subpath' "$scratch/merged.aggregate"; then
    pass "merge: the counts merged, the subpath lists' absence said"
else
    fail "merge" "$scratch/merge.err"
fi
finish
