#!/bin/sh
# Bad reports and tables given to rank and merge: a truncated report, a
# report and a table from different builds, no table, a site with the
# wrong number of counters, each with its message; reports written on
# demand or interim left out with a note; a report written before an exec
# and a fork child's are runs, whose records merge keeps; missing input, an
# empty folder, hidden files and stale temporary reports.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
hand_csv
make_bad
expect_error "truncated report" 2 \
    "sampler-report: $scratch/bad/truncated.report:10: truncated report (no 'end' line)" \
    rank "$scratch/bad/a.report" "$scratch/bad/truncated.report" --sites "$scratch/hand/sites.txt"
expect_error "report and site table from different builds" 2 \
    "sampler-report: $scratch/bad/mismatch.report:7: unit $UNIT has 8 sites and 28 counters, but its site table at $scratch/hand/sites.txt:1 has 8 sites and 27 counters" \
    rank "$scratch/bad/a.report" "$scratch/bad/mismatch.report" --sites "$scratch/hand/sites.txt"
expect_error "no site table" 2 \
    "sampler-report: note: the reports' program /nonexistent/hand does not exist here
sampler-report: $scratch/bad/a.report:7: unit $UNIT (src/hand.c): no site table found; pass the program or library with --binary, or a site-table file with --sites" \
    rank "$scratch/bad/a.report"
sed '/^7\t/s/$/\t0/' "$R/run-01.report" >"$scratch/bad/counters.report"
expect_error "a site with the wrong number of counters" 2 \
    "sampler-report: $scratch/bad/counters.report:15: site 7 of unit $UNIT has 4 counters, its site table has 3" \
    rank "$scratch/bad/counters.report" --sites "$scratch/hand/sites.txt"
# A report written on demand (no exit record) is a snapshot: left out, and said.
grep -v '^exit' "$R/run-02.report" >"$scratch/bad/snapshot.report"
"$tool" rank "$R" "$scratch/bad/snapshot.report" --sites "$scratch/hand/sites.txt" \
    --top=0 --format=csv >"$scratch/out" 2>"$scratch/err"
if cmp -s "$scratch/out" "$scratch/hand.csv" &&
   [ "$(cat "$scratch/err")" = "sampler-report: note: left out 1 report written on demand (no exit record: snapshots of runs that went on)" ]; then
    pass "on-demand report left out, with a note"
else
    fail "on-demand report left out, with a note" "$scratch/err"
fi
# So is an interim report (the runtime's `interim N' record).
sed 's/^exit\t.*/interim\t3/' "$R/run-02.report" >"$scratch/bad/interim.report"
"$tool" rank "$R" "$scratch/bad/interim.report" --sites "$scratch/hand/sites.txt" \
    --top=0 --format=csv >"$scratch/out" 2>"$scratch/err"
if cmp -s "$scratch/out" "$scratch/hand.csv" && grep -q "left out 1 report" "$scratch/err"; then
    pass "interim report left out, with a note"
else
    fail "interim report left out, with a note" "$scratch/err"
fi
# A report written before an exec is a run; merge keeps its exit record.
mkdir -p "$scratch/exec"
sed 's/^exit\t.*/exit\texec/' "$R/run-03.report" >"$scratch/exec/before-exec.report"
check "merge keeps an exec report's exit record, and reads it back" sh -c "
    '$tool' merge '$scratch/exec/before-exec.report' --sites '$scratch/hand/sites.txt' \
        -o '$scratch/exec.agg' && grep -qx 'exit	exec' '$scratch/exec.agg' &&
    '$tool' merge '$scratch/exec.agg' -o '$scratch/exec2.agg' && cmp '$scratch/exec.agg' '$scratch/exec2.agg'"
# A fork child's report is a run too; merge keeps its parent record.
mkdir -p "$scratch/forked"
sed 's/^seed\t.*/&\nparent\t4241/' "$R/run-03.report" >"$scratch/forked/child.report"
check "merge keeps a fork child's parent record, and reads it back" sh -c "
    grep -qx 'parent	4241' '$scratch/forked/child.report' &&
    '$tool' merge '$scratch/forked/child.report' '$R/run-04.report' --sites '$scratch/hand/sites.txt' \
        -o '$scratch/forked.agg' && [ \"\$(grep -c '^parent	' '$scratch/forked.agg')\" = 1 ] &&
    grep -qx 'parent	4241' '$scratch/forked.agg' &&
    '$tool' merge '$scratch/forked.agg' -o '$scratch/forked2.agg' && cmp '$scratch/forked.agg' '$scratch/forked2.agg'"
expect_error "only on-demand reports" 2 \
    "sampler-report: no runs: every report was written on demand (no exit record)" \
    rank "$scratch/bad/snapshot.report" --sites "$scratch/hand/sites.txt"
expect_error "missing input" 2 "sampler-report: $scratch/nope: No such file or directory" \
    rank "$scratch/nope" --sites "$scratch/hand/sites.txt"
mkdir -p "$scratch/empty-dir"
expect_error "empty directory" 2 "sampler-report: no reports: the directories given hold none" \
    rank "$scratch/empty-dir" --sites "$scratch/hand/sites.txt"
# A directory's hidden files and stale temporary reports are not read.
mkdir -p "$scratch/dir"
cp "$R"/*.report "$scratch/dir/"
head -c 50 "$R/run-00.report" >"$scratch/dir/run-00.report.tmp.4242"
echo junk >"$scratch/dir/.hidden"
"$tool" rank "$scratch/dir" --sites "$scratch/hand/sites.txt" --top=0 --format=csv \
    >"$scratch/out" 2>"$scratch/err"
if [ "$(sed 's|/dir/|/hand/runs/|' "$scratch/out" | cksum)" = "$(cksum <"$scratch/hand.csv")" ] &&
   grep -q "left out 1 directory entry that is not a regular file or is a stale temporary report" "$scratch/err"; then
    pass "directory: stale temporary report left out, with a note"
else
    fail "directory: stale temporary report left out, with a note" "$scratch/err"
fi

finish
