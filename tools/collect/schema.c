/* The store's schema version, made current by the service itself
   (schema.h): a new store gets every table; a store of an older version
   is migrated in one transaction; the views are made again at each start,
   so that they are always this collector's.  */
#include "schema.h"

#include <stdio.h>
#include <stdlib.h>

#include "sql-files.h"

static bool count_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    *(long *) context = n > 0 && values[0] ? atol(values[0]) : 0;
    return true;
}

static bool has_table(struct store *store, const char *table, bool *has, struct diag *d)
{
    const char *sql = store_engine(store) == STORE_POSTGRESQL
        ? "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() "
          "AND tablename = $1"
        : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1";
    long count = 0;
    const char *params[1] = { table };
    if (!store_query(store, sql, 1, params, count_row, &count, d))
        return false;
    *has = count > 0;
    return true;
}

bool schema_version(struct store *store, int *version, struct diag *d)
{
    bool has_releases, has_version;
    if (!has_table(store, "releases", &has_releases, d)
        || !has_table(store, "store_version", &has_version, d))
        return false;
    *version = !has_releases ? 0 : !has_version ? 1 : -1;
    if (*version >= 0)
        return true;
    long value = 0;
    if (!store_query(store, "SELECT max(version) FROM store_version", 0, NULL, count_row,
                     &value, d))
        return false;
    *version = (int) value;
    return true;
}

/* Each step run in order, all in one transaction.  */
static bool run_steps(struct store *store, const char *const *steps, struct diag *d)
{
    if (!store_begin(store, d))
        return false;
    for (const char *const *step = steps; *step; step++) {
        if (**step && !store_exec(store, *step, d)) {
            store_rollback(store);
            return false;
        }
    }
    return store_commit(store, d);
}

bool schema_make_current(struct store *store, int *from, struct diag *d)
{
    bool postgresql = store_engine(store) == STORE_POSTGRESQL;
    if (!schema_version(store, from, d))
        return false;
    if (*from > SCHEMA_VERSION)
        return diag_fail(d, "the store is of version %d, written by a newer sampler-collect; "
                         "this one knows versions up to %d", *from, SCHEMA_VERSION);
    if (*from == 0) {
        const char *steps[] = {
            sql_schema, sql_indexes, postgresql ? sql_partitions : "", sql_migration_2,
            sql_migration_2_indexes, sql_analysis, NULL,
        };
        return run_steps(store, steps, d);
    }
    if (*from == 1) {
        /* The runs folded already gain their profiles' totals; those not
           folded yet (loaded with --no-fold) are folded whole.  */
        const char *steps[] = {
            sql_migration_2, sql_migration_2_indexes, sql_analysis, sql_migration_2_backfill,
            sql_fold_totals, sql_fold_start, sql_fold, sql_fold_totals,
            postgresql ? "SELECT sampler_add_partitions()" : "", NULL,
        };
        return run_steps(store, steps, d);
    }
    const char *steps[] = { sql_analysis, NULL };
    return run_steps(store, steps, d);
}
