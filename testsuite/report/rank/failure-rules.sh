#!/bin/sh
# Failure rules (--fail-if) and label files (--labels): the runs each rule
# calls failing; a label file saying what the default rule says gives its
# ranking; every bad label file and rule, and rank's other bad options,
# with their messages.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
hand_csv
summary () { sed -n 1p "$scratch/out"; }
rule_case () {
    name=$1 want=$2
    shift 2
    "$tool" rank $hand "$@" >"$scratch/out" 2>&1
    if [ "$(summary)" = "$want" ]; then pass "$name"; else fail "$name: $(summary)" "$scratch/out"; fi
}
rule_case "--fail-if=signal" "runs        100: 20 failing, 80 successful (failure: --fail-if=signal)" --fail-if=signal
rule_case "--fail-if=signal=11,status=3-9" \
    "runs        100: 20 failing, 80 successful (failure: --fail-if=signal=11,status=3-9)" \
    --fail-if=signal=11,status=3-9
rule_case "--fail-if=status=2" "runs        100: 20 failing, 80 successful (failure: --fail-if=status=2)" --fail-if=status=2
rule_case "--fail-if=status=0-255" "runs        100: 80 failing, 20 successful (failure: --fail-if=status=0-255)" --fail-if status=0-255
# A label file that says what the default rule says gives the same ranking.
"$tool" rank $hand --labels "$scratch/labels" --top=0 --format=csv >"$scratch/labelled.csv" 2>&1
check "label file: the default rule's ranking" cmp "$scratch/hand.csv" "$scratch/labelled.csv"
rank_usage="usage: sampler-report rank (INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... [--fail-if=RULE | --labels FILE] [--confidence=PERCENT] [--min-failing=K] [--interval=wilson|normal] [--top=N] [--steps=N] [--format=text|csv|jsonl|html] [--source-dir DIR]..."
head -n 99 "$scratch/labels" >"$scratch/labels-short"
expect_error "label file: a run without a label" 2 \
    "sampler-report: $R/run-99.report: no label for this run in $scratch/labels-short" \
    rank $hand --labels "$scratch/labels-short"
{ cat "$scratch/labels"; record failure "$R/run-100.report"; } >"$scratch/labels-extra"
expect_error "label file: a label without a run" 2 \
    "sampler-report: $scratch/labels-extra:101: '$R/run-100.report' is labelled, but no run was read from it" \
    rank $hand --labels "$scratch/labels-extra"
{ record failure "$R/run-00.report"; record failure "$R/run-00.report"; } >"$scratch/labels-twice"
expect_error "label file: two labels for a run" 2 \
    "sampler-report: $scratch/labels-twice:2: second label for '$R/run-00.report' (first at line 1)" \
    rank $hand --labels "$scratch/labels-twice"
{ record crashed "$R/run-00.report"; } >"$scratch/labels-bad"
expect_error "label file: a bad label" 2 \
    "sampler-report: $scratch/labels-bad:1: expected 'success' or 'failure', a TAB and a report" \
    rank $hand --labels "$scratch/labels-bad"
: >"$scratch/labels-empty"
expect_error "label file: empty" 2 "sampler-report: $scratch/labels-empty: no labels" \
    rank $hand --labels "$scratch/labels-empty"
expect_error "label file: missing" 2 "sampler-report: $scratch/nope: No such file or directory" \
    rank $hand --labels "$scratch/nope"
for rule in signal=0 status=256 status=5-2 crash "signal," status; do
    expect_error "bad rule '$rule'" 2 \
        "sampler-report: bad failure condition '$(printf '%s' "$rule," | cut -d, -f$(printf '%s' "$rule" | grep -q '^signal,$' && echo 2 || echo 1))' in '$rule' (expected signal, signal=N, status=N or status=N-M, N from 0 to 255, comma-separated)" \
        rank $hand --fail-if="$rule"
done
expect_error "rule and labels together" 2 "sampler-report: give --fail-if or --labels, not both
$rank_usage" rank $hand --labels "$scratch/labels" --fail-if=signal
expect_error "rank: no reports" 2 "sampler-report: 'rank' needs reports
$rank_usage" rank --top=3
expect_error "rank: bad confidence" 2 "sampler-report: bad confidence '100' (expected a percentage above 0 and below 100, such as 95)
$rank_usage" rank $hand --confidence=100
expect_error "rank: bad --top" 2 "sampler-report: bad --top '-1' (expected a number; 0 lists every kept predicate)
$rank_usage" rank $hand --top=-1
expect_error "rank: unknown format" 2 "sampler-report: unknown format 'xml' (expected text, csv, jsonl or html)
$rank_usage" rank $hand --format=xml

finish
