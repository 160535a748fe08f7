#!/bin/sh
# run-fleet.sh BUILD_DIR RUNS...: the analysis at fleet scale.  For each
# RUNS, a synthetic fleet (gen-fleet.c: 20,000 predicates at 3,000 sites,
# sparsity 1000, 2% failing, a planted bug), then
#   sampler-report rank      the aggregate, ranking and elimination
#   sampler-report export    the aggregate as CSV tables
#   each engine              load the CSV (with indexes), fold (every
#                            predicate's counts from the observations: the
#                            ranking's work), rank (the ranking and the
#                            elimination: sampler-sql rank)
# with wall time, CPU time of the client process (user + system; the
# server's work is not in it for PostgreSQL), peak memory (RSS of the
# process, or of all of the PostgreSQL server's processes, sampled each
# second) and disk; whether the
# planted bug leads; whether each engine's answer is rank's (compare.py).
# Fleets and stores go to ${FLEET_DIR:-/tmp/sampler-fleet} and are deleted
# after each size; ENGINES="postgresql duckdb sqlite" picks engines;
# SQL_ELIMINATION=no skips the engines' elimination (its step count grows
# with the runs, and each step is a pass over the observations);
# STEPS=N stops rank's and the engines' elimination after N steps.
# PostgreSQL runs with shared_buffers=1GB, work_mem=256MB,
# maintenance_work_mem=512MB, max_wal_size=8GB, synchronous_commit=off.
# Everything runs under nice.  Prints one line per step (bench/HISTORY.md).
set -eu
build=$(cd "${1:?usage: run-fleet.sh BUILD_DIR RUNS...}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tool=$build/bin/sampler-report
sql=$top/tools/sql/sampler-sql
compare=$top/testsuite/sql/compare.py
export SAMPLER_DUCKDB="$build/sql-duckdb/duckdb-sql.mjs"
engines=${ENGINES:-postgresql duckdb sqlite}
work=${FLEET_DIR:-/tmp/sampler-fleet}
steps=${STEPS:-0}
mkdir -p "$work"
chmod 711 "$work"
gcc -std=c11 -O2 -Wall -Wextra "$here/gen-fleet.c" -o "$work/gen-fleet" -lm
. "$top/testsuite/sql/pg-server.sh"
trap 'pg_server_stop' EXIT
case " $engines " in
    *" postgresql "*)
        rm -rf "$work/pg" && mkdir "$work/pg"
        pg_server_start "$work/pg" shared_buffers=1GB work_mem=256MB maintenance_work_mem=512MB \
            max_wal_size=8GB synchronous_commit=off || { cat "$work/pg/server.log"; exit 1; } ;;
esac

# measure NAME COMMAND...: runs COMMAND under nice, output to $dir/NAME.out;
# prints NAME, wall seconds and peak RSS (MB) of it or of the server.
measure () {
    name=$1
    shift
    poll=
    if [ "${engine-}" = postgresql ]; then
        : >"$dir/rss"
        ( while :; do ps -u postgres -o rss= | awk '{s += $1} END {print s}' >>"$dir/rss"; sleep 1; done ) &
        poll=$!
    fi
    /usr/bin/time -f '%e %M %U %S' -o "$dir/time" nice "$@" >"$dir/$name.out" 2>"$dir/$name.err" ||
        { cat "$dir/$name.err" >&2; [ -z "$poll" ] || kill "$poll"; return 1; }
    read -r wall rss user system <"$dir/time"
    if [ -n "$poll" ]; then
        kill "$poll"
        rss=$(sort -n "$dir/rss" | tail -n 1)
    fi
    printf '%-8s %-11s %-20s wall %8.1f s  CPU %8.1f s  peak RSS %6d MB\n' "$runs" \
        "${engine:-C}" "$name" "$wall" "$(awk "BEGIN { print $user + $system }")" $((rss / 1024))
}

# leads CSV: "yes" when the planted bug is the first elimination step and
# the first of the ranking.
leads () {
    python3 - "$1" "$dir/planted.txt" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bug = [l.split()[1:] for l in open(sys.argv[2]) if l.startswith("bug")][0]
firsts = [[r["unit"], r["site"], r["predicate_index"]] for r in rows if r["position"] == "1"]
print("yes" if firsts and all(f == bug for f in firsts) else "no: %s" % firsts)
EOF
}

for runs in "$@"; do
    dir=$work/$runs
    rm -rf "$dir" && mkdir -p "$dir"
    engine=
    measure generate "$work/gen-fleet" "$dir" "$runs"
    echo "$runs: aggregate $(du -sh "$dir/fleet.agg" | cut -f1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    measure "rank (C)" "$tool" rank "$dir/fleet.agg" --fail-if=signal --format=csv \
        --steps="$steps"
    cp "$dir/rank (C).out" "$dir/rank-c.csv"
    echo "$runs: C: planted bug leads: $(leads "$dir/rank-c.csv"); $(grep -c '^elimination' "$dir/rank-c.csv") steps"
    measure export "$tool" export "$dir/fleet.agg" --fail-if=signal -o "$dir/export"
    echo "$runs: export $(du -sh "$dir/export" | cut -f1), observations $(($(wc -l <"$dir/export/observations.csv") - 1)) rows"
    for engine in $engines; do
        case $engine in
            postgresql)
                psql -X -q -d "$pg_url/postgres" -c "DROP DATABASE IF EXISTS fleet" -c "CREATE DATABASE fleet"
                db=$pg_url/fleet ;;
            *) db=$dir/fleet.$engine ;;
        esac
        "$sql" "$engine" "$db" init
        measure load "$sql" "$engine" "$db" load "$dir/export" --no-fold
        measure "fold (ranking)" "$sql" "$engine" "$db" fold
        if [ "${SQL_ELIMINATION:-yes}" = no ]; then
            measure "ranking" "$sql" "$engine" "$db" query "SELECT * FROM ranking ORDER BY release, position"
        else
            measure "rank (elimination)" "$sql" "$engine" "$db" rank --steps="$steps"
        fi
        case $engine in
            postgresql) size=$(psql -X -A -t -d "$db" -c "SELECT pg_database_size('fleet') / 1048576") ;;
            *) size=$(($(stat -c %s "$db") / 1048576)) ;;
        esac
        if [ "${SQL_ELIMINATION:-yes}" = no ]; then
            echo "$runs: $engine: disk $size MB; ranking rows $(($(wc -l <"$dir/ranking.out") - 1)), first: $(sed -n 2p "$dir/ranking.out")"
        else
            cp "$dir/rank (elimination).out" "$dir/rank-$engine.csv"
            echo "$runs: $engine: disk $size MB; planted bug leads: $(leads "$dir/rank-$engine.csv"); as rank: $(python3 "$compare" rank "$dir/rank-c.csv" "$dir/rank-$engine.csv" 2>&1 | tail -n 1)"
        fi
        case $engine in
            postgresql) psql -X -q -d "$pg_url/postgres" -c "DROP DATABASE fleet" ;;
            *) rm -f "$db" "$db.wal" ;;
        esac
    done
    engine=
    rm -rf "$dir"
done
