#!/bin/sh
# The three engines' stores have the same tables, views and columns, those
# of export's CSV files; Parquet from the CSV, partitioned by release.
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
start_postgresql
make_ties
columns_query="SELECT table_name, column_name FROM information_schema.columns WHERE table_schema IN ('public', 'main') ORDER BY table_name, ordinal_position"
for engine in postgresql duckdb; do
    db=$(store "$engine" columns) && "$sql" "$engine" "$db" query "$columns_query" \
        >"$scratch/columns-$engine.csv"
done
db=$(store sqlite columns) && "$sql" sqlite "$db" query "SELECT m.name AS table_name, p.name AS column_name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid" >"$scratch/columns-sqlite.csv"
check "the stores of PostgreSQL, DuckDB and SQLite have the same tables, views and columns" sh -c "
    cmp '$scratch/columns-postgresql.csv' '$scratch/columns-duckdb.csv' &&
    cmp '$scratch/columns-postgresql.csv' '$scratch/columns-sqlite.csv'"
check "export's CSV files have the columns of the store's tables" \
    python3 "$here/export-columns.py" "$scratch/columns-sqlite.csv" "$scratch/ties-export"
if [ -f "$SAMPLER_DUCKDB" ]; then
    "$sql" duckdb "$scratch/parquet.duckdb" parquet "$scratch/ties-export" "$scratch/parquet" \
        >"$scratch/parquet.log" 2>&1
    check "Parquet from the CSV, partitioned by release, holds every row" sh -c "
        [ -d '$scratch/parquet/observations/release=1' ] &&
        n=\$(node '$SAMPLER_DUCKDB' :memory: -c \"SELECT count(*) FROM read_parquet('$scratch/parquet/observations/*/*.parquet')\" | sed -n 2p) &&
        [ \"\$n\" = \$((\$(wc -l <'$scratch/ties-export/observations.csv') - 1)) ]"
fi
finish
