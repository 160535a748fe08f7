#!/bin/sh
# The analysis in SQL (tools/sql/, docs/schema.md) against sampler-report on
# the same runs, on PostgreSQL 15 (a server this script starts with initdb
# and pg_ctl in a temporary directory, on a loopback port, and stops),
# DuckDB (npm's @duckdb/node-api, `make sql-deps') and SQLite:
#   - rank: the same predicates in the same elimination order and ranking,
#     the same counts, scores equal to 1e-9, on runs made for ties and
#     zero counts (make-ties.py; also with --min-failing=1 and
#     --confidence=99), synthetic runs of every predicate scheme
#     (testsuite/report/make-runs.py) and the bc case study's runs (200
#     runs at sparsity 100, from the cache `make evaluate-ranking' keeps in
#     BUILD_DIR/evaluate-ranking: bc is built there once);
#   - folding runs as they arrive: two loads, each folded, rank as one;
#   - two releases in one store, ranked apart;
#   - values, paths and subpaths of profile.c's runs: the same lists;
#   - the three engines' stores have the same tables and columns, those of
#     export's CSV files; Parquet from the CSV.
# Usage: run-sql-tests.sh BUILD_DIR   (make check-sql; prints "N passed, N failed")
build=$(cd "${1:?usage: run-sql-tests.sh BUILD_DIR}" && pwd) || exit 2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../tools/tally.sh"
tool=$build/bin/sampler-report
sql=$top/tools/sql/sampler-sql
export SAMPLER_DUCKDB="$build/sql-duckdb/duckdb-sql.mjs"
engines="postgresql duckdb sqlite"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/sampler-sql-tests.XXXXXX") || exit 2
# The server runs as postgres when this runs as root: it must reach its directory.
chmod 711 "$scratch"
. "$here/pg-server.sh"
trap 'pg_server_stop; rm -rf "$scratch"' EXIT

# --- The engines --------------------------------------------------------------------
if [ -z "$pg_bin" ] || ! command -v psql >/dev/null; then
    fail "PostgreSQL 15 is not installed (make deps installs postgresql)"
else
    mkdir "$scratch/pg"
    if pg_server_start "$scratch/pg" fsync=off; then
        pass "PostgreSQL $(psql -X -A -t -d "$pg_url/postgres" -c 'SHOW server_version' | cut -d' ' -f1) started on 127.0.0.1:$pg_port"
    else
        fail "initdb and pg_ctl start" "$scratch/pg/server.log"
        cat "$scratch/pg.initdb.log"
    fi
fi
if [ -f "$SAMPLER_DUCKDB" ]; then
    pass "DuckDB $(node "$SAMPLER_DUCKDB" :memory: -c 'SELECT version()' | sed -n 2p) from npm"
else
    fail "no $SAMPLER_DUCKDB: make sql-deps installs DuckDB"
fi
command -v sqlite3 >/dev/null && pass "SQLite $(sqlite3 --version | cut -d' ' -f1)" ||
    fail "sqlite3 is not installed (make deps installs it)"

# store ENGINE NAME: a new, empty store NAME on ENGINE, initialised; prints its DATABASE.
store () {
    case $1 in
        postgresql)
            psql -X -q -d "$pg_url/postgres" -c "DROP DATABASE IF EXISTS $2" \
                -c "CREATE DATABASE $2" >/dev/null 2>&1
            db=$pg_url/$2 ;;
        *) db=$scratch/$2.$1; rm -f "$db" ;;
    esac
    "$sql" "$1" "$db" init >"$scratch/init.log" 2>&1 || { cat "$scratch/init.log" >&2; return 1; }
    echo "$db"
}

# agree_rank NAME EXPORT C-CSV [RANK-OPTIONS]: the export loaded into each
# engine, ranked by SQL with the options, against rank's CSV; the engines'
# answers against each other.
agree_rank () {
    name=$1 export=$2 expected=$3
    shift 3
    for engine in $engines; do
        out=$scratch/$name-$engine.csv
        if db=$(store "$engine" "$name") && "$sql" "$engine" "$db" load "$export" \
               >"$scratch/load.log" 2>&1 &&
           "$sql" "$engine" "$db" rank --top 0 "$@" >"$out" 2>"$scratch/rank.log"; then
            check "$name: $engine ranks as rank" python3 "$here/compare.py" rank "$expected" "$out"
        else
            fail "$name: $engine loads and ranks" "$scratch/rank.log"
            cat "$scratch/load.log"
        fi
    done
    check "$name: PostgreSQL, DuckDB and SQLite give the same answer" sh -c "
        python3 '$here/compare.py' engines '$scratch/$name-postgresql.csv' '$scratch/$name-duckdb.csv' &&
        python3 '$here/compare.py' engines '$scratch/$name-postgresql.csv' '$scratch/$name-sqlite.csv'"
}

# --- Ties and zero counts --------------------------------------------------------------
python3 "$here/make-ties.py" "$scratch/ties" --runs 300 --seed 1
ties="$scratch/ties/runs --sites $scratch/ties/sites.txt --fail-if=signal"
"$tool" export $ties -o "$scratch/ties-export" 2>"$scratch/export.log" ||
    fail "export of the runs made for ties" "$scratch/export.log"
for variant in "default:" "min-failing-1:--min-failing=1" "confidence-99:--confidence=99"; do
    label=${variant%%:*} options=${variant#*:}
    # shellcheck disable=SC2086
    "$tool" rank $ties --top=0 --format=csv $options >"$scratch/ties-$label.csv"
    # shellcheck disable=SC2086
    agree_rank "ties_${label%%-*}" "$scratch/ties-export" "$scratch/ties-$label.csv" $options
done
check "ties: rank puts a.c before its twin b.c, read () < 0 before the pair got < want" \
    python3 -c "
import csv
rows = [r for r in csv.DictReader(open('$scratch/ties-default.csv')) if r['list'] == 'ranking']
order = [(r['file'], r['predicate']) for r in rows]
assert order[:6] == [('a.c', 'switch (op): case 65'), ('b.c', 'switch (op): case 65'),
                     ('a.c', 'read (fd) < 0'), ('b.c', 'read (fd) < 0'),
                     ('a.c', 'got < want'), ('b.c', 'got < want')], order"
check "ties: the switch's arm 65 is a predicate past bit 62 (word 1 of its observations)" \
    sh -c "grep -q ',65,1,8,switch (op): case 65,' '$scratch/ties-export/predicates.csv' &&
           awk -F, '\$4 == 1' '$scratch/ties-export/observations.csv' | grep -q ."

# --- Synthetic runs of every predicate scheme --------------------------------------------
python3 "$top/testsuite/report/make-runs.py" "$scratch/syn" --runs 400 --sites 900 --units 3 \
    --observed 0.2 --bugs 3 --seed 11
"$tool" rank "$scratch/syn/runs" --sites "$scratch/syn/sites.txt" --top=0 --format=csv \
    >"$scratch/syn.csv"
"$tool" export "$scratch/syn/runs" --sites "$scratch/syn/sites.txt" -o "$scratch/syn-export" \
    2>"$scratch/export.log" || fail "export of the synthetic runs" "$scratch/export.log"
agree_rank every_scheme "$scratch/syn-export" "$scratch/syn.csv"

# --- Folding as runs arrive; two releases ------------------------------------------------
# The ties' export cut in two by run: the first load has the release's sites.
python3 - "$scratch/ties-export" "$scratch/first" "$scratch/second" <<'EOF'
import csv, os, sys
source, first, second = sys.argv[1:]
for out in (first, second):
    os.makedirs(out, exist_ok=True)
for name in os.listdir(source):
    with open(os.path.join(source, name), newline="") as f:
        lines = f.read().splitlines(keepends=True)
    header = lines[0].strip().split(",")
    parts = ([lines[0]], [lines[0]])
    for line in lines[1:]:
        row = next(csv.reader([line]))
        later = "run" in header and int(row[header.index("run")]) > 150
        parts[later].append(line)
    for out, part in zip((first, second), parts):
        with open(os.path.join(out, name), "w", newline="") as f:
            f.writelines(part)
EOF
for engine in $engines; do
    db=$(store "$engine" folds) &&
    "$sql" "$engine" "$db" load "$scratch/first" >"$scratch/load.log" 2>&1 &&
    "$sql" "$engine" "$db" query "SELECT failing + successful AS runs FROM release_counts" \
        >"$scratch/after-first.csv" &&
    "$sql" "$engine" "$db" load "$scratch/second" >>"$scratch/load.log" 2>&1 &&
    "$sql" "$engine" "$db" fold >>"$scratch/load.log" 2>&1 &&
    "$sql" "$engine" "$db" rank --top 0 >"$scratch/folds-$engine.csv" 2>>"$scratch/load.log"
    if [ "$(sed -n 2p "$scratch/after-first.csv")" = 150 ] &&
       python3 "$here/compare.py" rank "$scratch/ties-default.csv" "$scratch/folds-$engine.csv" \
           >"$scratch/check.log" 2>&1; then
        pass "$engine: 150 runs folded, then 150 more (and an empty fold): ranks as rank on all 300"
    else
        fail "$engine: runs folded in two loads rank as rank on all" "$scratch/check.log"
        cat "$scratch/load.log"
    fi
done
"$tool" export $ties -o "$scratch/ties-2" --release ties-2 --release-id 2 2>/dev/null
for engine in $engines; do
    db=$(store "$engine" releases) &&
    "$sql" "$engine" "$db" load "$scratch/ties-export" >"$scratch/load.log" 2>&1 &&
    "$sql" "$engine" "$db" load "$scratch/ties-2" >>"$scratch/load.log" 2>&1 &&
    "$sql" "$engine" "$db" rank --top 0 --release 2 >"$scratch/release-2.csv" 2>>"$scratch/load.log" &&
    "$sql" "$engine" "$db" query "SELECT count(*) FROM elimination_steps WHERE release = 1" \
        >"$scratch/release-1-steps.csv"
    check "$engine: two releases in one store; release 2 ranks as rank, release 1 untouched" sh -c "
        python3 '$here/compare.py' rank '$scratch/ties-default.csv' '$scratch/release-2.csv' &&
        [ \"\$(sed -n 2p '$scratch/release-1-steps.csv')\" = 0 ]"
done
if [ -n "$pg_url" ]; then
    check "postgresql: each release's runs and observations are a partition of their own" sh -c "
        psql -X -A -t -d '$pg_url/releases' -c \"SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE c.relname IN ('runs_1', 'runs_2', 'observations_1', 'observations_2')\" | grep -qx 4 &&
        psql -X -A -t -d '$pg_url/releases' -c 'SELECT count(*) FROM ONLY observations_2' | grep -qvx 0"
fi

# --- The stores' tables -----------------------------------------------------------------------
columns_query="SELECT table_name, column_name FROM information_schema.columns WHERE table_schema IN ('public', 'main') ORDER BY table_name, ordinal_position"
for engine in postgresql duckdb; do
    db=$(store "$engine" columns) && "$sql" "$engine" "$db" query "$columns_query" \
        >"$scratch/columns-$engine.csv"
done
db=$(store sqlite columns) && "$sql" sqlite "$db" query "SELECT m.name AS table_name, p.name AS column_name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid" >"$scratch/columns-sqlite.csv"
check "the stores of PostgreSQL, DuckDB and SQLite have the same tables, views and columns" sh -c "
    cmp '$scratch/columns-postgresql.csv' '$scratch/columns-duckdb.csv' &&
    cmp '$scratch/columns-postgresql.csv' '$scratch/columns-sqlite.csv'"
check "export's CSV files have the columns of the store's tables" python3 - \
    "$scratch/columns-sqlite.csv" "$scratch/ties-export" <<'EOF'
import csv, os, sys
columns = {}
for row in csv.DictReader(open(sys.argv[1])):
    columns.setdefault(row["table_name"], []).append(row["column_name"])
names = sorted(os.listdir(sys.argv[2]))
assert len(names) == 11, names
for name in names:
    header = open(os.path.join(sys.argv[2], name)).readline().strip().split(",")
    assert header == columns[name[:-4]], (name, header, columns[name[:-4]])
EOF
if [ -f "$SAMPLER_DUCKDB" ]; then
    "$sql" duckdb "$scratch/parquet.duckdb" parquet "$scratch/ties-export" "$scratch/parquet" \
        >"$scratch/parquet.log" 2>&1
    check "Parquet from the CSV, partitioned by release, holds every row" sh -c "
        [ -d '$scratch/parquet/observations/release=1' ] &&
        n=\$(node '$SAMPLER_DUCKDB' :memory: -c \"SELECT count(*) FROM read_parquet('$scratch/parquet/observations/*/*.parquet')\" | sed -n 2p) &&
        [ \"\$n\" = \$((\$(wc -l <'$scratch/ties-export/observations.csv') - 1)) ]"
fi

# --- Values, paths and subpaths ----------------------------------------------------------------
mkdir -p "$scratch/profile"
"$build/bin/sampler-gcc" -O1 -fplugin-arg-sampler-schemes=values,sizes,indirect-calls,paths,subpaths \
    "$here/profile.c" -o "$scratch/profile/profile" 2>"$scratch/build.log" ||
    fail "build profile.c" "$scratch/build.log"
# Runs of different lengths: some hot-lists overflow (thinned when combined);
# subpath lists large enough to keep one scale.
for i in $(seq 1 30); do
    SAMPLER_SUBPATH_MEMORY=4194304 SAMPLER_SPARSITY=10 SAMPLER_SEED=$i \
        SAMPLER_FILE="$scratch/profile/runs/run-$i.report" \
        "$scratch/profile/profile" $((i * 300)) >/dev/null
done
profile="$scratch/profile/runs --binary $scratch/profile/profile"
"$tool" export $profile -o "$scratch/profile-export" 2>"$scratch/export.log" ||
    fail "export of profile.c's runs" "$scratch/export.log"
"$tool" values $profile --top=1024 --format=jsonl >"$scratch/values.jsonl"
"$tool" paths $profile --top=50 --format=jsonl >"$scratch/paths.jsonl"
"$tool" subpaths $profile --top=100000 --format=jsonl >"$scratch/subpaths.jsonl"
for engine in $engines; do
    db=$(store "$engine" profile) &&
    "$sql" "$engine" "$db" load "$scratch/profile-export" >"$scratch/load.log" 2>&1 || {
        fail "$engine: load profile.c's runs" "$scratch/load.log"
        continue
    }
    for kind in values:1024:values.jsonl paths:50:paths.jsonl subpaths:100000:subpaths.jsonl; do
        list=${kind%%:*} rest=${kind#*:}
        "$sql" "$engine" "$db" "$list" --top "${rest%%:*}" >"$scratch/$list-$engine.csv" 2>&1
        check "$engine: $list as sampler-report $list" python3 "$here/compare.py" "$list" \
            "$scratch/${rest#*:}" "$scratch/$list-$engine.csv" "$scratch/profile-export"
    done
done
for list in values paths subpaths; do
    check "$list: PostgreSQL, DuckDB and SQLite give the same answer" sh -c "
        python3 '$here/compare.py' engines '$scratch/$list-postgresql.csv' '$scratch/$list-duckdb.csv' &&
        python3 '$here/compare.py' engines '$scratch/$list-postgresql.csv' '$scratch/$list-sqlite.csv'"
done

# --- The bc case study ---------------------------------------------------------------------------
# Its bc with the more_arrays bug, and runs 1 to 200 at sparsity 100, as
# evaluate-ranking.sh keeps them (built and run here the first time).
work=${WORK:-$build/evaluate-ranking}
(
    here=$top/testsuite/case-study
    . "$here/evaluate-lib.sh"
    build_bc plain gcc "-O2" "" && reference=$work/plain/bc/bc &&
    build_bc sampled-more-arrays "$build/bin/sampler-gcc" \
        "-O2 -fplugin-arg-sampler-schemes=$schemes" "$top/testsuite/case-study/bc-more-arrays.patch" &&
    first=1 && for last in 25 50 100 200; do
        inputs "$last"
        run_chunk "$work/more-arrays/s100/runs-$first-$last" "$work/sampled-more-arrays/bc/bc" 100 \
            "$first" "$last"
        first=$((last + 1))
    done
) >"$scratch/bc.log" 2>&1
bc_runs=
: >"$scratch/bc.labels"
for chunk in 1-25 26-50 51-100 101-200; do
    bc_runs="$bc_runs $work/more-arrays/s100/runs-$chunk"
    cat "$work/more-arrays/s100/runs-$chunk.labels" >>"$scratch/bc.labels" 2>/dev/null
done
if [ "$(wc -l <"$scratch/bc.labels")" -ge 190 ] && grep -q '^failure' "$scratch/bc.labels"; then
    bc="$bc_runs --binary $work/sampled-more-arrays/bc/bc --labels $scratch/bc.labels"
    # shellcheck disable=SC2086
    "$tool" rank $bc --top=0 --format=csv >"$scratch/bc.csv" 2>"$scratch/rank.log" &&
    "$tool" export $bc -o "$scratch/bc-export" 2>>"$scratch/rank.log" ||
        fail "bc: rank and export" "$scratch/rank.log"
    echo "bc: $(wc -l <"$scratch/bc.labels") runs, $(grep -c '^failure' "$scratch/bc.labels") failing, $(($(wc -l <"$scratch/bc-export/predicates.csv") - 1)) predicates"
    agree_rank bc "$scratch/bc-export" "$scratch/bc.csv"
else
    fail "bc: build and run the case study's bc" "$scratch/bc.log"
fi

finish
