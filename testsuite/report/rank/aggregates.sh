#!/bin/sh
# Aggregates (merge): an aggregate ranks as its reports, a merge of
# aggregates is the same aggregate, labels name the reports it was made
# from, it holds site tables and reports in their formats; every truncation
# and damage rejected with its message; merge's usage; bad input leaves no
# aggregate, not even a temporary one.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
hand_csv
make_bad
make_aggregates
check "merge: an aggregate ranks as its reports" \
    sh -c "'$tool' rank '$scratch/all.agg' --top=0 --format=csv | cmp - '$scratch/hand.csv'"
check "merge of aggregates: the same aggregate" cmp "$scratch/all.agg" "$scratch/ab.agg"
check "labels name the reports an aggregate was made from" \
    sh -c "'$tool' rank '$scratch/ab.agg' --labels '$scratch/labels' --top=0 --format=csv | cmp - '$scratch/hand.csv'"
check "an aggregate is site tables and reports in their formats" sh -c "
    sed -n '2,/^runs\$/p' '$scratch/all.agg' | sed '\$d' | cmp - '$scratch/hand/sites.txt' &&
    sed -n '/^runs\$/,\$p' '$scratch/all.agg' | grep -c '^sampler-report	1\$' | grep -qx 100 &&
    tail -n 1 '$scratch/all.agg' | grep -qx 'aggregate-end	100'"
# Every proper prefix of an aggregate is rejected (but the last newline).
size=$(wc -c <"$scratch/a.agg")
bad=0
cut=0
while [ $cut -lt "$size" ]; do
    head -c $cut "$scratch/a.agg" >"$scratch/cut.agg"
    "$tool" rank "$scratch/cut.agg" >/dev/null 2>&1
    status=$?
    if [ $cut -eq $((size - 1)) ]; then want=0; else want=2; fi
    [ $status = $want ] || { bad=$((bad + 1)); echo "prefix $cut: status $status" >>"$scratch/cut.why"; }
    cut=$((cut + 97))
done
if [ $bad = 0 ]; then pass "aggregate truncations rejected"; else fail "aggregate truncations" "$scratch/cut.why"; fi
A="$scratch/agg"
sed '1s/1$/2/' "$scratch/a.agg" >"$A"
expect_error "aggregate: other version" 2 \
    "sampler-report: $A:1: unsupported aggregate version '2' (this sampler-report reads version 1)" rank "$A"
sed '$s/50$/51/' "$scratch/a.agg" >"$A"
expect_error "aggregate: run count differs" 2 \
    "sampler-report: $A:$(wc -l <"$A"): the aggregate says it has 51 runs, but holds 50" rank "$A"
{ cat "$scratch/a.agg"; echo more; } >"$A"
expect_error "aggregate: data after the end" 2 \
    "sampler-report: $A:$(wc -l <"$A"): data after 'aggregate-end'" rank "$A"
sed '/^run\t/{x;s/^/x/;/^x\{3\}$/{x;d};x}' "$scratch/a.agg" >"$A"
line=$(grep -n '^sampler-report' "$A" | sed -n 3p | cut -d: -f1)
expect_error "aggregate: a report without its run line" 2 \
    "sampler-report: $A:$line: expected 'run<TAB>ORIGIN' before each report of an aggregate, found 'sampler-report'" rank "$A"
sed -n '1,/^runs$/p' "$scratch/a.agg" | sed '$d' >"$A"
expect_error "aggregate: no runs line" 2 \
    "sampler-report: $A:$(wc -l <"$A"): truncated aggregate (no 'runs' line after the site tables)" rank "$A"
merge_usage="usage: sampler-report merge INPUT... --output FILE [--binary FILE]... [--sites FILE]..."
expect_error "merge: no output" 2 "sampler-report: 'merge' needs --output FILE
$merge_usage" merge $hand
expect_error "merge: labels" 2 "sampler-report: 'merge' keeps every run's exit; give --fail-if or --labels to 'rank' or 'export'
$merge_usage" merge $hand -o "$A" --fail-if=signal
values_usage="usage: sampler-report values (INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... [--min-share=P] [--top=N] [--fold-below=S] [--max-sites=N|all] [--raw-pointers] [--format=text|csv|jsonl|html]"
# values writes to standard output only: --output is refused (it once
# crashed the tool), and so are the labels it would not use.
expect_error "values: no --output" 2 "sampler-report: unknown option '--output=$A' for 'values'
$values_usage" values $hand --output="$A"
expect_error "values: labels" 2 "sampler-report: 'values' uses every run alike; --fail-if and --labels are for 'rank' and 'export'
$values_usage" values $hand --fail-if=signal
rm -f "$scratch/partial.agg"
"$tool" merge "$scratch/bad/a.report" "$scratch/bad/truncated.report" --sites "$scratch/hand/sites.txt" \
    -o "$scratch/partial.agg" 2>/dev/null
if [ $? = 2 ] && [ -z "$(ls "$scratch" | grep partial)" ]; then
    pass "merge: bad input leaves no aggregate, not even a temporary one"
else
    fail "merge: bad input leaves no aggregate"
fi

finish
