/* The collector's store: the one schema of tools/sql/ (docs/schema.md) on
   PostgreSQL, through libpq, or SQLite, embedded.  One `struct store' is
   one connection, used by one thread at a time.  What differs between
   the engines is here (store-postgresql.c, store-sqlite.c); what the
   collector does with the store is engine-neutral SQL, the same files
   sampler-sql runs (sql-files.h).

   URLs: postgresql://... or postgres://... (libpq's URI; a key=value
   connection string works too after "postgresql:"), sqlite:PATH, or a
   plain PATH (SQLite).  */
#ifndef SAMPLER_COLLECT_STORE_H
#define SAMPLER_COLLECT_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "output/sql-tables.h"
#include "support/util.h"

enum store_engine { STORE_SQLITE, STORE_POSTGRESQL };

struct store;

/* Opens a connection to the store URL.  */
bool store_open(struct store **store, const char *url, struct diag *d);
void store_close(struct store *store);

enum store_engine store_engine(const struct store *store);
const char *store_engine_name(enum store_engine engine);

/* The URL without a password, for messages.  */
void store_describe_url(const char *url, char *out, size_t size);

/* Whether the connection is gone (the server restarted, the network
   failed): the caller should reconnect, not only retry.  */
bool store_lost(const struct store *store);

/* What the last failure came from: the store (down, restarting, its
   disk full, busy: later may work), or the data written (a value the
   store refuses: the same rows will always fail).  */
enum store_failure { STORE_FAILURE_STORE, STORE_FAILURE_DATA };
enum store_failure store_last_failure(const struct store *store);

/* Reconnects after store_lost.  */
bool store_reconnect(struct store *store, struct diag *d);

/* Runs SQL: any number of statements, no parameters (DDL, the SQL files).
   On PostgreSQL the partition comments of the files become clauses.  */
bool store_exec(struct store *store, const char *sql, struct diag *d);

/* One row of a query's result: N_COLUMNS values as text (NULL for SQL
   NULL).  Returns false to stop with D set.  */
typedef bool (*store_row_fn)(void *context, unsigned n_columns, const char *const *values,
                             struct diag *d);

/* Runs one statement with parameters $1, $2, ... (text; NULL for SQL
   NULL) and calls ROW for each row of its result (ROW may be NULL).  */
bool store_query(struct store *store, const char *sql, unsigned n_params,
                 const char *const *params, store_row_fn row, void *context, struct diag *d);

bool store_begin(struct store *store, struct diag *d);
bool store_commit(struct store *store, struct diag *d);
/* Never fails: a lost connection has no transaction left to roll back.  */
void store_rollback(struct store *store);

/* Bulk rows for the current transaction: rows of the schema's tables
   (sqltables.h) and received reports (bytes).  They are buffered and
   written by store_rows_flush (PostgreSQL: COPY), or written as they come
   (SQLite: prepared statements).  */
bool store_add_row(struct store *store, enum sql_table table, const char *const *fields,
                   struct diag *d);
bool store_add_report(struct store *store, const char *release, const char *run_id,
                      const char *received, const void *body, size_t size, struct diag *d);
/* fold_queue rows (release, run, run_id, failed, received), and run_folds
   rows (release, run, batch, failed).  */
bool store_add_fold(struct store *store, const char *const fields[5], struct diag *d);
bool store_add_fold_mark(struct store *store, const char *const fields[4], struct diag *d);
bool store_rows_flush(struct store *store, struct diag *d);

/* One row of a query whose last column is bytes (bytea, BLOB): the other
   columns as text (the query casts numbers to VARCHAR), then the bytes.  */
typedef bool (*store_bytes_row_fn)(void *context, unsigned n_columns,
                                   const char *const *values, const void *bytes, size_t size,
                                   struct diag *d);

/* Runs one statement whose last column is bytes, and calls ROW for each
   row of its result as it arrives (no other statement may run on the
   connection meanwhile).  */
bool store_query_bytes(struct store *store, const char *sql, unsigned n_params,
                       const char *const *params, store_bytes_row_fn row, void *context,
                       struct diag *d);

#endif
