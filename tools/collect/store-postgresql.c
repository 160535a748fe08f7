/* The store on PostgreSQL, through libpq (store-engine.h).  Bulk rows go
   to per-table buffers in COPY's text format and are sent with one COPY
   per table when the transaction commits: a batch of reports costs a few
   round trips, not one per row.  */
#include "store-engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

/* A table's rows waiting for COPY.  */
struct copy_buffer {
    const char *table;          /* static text: sql_tables, or our own */
    const char *columns;
    struct byte_buffer rows;
};

/* A table's buffer is sent when it holds this much, within the
   transaction, so that a large fold does not hold it all in memory.  */
enum { MAX_COPY_TABLES = 16, COPY_FLUSH_BYTES = 8 << 20 };

struct pg_state {
    struct copy_buffer buffers[MAX_COPY_TABLES];
    size_t n_buffers;
};

static PGconn *connection_of(const struct store *store)
{
    return store->connection;
}

/* libpq's last message on one line.  */
static const char *error_text(const char *message, char *out, size_t size)
{
    snprintf(out, size, "%s", message && *message ? message : "unknown error");
    for (char *p = out; *p; p++)
        if (*p == '\n')
            *p = *(p + 1) ? ' ' : '\0';
    return out;
}

static bool fail_result(struct store *store, PGresult *result, const char *what,
                        struct diag *d)
{
    char text[768];
    /* SQLSTATE classes 22 (data exception) and 23 (integrity constraint
       violation) are the rows' fault; anything else the store's.  */
    const char *state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : NULL;
    store->last_failure = state && (strncmp(state, "22", 2) == 0 || strncmp(state, "23", 2) == 0)
                          ? STORE_FAILURE_DATA : STORE_FAILURE_STORE;
    const char *message = result ? PQresultErrorMessage(result) : NULL;
    if (!message || !*message)
        message = PQerrorMessage(connection_of(store));
    diag_fail(d, "PostgreSQL: %s: %s", what, error_text(message, text, sizeof text));
    PQclear(result);
    return false;
}

static void ignore_notice(void *context, const char *message)
{
    (void) context;
    (void) message;
}

static bool pg_connect(struct store *store, struct diag *d)
{
    PGconn *connection = PQconnectdb(store->target);
    if (!connection || PQstatus(connection) != CONNECTION_OK) {
        char text[768];
        diag_fail(d, "PostgreSQL: cannot connect: %s",
                  error_text(connection ? PQerrorMessage(connection) : "out of memory", text,
                             sizeof text));
        PQfinish(connection);
        return false;
    }
    PQsetNoticeProcessor(connection, ignore_notice, NULL);
    store->connection = connection;
    if (!store->state)
        store->state = xcalloc(1, sizeof (struct pg_state));
    PGresult *result = PQexec(connection, "SET client_min_messages = warning");
    PQclear(result);
    return true;
}

static void pg_disconnect(struct store *store)
{
    PQfinish(connection_of(store));
    store->connection = NULL;
    struct pg_state *state = store->state;
    if (state) {
        for (size_t i = 0; i < state->n_buffers; i++)
            buffer_free(&state->buffers[i].rows);
        free(state);
        store->state = NULL;
    }
}

static bool pg_lost(const struct store *store)
{
    return !store->connection || PQstatus(connection_of(store)) != CONNECTION_OK;
}

static bool ok_status(ExecStatusType status)
{
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

/* SQL with the partition comments of tools/sql/ made clauses.  */
static char *with_partitions(const char *sql)
{
    static const char comment[] = "/* PARTITION BY LIST (release) */";
    static const char clause[] = "PARTITION BY LIST (release)";
    struct byte_buffer out = { 0 };
    const char *rest = sql, *found;
    while ((found = strstr(rest, comment))) {
        buffer_append(&out, rest, (size_t) (found - rest));
        buffer_append(&out, clause, sizeof clause - 1);
        rest = found + sizeof comment - 1;
    }
    buffer_append(&out, rest, strlen(rest) + 1);
    return out.data;
}

static bool pg_exec(struct store *store, const char *sql, struct diag *d)
{
    char *text = with_partitions(sql);
    PGresult *result = PQexec(connection_of(store), text);
    free(text);
    if (!result || !ok_status(PQresultStatus(result)))
        return fail_result(store, result, "statement failed", d);
    PQclear(result);
    return true;
}

static bool pg_query(struct store *store, const char *sql, unsigned n_params,
                     const char *const *params, store_row_fn row, void *context,
                     struct diag *d)
{
    PGresult *result = PQexecParams(connection_of(store), sql, (int) n_params, NULL, params,
                                    NULL, NULL, 0);
    if (!result || !ok_status(PQresultStatus(result)))
        return fail_result(store, result, "query failed", d);
    int n_rows = PQntuples(result), n_columns = PQnfields(result);
    const char **values = xcalloc((size_t) n_columns + 1, sizeof *values);
    bool ok = true;
    for (int r = 0; ok && row && r < n_rows; r++) {
        for (int c = 0; c < n_columns; c++)
            values[c] = PQgetisnull(result, r, c) ? NULL : PQgetvalue(result, r, c);
        ok = row(context, (unsigned) n_columns, values, d);
    }
    free(values);
    PQclear(result);
    return ok;
}

static struct copy_buffer *buffer_of(struct store *store, const char *table,
                                     const char *columns)
{
    struct pg_state *state = store->state;
    for (size_t i = 0; i < state->n_buffers; i++)
        if (state->buffers[i].table == table || strcmp(state->buffers[i].table, table) == 0)
            return &state->buffers[i];
    if (state->n_buffers == MAX_COPY_TABLES)
        return NULL;
    struct copy_buffer *buffer = &state->buffers[state->n_buffers++];
    buffer->table = table;
    buffer->columns = columns;
    return buffer;
}

/* A field in COPY's text format: backslash escapes, \N for NULL.  */
static void append_copy_field(struct byte_buffer *out, const char *field)
{
    if (!field) {
        buffer_append(out, "\\N", 2);
        return;
    }
    const char *start = field;
    for (const char *p = field; *p; p++) {
        const char *escape = *p == '\\' ? "\\\\" : *p == '\t' ? "\\t" : *p == '\n' ? "\\n"
                             : *p == '\r' ? "\\r" : NULL;
        if (escape) {
            buffer_append(out, start, (size_t) (p - start));
            buffer_append(out, escape, 2);
            start = p + 1;
        }
    }
    buffer_append(out, start, strlen(start));
}

static bool copy_rows(struct store *store, struct copy_buffer *buffer, struct diag *d);

static bool pg_add_row(struct store *store, const char *table, const char *columns,
                       unsigned n_columns, const char *const *fields, struct diag *d)
{
    struct copy_buffer *buffer = buffer_of(store, table, columns);
    if (!buffer)
        return diag_fail(d, "internal error: too many tables in one transaction");
    for (unsigned i = 0; i < n_columns; i++) {
        if (i)
            buffer_append(&buffer->rows, "\t", 1);
        append_copy_field(&buffer->rows, fields[i]);
    }
    buffer_append(&buffer->rows, "\n", 1);
    return buffer->rows.size < COPY_FLUSH_BYTES || copy_rows(store, buffer, d);
}

static bool pg_add_report(struct store *store, const char *const fields[3], const void *body,
                          size_t size, struct diag *d)
{
    struct copy_buffer *buffer = buffer_of(store, "reports", "release,run_id,received,body");
    if (!buffer)
        return diag_fail(d, "internal error: too many tables in one transaction");
    for (unsigned i = 0; i < 3; i++) {
        append_copy_field(&buffer->rows, fields[i]);
        buffer_append(&buffer->rows, "\t", 1);
    }
    /* bytea's hex form, its backslash escaped for COPY.  */
    static const char hex[] = "0123456789abcdef";
    buffer_append(&buffer->rows, "\\\\x", 3);
    const unsigned char *bytes = body;
    char pair[2];
    for (size_t i = 0; i < size; i++) {
        pair[0] = hex[bytes[i] >> 4];
        pair[1] = hex[bytes[i] & 15];
        buffer_append(&buffer->rows, pair, 2);
    }
    buffer_append(&buffer->rows, "\n", 1);
    return true;
}

static bool copy_rows(struct store *store, struct copy_buffer *buffer, struct diag *d)
{
    PGconn *connection = connection_of(store);
    char sql[512];
    snprintf(sql, sizeof sql, "COPY %s (%s) FROM STDIN", buffer->table, buffer->columns);
    PGresult *result = PQexec(connection, sql);
    if (!result || PQresultStatus(result) != PGRES_COPY_IN)
        return fail_result(store, result, "COPY failed", d);
    PQclear(result);
    bool sent = PQputCopyData(connection, buffer->rows.data, (int) buffer->rows.size) == 1;
    sent = PQputCopyEnd(connection, sent ? NULL : "the rows could not be sent") == 1 && sent;
    bool ok = true;
    while ((result = PQgetResult(connection))) {
        if (ok && PQresultStatus(result) != PGRES_COMMAND_OK) {
            char what[128];
            snprintf(what, sizeof what, "COPY into %s failed", buffer->table);
            fail_result(store, result, what, d);
            ok = false;
            continue;
        }
        PQclear(result);
    }
    if (ok && !sent)
        return fail_result(store, NULL, "COPY failed", d);
    buffer->rows.size = 0;
    return ok;
}

static bool pg_flush(struct store *store, struct diag *d)
{
    struct pg_state *state = store->state;
    bool ok = true;
    for (size_t i = 0; i < state->n_buffers; i++) {
        if (ok && state->buffers[i].rows.size)
            ok = copy_rows(store, &state->buffers[i], d);
        state->buffers[i].rows.size = 0;
    }
    return ok;
}

static void pg_discard(struct store *store)
{
    struct pg_state *state = store->state;
    for (size_t i = 0; state && i < state->n_buffers; i++)
        state->buffers[i].rows.size = 0;
}

/* The rows one at a time (libpq's single-row mode), in binary: a text
   column as its bytes (copied here with a NUL), the last column as the
   bytes stored.  */
static bool pg_query_bytes(struct store *store, const char *sql, unsigned n_params,
                           const char *const *params, store_bytes_row_fn row, void *context,
                           struct diag *d)
{
    PGconn *connection = connection_of(store);
    if (!PQsendQueryParams(connection, sql, (int) n_params, NULL, params, NULL, NULL, 1)
        || !PQsetSingleRowMode(connection))
        return fail_result(store, NULL, "query failed", d);
    bool ok = true, cancelled = false;
    PGresult *result;
    struct byte_buffer texts = { 0 };
    while ((result = PQgetResult(connection))) {
        ExecStatusType status = PQresultStatus(result);
        if (!ok && !cancelled) {
            /* The caller stopped: the rest of the rows are not wanted.  */
            PGcancel *cancel = PQgetCancel(connection);
            char error[256];
            if (cancel)
                PQcancel(cancel, error, sizeof error);
            PQfreeCancel(cancel);
            cancelled = true;
        }
        if (ok && status == PGRES_SINGLE_TUPLE) {
            int n = PQnfields(result);
            const char *values[16];
            size_t offsets[16];
            texts.size = 0;
            for (int c = 0; c + 1 < n && c < 16; c++) {
                offsets[c] = texts.size;
                buffer_append(&texts, PQgetvalue(result, 0, c),
                              (size_t) PQgetlength(result, 0, c));
                buffer_append(&texts, "", 1);
            }
            for (int c = 0; c + 1 < n && c < 16; c++)
                values[c] = PQgetisnull(result, 0, c) ? NULL : texts.data + offsets[c];
            ok = n >= 1 && n <= 16
                 && row(context, (unsigned) n - 1, values, PQgetvalue(result, 0, n - 1),
                        (size_t) PQgetlength(result, 0, n - 1), d);
        } else if (ok && status != PGRES_TUPLES_OK) {
            fail_result(store, result, "query failed", d);
            ok = false;
            continue;
        }
        PQclear(result);
    }
    buffer_free(&texts);
    return ok;
}

const struct store_operations store_postgresql_operations = {
    .connect = pg_connect,
    .disconnect = pg_disconnect,
    .lost = pg_lost,
    .exec = pg_exec,
    .query = pg_query,
    .add_row = pg_add_row,
    .add_report = pg_add_report,
    .flush = pg_flush,
    .discard = pg_discard,
    .query_bytes = pg_query_bytes,
    .begin_sql = "BEGIN",
};
