#!/bin/sh
# Bad label files (--labels) and failure rules (--fail-if), given to export
# (lib.sh).
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
table_part 3-report-3-labels
# Label files (--labels) and failure rules (--fail-if), with export.
labels_case () {
    what=$1 pattern=$2
    tool_case Labels "$what" "$pattern" export "$report" --sites "$sites" --labels "$scratch/labels" -o "$scratch/out"
}
printf 'passed\t%s\n' "$report" >"$scratch/labels"
labels_case "outcome 'passed'" "labels:1: expected 'success' or 'failure', a TAB and a report"
printf 'success %s\n' "$report" >"$scratch/labels"
labels_case "space instead of TAB" "labels:1: expected 'success' or 'failure', a TAB and a report"
printf 'success\t%s\nfailure\t%s\n' "$report" "$report" >"$scratch/labels"
labels_case "a run labelled twice" "labels:2: second label for '.*good.report' \(first at line 1\)"
printf 'success\t%s\nfailure\t%s/other.report\n' "$report" "$scratch" >"$scratch/labels"
labels_case "a label naming no run" "labels:2: '.*other.report' is labelled, but no run was read from it"
printf 'success\t%s/other.report\n' "$scratch" >"$scratch/labels"
labels_case "a run without a label" "good.report: no label for this run in .*labels"
printf 'success\tgood\\q.report\n' >"$scratch/labels"
labels_case "bad escape" "labels:1: bad escape '\\\\q' in report \(only"
: >"$scratch/labels"
labels_case "empty file" "labels: no labels"
cp "$report" "$scratch/labels"
labels_case "a report instead" "labels:1: not a label file \(it looks like a report\)"
for rule in signal=0 status=256 status=5-2 exit "signal,"; do
    tool_case "--fail-if" "$rule" "bad failure condition '.*' in '$rule' \(expected signal, signal=N, status=N or status=N-M, N from 0 to 255, comma-separated\)" \
        export "$report" --sites "$sites" --fail-if="$rule" -o "$scratch/out"
done

finish
