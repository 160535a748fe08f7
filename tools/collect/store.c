/* The store's engine-neutral side (store.h): URLs, and each operation
   handed to the engine's (store-engine.h).  */
#include "store-engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *store_engine_name(enum store_engine engine)
{
    return engine == STORE_POSTGRESQL ? "PostgreSQL" : "SQLite";
}

static bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

bool store_open(struct store **out, const char *url, struct diag *d)
{
    *out = NULL;
    if (!url || !*url)
        return diag_fail(d, "no store given (--store URL: postgresql://... or sqlite:FILE)");
    struct store *store = xcalloc(1, sizeof *store);
    if (starts_with(url, "postgresql://") || starts_with(url, "postgres://")) {
        store->engine = STORE_POSTGRESQL;
        store->target = xstrdup(url);
    } else if (starts_with(url, "postgresql:")) {
        store->engine = STORE_POSTGRESQL;
        store->target = xstrdup(url + strlen("postgresql:"));
    } else if (starts_with(url, "sqlite:")) {
        store->engine = STORE_SQLITE;
        store->target = xstrdup(url + strlen("sqlite:"));
    } else if (strstr(url, "://")) {
        free(store);
        return diag_fail(d, "store '%s': unknown kind of URL (expected postgresql://... or "
                         "sqlite:FILE)", url);
    } else {
        store->engine = STORE_SQLITE;
        store->target = xstrdup(url);
    }
    if (!*store->target) {
        free(store->target);
        free(store);
        return diag_fail(d, "store '%s': no file or server named", url);
    }
    store->operations = store->engine == STORE_POSTGRESQL ? &store_postgresql_operations
                                                          : &store_sqlite_operations;
    if (!store->operations->connect(store, d)) {
        store_close(store);
        return false;
    }
    *out = store;
    return true;
}

void store_close(struct store *store)
{
    if (!store)
        return;
    store->operations->disconnect(store);
    free(store->target);
    free(store);
}

enum store_engine store_engine(const struct store *store)
{
    return store->engine;
}

void store_describe_url(const char *url, char *out, size_t size)
{
    /* postgresql://user:password@host/...: the password left out.  */
    const char *scheme_end = strstr(url, "://");
    const char *at = scheme_end ? strchr(scheme_end + 3, '@') : NULL;
    const char *colon = scheme_end ? strchr(scheme_end + 3, ':') : NULL;
    if (at && colon && colon < at)
        snprintf(out, size, "%.*s:...%s", (int) (colon - url), url, at);
    else
        snprintf(out, size, "%s", url);
}

bool store_lost(const struct store *store)
{
    return store->operations->lost(store);
}

enum store_failure store_last_failure(const struct store *store)
{
    return store->last_failure;
}

bool store_reconnect(struct store *store, struct diag *d)
{
    store->operations->disconnect(store);
    return store->operations->connect(store, d);
}

bool store_exec(struct store *store, const char *sql, struct diag *d)
{
    return store->operations->exec(store, sql, d);
}

bool store_query(struct store *store, const char *sql, unsigned n_params,
                 const char *const *params, store_row_fn row, void *context, struct diag *d)
{
    return store->operations->query(store, sql, n_params, params, row, context, d);
}

bool store_begin(struct store *store, struct diag *d)
{
    store->operations->discard(store);
    return store->operations->exec(store, store->operations->begin_sql, d);
}

bool store_commit(struct store *store, struct diag *d)
{
    return store->operations->flush(store, d) && store->operations->exec(store, "COMMIT", d);
}

void store_rollback(struct store *store)
{
    struct diag ignored;
    store->operations->discard(store);
    if (!store->operations->lost(store))
        store->operations->exec(store, "ROLLBACK", &ignored);
}

bool store_add_row(struct store *store, enum sql_table table, const char *const *fields,
                   struct diag *d)
{
    const struct sql_table_info *info = &sql_tables[table];
    return store->operations->add_row(store, info->name, info->columns, info->n_columns, fields,
                                      d);
}

bool store_add_fold(struct store *store, const char *const fields[5], struct diag *d)
{
    return store->operations->add_row(store, "fold_queue", "release,run,run_id,failed,received",
                                      5, fields, d);
}

bool store_add_fold_mark(struct store *store, const char *const fields[4], struct diag *d)
{
    return store->operations->add_row(store, "run_folds", "release,run,batch,failed", 4, fields,
                                      d);
}

bool store_add_report(struct store *store, const char *release, const char *run_id,
                      const char *received, const void *body, size_t size, struct diag *d)
{
    const char *fields[3] = { release, run_id, received };
    return store->operations->add_report(store, fields, body, size, d);
}

bool store_rows_flush(struct store *store, struct diag *d)
{
    return store->operations->flush(store, d);
}

bool store_query_bytes(struct store *store, const char *sql, unsigned n_params,
                       const char *const *params, store_bytes_row_fn row, void *context,
                       struct diag *d)
{
    return store->operations->query_bytes(store, sql, n_params, params, row, context, d);
}
