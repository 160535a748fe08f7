# lib.sh, sourced by the cases of this folder: the analysis in SQL
# (tools/sql/, docs/schema.md) against sampler-report on the same runs, on
# PostgreSQL 15 (a server of the case's own, started with initdb and pg_ctl
# in a temporary directory, on a loopback port, and stopped at its end),
# DuckDB (npm's @duckdb/node-api, `make sql-deps') and SQLite.
#   start_postgresql   the case's server (a check when it cannot start)
#   store ENGINE NAME  a new, empty store NAME on ENGINE, initialised;
#                      prints its DATABASE
#   agree_rank NAME EXPORT C-CSV [RANK-OPTIONS]   the export loaded into
#                      each engine, ranked by SQL with the options, against
#                      rank's CSV; the engines' answers against each other
#   make_ties          runs made for ties and zero counts (make-ties.py),
#                      their export $scratch/ties-export and rank's CSV
#                      $scratch/ties-default.csv; $ties, rank's arguments
. "$TOOLS/tally.sh"
scratch=$T
here=$SRCDIR
top=$TOP
build=$BUILD
tool=$REPORT
sql=$top/tools/sql/sampler-sql
export SAMPLER_DUCKDB="$build/sql-duckdb/duckdb-sql.mjs"
engines="postgresql duckdb sqlite"
. "$here/pg-server.sh"

start_postgresql () {
    if [ -z "$pg_bin" ] || ! command -v psql >/dev/null; then
        fail "PostgreSQL 15 is not installed (make deps installs postgresql)"
        return 1
    fi
    # The server runs as postgres when this runs as root: its directory is
    # outside the scratch directory, which only we can reach.
    pg_home=$(mktemp -d "${TMPDIR:-/tmp}/sampler-sql-pg.XXXXXX") && chmod 711 "$pg_home" &&
        mkdir "$pg_home/pg" || return 1
    trap 'pg_server_stop; rm -rf "$pg_home"' EXIT
    if pg_server_start "$pg_home/pg" fsync=off; then
        return 0
    fi
    fail "initdb and pg_ctl start" "$pg_home/pg/server.log"
    cat "$pg_home/pg.initdb.log"
    return 1
}

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

make_ties () {
    python3 "$here/make-ties.py" "$scratch/ties" --runs 300 --seed 1
    ties="$scratch/ties/runs --sites $scratch/ties/sites.txt --fail-if=signal"
    "$tool" export $ties -o "$scratch/ties-export" 2>"$scratch/export.log" ||
        fail "export of the runs made for ties" "$scratch/export.log"
    # shellcheck disable=SC2086
    "$tool" rank $ties --top=0 --format=csv >"$scratch/ties-default.csv"
}
