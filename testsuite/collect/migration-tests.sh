# migration-tests.sh: a store of version 1 migrated by the service, sourced
# by run-collect-tests.sh.
#   migration_tests ENGINE
#
# A store of version 1 is schema.sql's and indexes.sql's tables (which
# version 2 leaves as they were) with two releases of runs loaded from
# export's CSV files: one folded as version 1 folds (fold-start.sql and
# fold.sql hold its statements), one not folded yet.  `sampler-collect
# migrate' makes it version 2; its rank, values, paths and subpaths must
# then be those of a store made at version 2 from the same files, and the
# service must take reports into it.

# v1_sql ENGINE FILE...: the files as version 1's engine runs them.
v1_sql () {
    local engine=$1 db=$2
    shift 2
    case $engine in
        sqlite) cat "$@" | sqlite3 -bail -batch "$db" ;;
        postgresql)
            cat "$@" | sed 's|/\* \(PARTITION BY LIST (release)\) \*/|\1|' |
                psql -X -q -v ON_ERROR_STOP=1 -d "$db" >/dev/null ;;
    esac
}

# columns URL: the store's tables and views with their columns.
columns () {
    case $engine in
        sqlite) query sqlite "$1" "SELECT m.name || '.' || p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type IN ('table', 'view') ORDER BY 1" ;;
        postgresql) query postgresql "$1" "SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1" ;;
    esac
}

migration_tests () {
    engine=$1
    local v1 v2 db1 db2
    v1=$(new_store "$engine" collect_v1)
    v2=$(new_store "$engine" collect_v2)
    db1=${v1#sqlite:}
    db2=${v2#sqlite:}
    "$REPORT" export $files --release legacy-1 -o "$scratch/export-1" >/dev/null 2>&1
    "$REPORT" export $files --release legacy-2 --release-id 2 -o "$scratch/export-2" \
        >/dev/null 2>&1
    printf '%s\n' "INSERT INTO fold_state (batch) VALUES (0);" \
        "INSERT INTO rank_settings (z, min_failing) VALUES (1.9599639845400536, 3);" \
        >"$scratch/v1-rows.sql"
    { echo "BEGIN;"; cat "$TOP/tools/sql/fold-start.sql" "$TOP/tools/sql/fold.sql"
      echo "COMMIT;"; } >"$scratch/v1-fold.sql"
    local tables=("$TOP/tools/sql/schema.sql" "$TOP/tools/sql/indexes.sql")
    [ "$engine" = postgresql ] && tables+=("$TOP/tools/sql/postgresql/partitions.sql")
    if v1_sql "$engine" "$db1" "${tables[@]}" "$scratch/v1-rows.sql" &&
       "$SQL" "$engine" "$db1" load "$scratch/export-1" --no-fold >/dev/null &&
       v1_sql "$engine" "$db1" "$scratch/v1-fold.sql" &&
       "$SQL" "$engine" "$db1" load "$scratch/export-2" --no-fold >/dev/null; then
        pass "$engine: a store of version 1: two releases, one folded"
    else
        fail "$engine: a store of version 1: two releases, one folded"
        return
    fi
    "$COLLECT" migrate --store "$v1" >"$scratch/migrate.out" 2>&1
    check "$engine: sampler-collect migrate takes it from version 1 to 2" sh -c "
        grep -q 'the store is of version 2 (migrated)' '$scratch/migrate.out' &&
        [ '$(query "$engine" "$v1" "SELECT version FROM store_version")' = 2 ]"
    "$SQL" "$engine" "$db2" init >/dev/null 2>&1 &&
        "$SQL" "$engine" "$db2" load "$scratch/export-1" >/dev/null 2>&1 &&
        "$SQL" "$engine" "$db2" load "$scratch/export-2" >/dev/null 2>&1
    for list in rank values paths subpaths; do
        top=100000
        [ "$list" = rank ] && top=0
        "$SQL" "$engine" "$db1" "$list" --top $top >"$scratch/$list-migrated.csv" 2>&1
        "$SQL" "$engine" "$db2" "$list" --top $top >"$scratch/$list-fresh.csv" 2>&1
        check "$engine: after migration, $list as in a store made at version 2" sh -c "
            [ \$(wc -l <'$scratch/$list-fresh.csv') -gt 1 ] &&
            python3 '$TOP/testsuite/sql/compare.py' engines '$scratch/$list-fresh.csv' \
                '$scratch/$list-migrated.csv'"
    done
    check "$engine: the migrated store has the tables and columns of a new one" \
        test "$(columns "$v1")" = "$(columns "$v2")"
    "$COLLECT" register-release --store "$v1" --binary "$program" --fail-if status=3 \
        >"$scratch/register.out" 2>&1
    start_service "$v1" --address-quota 0
    fresh_report "$scratch/files/$one" "$scratch/migrated.report"
    answer=$($CLIENT upload "$port" "$KEY" "$scratch/migrated.report")
    wait_folded 1
    check "$engine: the service registers a release in the migrated store and takes its reports" \
        sh -c "grep -q 'registered release 3' '$scratch/register.out' && [ '${answer%% *}' = 201 ] &&
               [ \"\$(curl -s http://127.0.0.1:$port/releases/3/ | grep -c '<span class=runs>1 runs</span>')\" = 1 ]"
    stop_service
}
