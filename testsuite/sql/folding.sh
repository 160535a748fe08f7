#!/bin/sh
# Folding runs as they arrive: the ties' export in two loads, each folded,
# ranks as one; two releases in one store, ranked apart (PostgreSQL: each
# release's runs and observations a partition of their own).
# CHECKS: sh $SRC
. "$SRCDIR/lib.sh"
start_postgresql
make_ties
# The ties' export cut in two by run: the first load has the release's sites.
python3 "$here/split-export.py" "$scratch/ties-export" "$scratch/first" "$scratch/second"
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
finish
