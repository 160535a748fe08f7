#!/bin/sh
# values, paths and subpaths of profile.c's runs (30 runs of different
# lengths: some hot-lists overflow, thinned when combined): the same lists
# in the three engines as sampler-report's (compare.py says what must agree
# where values thinned its lists).
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
start_postgresql
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
finish
