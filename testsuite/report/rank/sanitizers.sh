#!/bin/sh
# rank, merge and export under ASan, LSan and UBSan: the runs of the other
# cases of this folder (csv, html and jsonl rankings, a merge, an export, a
# label file naming a run that was not read, a truncated aggregate, a report
# that does not fit its table) report nothing.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
make_aggregates
make_synthetic
make_bad
{ cat "$scratch/labels"; record failure "$R/run-100.report"; } >"$scratch/labels-extra"
# A truncated aggregate: its site tables without runs.
sed -n '1,/^runs$/p' "$scratch/a.agg" | sed '$d' >"$scratch/agg"
sanitized=$SANITIZED_REPORT
: >"$scratch/sanitizer-failures"
for args in "rank $hand --top=0 --format=csv" "rank $hand --format=html" \
            "rank $scratch/syn.agg --format=jsonl" "merge $hand -o $scratch/s.agg" \
            "export $scratch/ab.agg -o $scratch/export-asan" \
            "rank $hand --labels $scratch/labels-extra" "rank $scratch/agg" \
            "rank $scratch/bad/a.report $scratch/bad/mismatch.report --sites $scratch/hand/sites.txt"; do
    # shellcheck disable=SC2086
    "$sanitized" $args >/dev/null 2>"$scratch/asan.err"
    status=$?
    if [ $status -gt 2 ] || grep -q 'Sanitizer\|runtime error' "$scratch/asan.err"; then
        { echo "$args: status $status"; cat "$scratch/asan.err"; } >>"$scratch/sanitizer-failures"
    fi
done
if [ -s "$scratch/sanitizer-failures" ]; then
    fail "rank, merge and export under ASan, LSan and UBSan" "$scratch/sanitizer-failures"
else
    pass "rank, merge and export under ASan, LSan and UBSan"
fi
finish
