#!/bin/sh
# Truncations: every proper prefix of a report is rejected (exit status 2);
# only the final newline may go.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
build_fixtures || fail "build binaries with site-table sections" "$scratch/build.log"
size=$(wc -c <"$scratch/run.report")
bad=0
cut=0
while [ $cut -lt "$size" ]; do
    head -c $cut "$scratch/run.report" >"$scratch/cut.report"
    "$tool" show "$scratch/cut.report" $both >/dev/null 2>"$scratch/cut.err"
    status=$?
    # Only the final newline may go.
    if [ $cut -eq $((size - 1)) ]; then want=0; else want=2; fi
    if [ $status != $want ]; then
        echo "prefix of $cut bytes: exit status $status, expected $want" >>"$scratch/cut.why"
        bad=$((bad + 1))
    fi
    cut=$((cut + 1))
done
if [ $bad = 0 ]; then
    pass "truncations: all $size prefixes"
else
    fail "truncations: $bad of $size prefixes" "$scratch/cut.why"
fi

finish
