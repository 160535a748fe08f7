#!/bin/sh
# Damaged aggregates (what merge writes) given to merge and export
# (lib.sh): other versions, truncations, run counts, runs without their
# origin, a site table unlike --sites', data after the end.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
table_part 3-report-2-aggregates
# Aggregates (what merge writes).
aggregate_case () {
    what=$1 pattern=$2 file=$3
    tool_case Aggregate "$what" "$pattern" merge "$file" -o "$scratch/out"
    tool_case Aggregate "$what" "$pattern" export "$file" -o "$scratch/out"
}
sed '1s/\t1$/\t7/' "$aggregate" >"$(bad agg-version)"
aggregate_case "version 7" "agg-version:1: unsupported aggregate version '7' \(this sampler-report reads version 1\)" "$(bad agg-version)"
sed '$d' "$aggregate" >"$(bad agg-cut)"
aggregate_case "last line missing" "agg-cut:[0-9]+: truncated aggregate \(no 'aggregate-end' line\)" "$(bad agg-cut)"
sed '/^runs$/,$d' "$aggregate" >"$(bad agg-tables)"
aggregate_case "only its site tables" "agg-tables:[0-9]+: truncated aggregate \(no 'runs' line after the site tables\)" "$(bad agg-tables)"
sed 's/^aggregate-end\t.*/aggregate-end\t5/' "$aggregate" >"$(bad agg-count)"
aggregate_case "run count 5 at the end" "agg-count:[0-9]+: the aggregate says it has 5 runs, but holds 1" "$(bad agg-count)"
sed 's/^run\t.*/run/' "$aggregate" >"$(bad agg-run)"
aggregate_case "'run' without its origin" "agg-run:[0-9]+: expected 'run<TAB>ORIGIN' before each report of an aggregate, found 'run'" "$(bad agg-run)"
sed '0,/^site\t0\t/s/\(^site\t0\t[^\t]*\t[^\t]*\t\)\([0-9]*\)/\19\2/' "$aggregate" >"$(bad agg-table)"
tool_case Aggregate "a site table unlike --sites'" "agg-table:2: unit [0-9a-f]{32} differs from the table with the same signature at" merge "$(bad agg-table)" --sites "$sites" -o "$scratch/out"
{ cat "$aggregate"; echo more; } >"$(bad agg-after)"
aggregate_case "data after 'aggregate-end'" "agg-after:[0-9]+: data after 'aggregate-end'" "$(bad agg-after)"

finish
