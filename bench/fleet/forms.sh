#!/bin/sh
# forms.sh BUILD_DIR INPUT... [-- EXPORT-OPTIONS]: the observations of runs in
# three forms, measured (docs/schema.md, "Observations"):
#   counters     one row per run and counter of an observed site (export
#                --counts: counts.csv, the form export wrote before)
#   predicates   one row per run and observed site, and one per run and
#                true predicate (narrow, no bits)
#   bits         one row per run and observed site, its true predicates as
#                bits (observations: the schema's form)
#   arrays       one row per run: its observed sites and true predicates
#                as arrays (PostgreSQL int4[], DuckDB INTEGER[])
# For each: rows, CSV bytes, PostgreSQL's table size (no index), DuckDB's
# file.  Needs the PostgreSQL server and DuckDB as run-fleet.sh does; data
# in ${FLEET_DIR:-/tmp/sampler-fleet}/forms, deleted at the end.
set -eu
build=$(cd "${1:?usage: forms.sh BUILD_DIR INPUT... [-- EXPORT-OPTIONS]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
sql=$top/tools/sql/sampler-sql
export SAMPLER_DUCKDB="$build/sql-duckdb/duckdb-sql.mjs"
work=${FLEET_DIR:-/tmp/sampler-fleet}/forms
rm -rf "$work" && mkdir -p "$work" && chmod 711 "$work" "$(dirname "$work")"
"$build/bin/sampler-report" export "$@" --counts -o "$work/export" 2>/dev/null
. "$top/testsuite/sql/pg-server.sh"
trap 'pg_server_stop; rm -rf "$work"' EXIT
mkdir "$work/pg"
pg_server_start "$work/pg" shared_buffers=512MB work_mem=256MB || { cat "$work/pg/server.log"; exit 1; }
db=$pg_url/postgres
"$sql" postgresql "$db" init
"$sql" postgresql "$db" load "$work/export" --no-fold
psql -X -q -d "$db" -c "CREATE TABLE counts (release INTEGER, run INTEGER, site INTEGER, counter INTEGER, count BIGINT)" \
    -c "\\copy counts FROM '$work/export/counts.csv' WITH (FORMAT csv, HEADER true)"
# The other forms, from the observations.
psql -X -q -d "$db" -c "
CREATE TABLE form_observed AS SELECT release, run, site FROM observations WHERE word = 0;
CREATE TABLE form_true AS SELECT o.release, o.run, p.predicate FROM observations o
    JOIN predicates p ON p.release = o.release AND p.site = o.site AND p.word = o.word
    WHERE (o.truths & p.bit) <> 0;
CREATE TABLE form_arrays AS
    SELECT o.release, o.run, o.observed, t.truths
    FROM (SELECT release, run, array_agg(site ORDER BY site) AS observed
          FROM form_observed GROUP BY release, run) o
    LEFT JOIN (SELECT release, run, array_agg(predicate ORDER BY predicate) AS truths
               FROM form_true GROUP BY release, run) t
      ON t.release = o.release AND t.run = o.run;" -c "VACUUM ANALYZE"
size () { psql -X -A -t -d "$db" -c "SELECT pg_table_size('$1') / 1048576.0"; }
count () { psql -X -A -t -d "$db" -c "SELECT count(*) FROM $1"; }
csv () { psql -X -q -d "$db" -c "\\copy ($1) TO '$work/form.csv' WITH (FORMAT csv, HEADER true)"; stat -c %s "$work/form.csv"; }
duck () {
    rm -f "$work/form.duckdb"
    node "$SAMPLER_DUCKDB" "$work/form.duckdb" -c "CREATE TABLE t AS SELECT * FROM read_csv('$work/form.csv', header = true); CHECKPOINT; SELECT 1" >/dev/null
    stat -c %s "$work/form.duckdb"
}
runs=$(count runs)
printf '%s runs\n%-12s %12s %12s %14s %14s\n' "$runs" form rows "CSV MB" "PostgreSQL MB" "DuckDB MB"
for form in counters predicates bits arrays; do
    case $form in
        counters) rows=$(count counts); bytes=$(csv "SELECT * FROM counts"); pg=$(size counts) ;;
        predicates) rows=$(($(count form_observed) + $(count form_true)))
                    bytes=$(($(csv "SELECT * FROM form_true") + $(csv "SELECT * FROM form_observed")))
                    pg=$(psql -X -A -t -d "$db" -c "SELECT (pg_table_size('form_true') + pg_table_size('form_observed')) / 1048576.0") ;;
        bits) rows=$(count observations); bytes=$(csv "SELECT * FROM observations")
              pg=$(psql -X -A -t -d "$db" -c "SELECT sum(pg_table_size(c.oid)) / 1048576.0 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'observations'") ;;
        arrays) rows=$(count form_arrays); bytes=$(csv "SELECT * FROM form_arrays"); pg=$(size form_arrays) ;;
    esac
    if [ "$form" = predicates ]; then
        duck_bytes=$(($(csv "SELECT * FROM form_true" >/dev/null; duck) + $(csv "SELECT * FROM form_observed" >/dev/null; duck)))
    elif [ "$form" = arrays ]; then
        # DuckDB's lists, from PostgreSQL's {1,2,3} text.
        csv "SELECT release, run, array_to_string(observed, ' ') AS observed, array_to_string(truths, ' ') AS truths FROM form_arrays" >/dev/null
        rm -f "$work/form.duckdb"
        node "$SAMPLER_DUCKDB" "$work/form.duckdb" -c "CREATE TABLE t AS SELECT release, run, CAST(string_split(observed, ' ') AS INTEGER[]) AS observed, CAST(string_split(coalesce(truths, ''), ' ') AS INTEGER[]) AS truths FROM read_csv('$work/form.csv', header = true, all_varchar = true); CHECKPOINT; SELECT 1" >/dev/null
        duck_bytes=$(stat -c %s "$work/form.duckdb")
    else
        duck_bytes=$(duck)
    fi
    printf '%-12s %12s %12.1f %14.1f %14.1f\n' "$form" "$rows" "$(echo "$bytes" | awk '{print $1 / 1048576}')" \
        "$pg" "$(echo "$duck_bytes" | awk '{print $1 / 1048576}')"
done
