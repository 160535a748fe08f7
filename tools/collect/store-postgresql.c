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

enum { MAX_COPY_TABLES = 16 };

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
    return true;
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

/* The reports, one row at a time (libpq's single-row mode), in binary:
   the body as the bytes stored.  */
static bool pg_each_report(struct store *store, const char *release, store_body_fn body,
                           void *context, struct diag *d)
{
    PGconn *connection = connection_of(store);
    const char *params[1] = { release };
    if (!PQsendQueryParams(connection, "SELECT run_id, body FROM reports WHERE release = $1 "
                           "ORDER BY run_id", 1, NULL, params, NULL, NULL, 1)
        || !PQsetSingleRowMode(connection))
        return fail_result(store, NULL, "reading the reports failed", d);
    bool ok = true;
    PGresult *result;
    while ((result = PQgetResult(connection))) {
        ExecStatusType status = PQresultStatus(result);
        if (ok && status == PGRES_SINGLE_TUPLE) {
            char run_id[33];
            int length = PQgetlength(result, 0, 0);
            snprintf(run_id, sizeof run_id, "%.*s", length, PQgetvalue(result, 0, 0));
            ok = body(context, run_id, PQgetvalue(result, 0, 1),
                      (size_t) PQgetlength(result, 0, 1), d);
        } else if (ok && status != PGRES_TUPLES_OK) {
            fail_result(store, result, "reading the reports failed", d);
            ok = false;
            continue;
        }
        PQclear(result);
    }
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
    .each_report = pg_each_report,
    .begin_sql = "BEGIN",
};
