#!/bin/sh
# export, read by tools/cbi-scores.sql in SQLite, ranks exactly as rank:
# the hand-made runs and 400 synthetic runs of every scheme (make-runs.py),
# whose elimination finds the planted bugs; the exported tables' columns;
# export's usage.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
hand_csv
make_aggregates
A="$scratch/agg"
# sql_ranking DIR OUT: tools/cbi-scores.sql over an export, as CSV
sql_ranking () {
    rm -f "$scratch/cbi.db"
    sqlite3 "$scratch/cbi.db" ".import --csv $1/runs.csv runs" ".import --csv $1/sites.csv sites" \
        ".import --csv $1/counts.csv counts" ".read $top/tools/cbi-scores.sql" \
        ".mode csv" ".headers on" \
        "SELECT position, unit, site, predicate_index, f, s, f_obs, s_obs, increase_lower_bound, importance_from_lower_bound FROM cbi_scores ORDER BY position" \
        >"$2"
}
# compare_rankings RANK-CSV SQL-CSV: the same predicates in the same order, the same numbers.
# compare_rankings RANK-CSV SQL-CSV: the same predicates in the same order, the same numbers.
compare_rankings () { python3 "$SRCDIR/compare-sql.py" "$1" "$2"; }
if command -v sqlite3 >/dev/null; then
    "$tool" export "$scratch/ab.agg" --output "$scratch/export-hand" 2>&1 &&
    sql_ranking "$scratch/export-hand" "$scratch/sql-hand.csv"
    check "export of the hand-made runs: SQL ranks as rank" \
        compare_rankings "$scratch/hand.csv" "$scratch/sql-hand.csv"
    make_synthetic && "$tool" export "$scratch/syn.agg" -o "$scratch/export-syn" &&
    "$tool" rank "$scratch/syn.agg" --top=0 --format=csv >"$scratch/syn.csv" &&
    sql_ranking "$scratch/export-syn" "$scratch/sql-syn.csv"
    check "export of 400 synthetic runs of every scheme: SQL ranks as rank" \
        compare_rankings "$scratch/syn.csv" "$scratch/sql-syn.csv"
    check "synthetic runs: elimination finds the planted bugs" \
        python3 "$SRCDIR/planted-bugs.py" "$scratch/syn/bugs.txt" "$scratch/syn.csv"
    check "export: the tables' columns" sh -c "
        head -n 1 '$scratch/export-syn/runs.csv' | grep -qx 'run,origin,program,pid,sparsity,seed,exit_kind,exit_code,label' &&
        head -n 1 '$scratch/export-syn/sites.csv' | grep -qx 'unit,site,file,line,column,function,scheme,predicate,counters' &&
        head -n 1 '$scratch/export-syn/counts.csv' | grep -qx 'run,unit,site,counter,count' &&
        [ \$(wc -l <'$scratch/export-syn/runs.csv') = 401 ]"
else
    fail "sqlite3 is not installed (make deps installs it)"
fi
export_usage="usage: sampler-report export INPUT... --output DIRECTORY [--format=csv] [--binary FILE]... [--sites FILE]... [--fail-if=RULE | --labels FILE]"
expect_error "export: no output" 2 "sampler-report: 'export' needs --output DIRECTORY
$export_usage" export $hand
expect_error "export: other format" 2 "sampler-report: unknown format 'parquet' (export writes csv)
$export_usage" export $hand -o "$A" --format=parquet

finish
