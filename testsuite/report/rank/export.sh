#!/bin/sh
# export of 400 synthetic runs of every scheme (make-runs.py): the schema's
# tables, a row per run in runs.csv (its SQL is tested in testsuite/sql);
# the runs' elimination finds the planted bugs; export's usage.
# CHECKS: sh $SRC
. "$SRCDIR/fixtures.sh"
A="$scratch/agg"
make_synthetic && "$tool" export "$scratch/syn.agg" -o "$scratch/export-syn" &&
"$tool" rank "$scratch/syn.agg" --top=0 --format=csv >"$scratch/syn.csv"
check "synthetic runs: elimination finds the planted bugs" \
    python3 "$SRCDIR/planted-bugs.py" "$scratch/syn/bugs.txt" "$scratch/syn.csv"
check "export: the schema's tables, a row per run in runs.csv" sh -c "
    [ \$(ls '$scratch/export-syn' | wc -l) = 11 ] &&
    head -n 1 '$scratch/export-syn/runs.csv' | grep -qx 'release,run,run_id,origin,program,pid,sparsity,countdown_unit,seed,exit_kind,exit_code,failed,received' &&
    [ \$(wc -l <'$scratch/export-syn/runs.csv') = 401 ]"
export_usage="usage: sampler-report export INPUT... --output DIRECTORY [--release NAME] [--release-id N] [--counts] [--format=csv] [--binary FILE]... [--sites FILE]... [--fail-if=RULE | --labels FILE]"
expect_error "export: no output" 2 "sampler-report: 'export' needs --output DIRECTORY
$export_usage" export $hand
expect_error "export: other format" 2 "sampler-report: unknown format 'parquet' (export writes csv; tools/sql/sampler-sql parquet makes Parquet of it)
$export_usage" export $hand -o "$A" --format=parquet
finish
