/* The store in SQLite, embedded (store-engine.h): one file, write-ahead
   log, a full sync at each commit (an acknowledged report survives a
   crash of the machine, not only of the service).  Bulk rows go through
   prepared INSERTs, kept for the connection's life.  Parameters of
   store_query are written $1, $2 ... as for PostgreSQL: SQLite reads them
   as named parameters.  */
#include "store-engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

/* A table's INSERT, prepared once.  */
struct prepared_insert {
    const char *table;
    sqlite3_stmt *statement;
};

enum { MAX_INSERT_TABLES = 16, BUSY_TIMEOUT_MS = 30000 };

struct sqlite_state {
    struct prepared_insert inserts[MAX_INSERT_TABLES];
    size_t n_inserts;
};

static sqlite3 *database_of(const struct store *store)
{
    return store->connection;
}

/* Constraints, types and sizes are the rows' fault; a full disk, an I/O
   error or a lock held too long the store's.  */
static void note_failure(struct store *store, int code)
{
    code &= 0xff;
    store->last_failure = code == SQLITE_CONSTRAINT || code == SQLITE_MISMATCH
                          || code == SQLITE_TOOBIG || code == SQLITE_RANGE
                          ? STORE_FAILURE_DATA : STORE_FAILURE_STORE;
}

static bool fail_sqlite(struct store *store, const char *what, struct diag *d)
{
    note_failure(store, sqlite3_extended_errcode(database_of(store)));
    return diag_fail(d, "SQLite %s: %s: %s", store->target, what,
                     sqlite3_errmsg(database_of(store)));
}

static bool sqlite_exec(struct store *store, const char *sql, struct diag *d)
{
    char *message = NULL;
    int status = sqlite3_exec(database_of(store), sql, NULL, NULL, &message);
    if (status == SQLITE_OK)
        return true;
    note_failure(store, status);
    diag_fail(d, "SQLite %s: statement failed: %s", store->target,
              message ? message : sqlite3_errmsg(database_of(store)));
    sqlite3_free(message);
    return false;
}

static bool sqlite_connect(struct store *store, struct diag *d)
{
    sqlite3 *database = NULL;
    int status = sqlite3_open_v2(store->target, &database,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                 | SQLITE_OPEN_NOMUTEX, NULL);
    store->connection = database;
    if (status != SQLITE_OK) {
        fail_sqlite(store, "cannot open", d);
        sqlite3_close(database);
        store->connection = NULL;
        return false;
    }
    sqlite3_busy_timeout(database, BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(database, 1);
    if (!store->state)
        store->state = xcalloc(1, sizeof (struct sqlite_state));
    if (!sqlite_exec(store, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL", d)) {
        sqlite3_close(database);
        store->connection = NULL;
        return false;
    }
    return true;
}

static void sqlite_disconnect(struct store *store)
{
    struct sqlite_state *state = store->state;
    if (state) {
        for (size_t i = 0; i < state->n_inserts; i++)
            sqlite3_finalize(state->inserts[i].statement);
        free(state);
        store->state = NULL;
    }
    sqlite3_close(database_of(store));
    store->connection = NULL;
}

static bool sqlite_lost(const struct store *store)
{
    return !store->connection;
}

/* Binds the text parameters $1 ... $N of STATEMENT.  */
static bool bind_parameters(struct store *store, sqlite3_stmt *statement, unsigned n_params,
                            const char *const *params, struct diag *d)
{
    for (unsigned i = 0; i < n_params; i++) {
        char name[16];
        snprintf(name, sizeof name, "$%u", i + 1);
        int index = sqlite3_bind_parameter_index(statement, name);
        if (index == 0)
            continue;
        int status = params[i] ? sqlite3_bind_text(statement, index, params[i], -1,
                                                   SQLITE_STATIC)
                               : sqlite3_bind_null(statement, index);
        if (status != SQLITE_OK)
            return fail_sqlite(store, "binding a parameter failed", d);
    }
    return true;
}

static bool sqlite_query(struct store *store, const char *sql, unsigned n_params,
                         const char *const *params, store_row_fn row, void *context,
                         struct diag *d)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(database_of(store), sql, -1, &statement, NULL) != SQLITE_OK)
        return fail_sqlite(store, "query failed", d);
    bool ok = bind_parameters(store, statement, n_params, params, d);
    int n_columns = sqlite3_column_count(statement);
    const char **values = xcalloc((size_t) n_columns + 1, sizeof *values);
    int status;
    while (ok && (status = sqlite3_step(statement)) == SQLITE_ROW) {
        for (int c = 0; c < n_columns; c++)
            values[c] = (const char *) sqlite3_column_text(statement, c);
        if (row)
            ok = row(context, (unsigned) n_columns, values, d);
    }
    if (ok && status != SQLITE_DONE)
        ok = fail_sqlite(store, "query failed", d);
    free(values);
    sqlite3_finalize(statement);
    return ok;
}

static sqlite3_stmt *insert_for(struct store *store, const char *table, const char *columns,
                                unsigned n_columns, struct diag *d)
{
    struct sqlite_state *state = store->state;
    for (size_t i = 0; i < state->n_inserts; i++)
        if (state->inserts[i].table == table || strcmp(state->inserts[i].table, table) == 0)
            return state->inserts[i].statement;
    if (state->n_inserts == MAX_INSERT_TABLES) {
        diag_fail(d, "internal error: too many tables in one transaction");
        return NULL;
    }
    struct byte_buffer sql = { 0 };
    char part[64];
    snprintf(part, sizeof part, "INSERT INTO %s (", table);
    buffer_append(&sql, part, strlen(part));
    buffer_append(&sql, columns, strlen(columns));
    buffer_append(&sql, ") VALUES (", 10);
    for (unsigned i = 0; i < n_columns; i++) {
        snprintf(part, sizeof part, "%s?%u", i ? ", " : "", i + 1);
        buffer_append(&sql, part, strlen(part));
    }
    buffer_append(&sql, ")", 2);
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v3(database_of(store), sql.data, -1, SQLITE_PREPARE_PERSISTENT,
                           &statement, NULL) != SQLITE_OK) {
        fail_sqlite(store, "preparing an INSERT failed", d);
        statement = NULL;
    } else {
        state->inserts[state->n_inserts++] = (struct prepared_insert) { table, statement };
    }
    buffer_free(&sql);
    return statement;
}

static bool step_insert(struct store *store, sqlite3_stmt *statement, const char *table,
                        struct diag *d)
{
    int status = sqlite3_step(statement);
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    if (status == SQLITE_DONE)
        return true;
    char what[128];
    snprintf(what, sizeof what, "INSERT into %s failed", table);
    return fail_sqlite(store, what, d);
}

static bool sqlite_add_row(struct store *store, const char *table, const char *columns,
                           unsigned n_columns, const char *const *fields, struct diag *d)
{
    sqlite3_stmt *statement = insert_for(store, table, columns, n_columns, d);
    if (!statement)
        return false;
    for (unsigned i = 0; i < n_columns; i++) {
        int status = fields[i] ? sqlite3_bind_text(statement, (int) i + 1, fields[i], -1,
                                                   SQLITE_STATIC)
                               : sqlite3_bind_null(statement, (int) i + 1);
        if (status != SQLITE_OK)
            return fail_sqlite(store, "binding a field failed", d);
    }
    return step_insert(store, statement, table, d);
}

static bool sqlite_add_report(struct store *store, const char *const fields[3],
                              const void *body, size_t size, struct diag *d)
{
    sqlite3_stmt *statement = insert_for(store, "reports", "release,run_id,received,body", 4, d);
    if (!statement)
        return false;
    for (int i = 0; i < 3; i++)
        if (sqlite3_bind_text(statement, i + 1, fields[i], -1, SQLITE_STATIC) != SQLITE_OK)
            return fail_sqlite(store, "binding a field failed", d);
    if (sqlite3_bind_blob64(statement, 4, body, size, SQLITE_STATIC) != SQLITE_OK)
        return fail_sqlite(store, "binding a report failed", d);
    return step_insert(store, statement, "reports", d);
}

static bool sqlite_flush(struct store *store, struct diag *d)
{
    (void) store;
    (void) d;
    return true;
}

static void sqlite_discard(struct store *store)
{
    (void) store;
}

static bool sqlite_query_bytes(struct store *store, const char *sql, unsigned n_params,
                               const char *const *params, store_bytes_row_fn row,
                               void *context, struct diag *d)
{
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(database_of(store), sql, -1, &statement, NULL) != SQLITE_OK)
        return fail_sqlite(store, "query failed", d);
    bool ok = bind_parameters(store, statement, n_params, params, d);
    int n = sqlite3_column_count(statement);
    const char *values[16];
    int status = SQLITE_DONE;
    ok = ok && n >= 1 && n <= 16;
    while (ok && (status = sqlite3_step(statement)) == SQLITE_ROW) {
        for (int c = 0; c + 1 < n; c++)
            values[c] = (const char *) sqlite3_column_text(statement, c);
        const void *bytes = sqlite3_column_blob(statement, n - 1);
        int size = sqlite3_column_bytes(statement, n - 1);
        ok = row(context, (unsigned) n - 1, values, bytes, (size_t) size, d);
    }
    if (ok && status != SQLITE_DONE)
        ok = fail_sqlite(store, "query failed", d);
    sqlite3_finalize(statement);
    return ok;
}

const struct store_operations store_sqlite_operations = {
    .connect = sqlite_connect,
    .disconnect = sqlite_disconnect,
    .lost = sqlite_lost,
    .exec = sqlite_exec,
    .query = sqlite_query,
    .add_row = sqlite_add_row,
    .add_report = sqlite_add_report,
    .flush = sqlite_flush,
    .discard = sqlite_discard,
    .query_bytes = sqlite_query_bytes,
    /* The write lock at once: two writers never deadlock upgrading.  */
    .begin_sql = "BEGIN IMMEDIATE",
};
