/* What each engine of the store implements (store.h says what each
   operation does); store.c dispatches to them.  */
#ifndef SAMPLER_COLLECT_STORE_ENGINE_H
#define SAMPLER_COLLECT_STORE_ENGINE_H

#include "store.h"

struct store_operations {
    bool (*connect)(struct store *store, struct diag *d);
    void (*disconnect)(struct store *store);
    bool (*lost)(const struct store *store);
    bool (*exec)(struct store *store, const char *sql, struct diag *d);
    bool (*query)(struct store *store, const char *sql, unsigned n_params,
                  const char *const *params, store_row_fn row, void *context, struct diag *d);
    bool (*add_row)(struct store *store, const char *table, const char *columns,
                    unsigned n_columns, const char *const *fields, struct diag *d);
    bool (*add_report)(struct store *store, const char *const fields[3], const void *body,
                       size_t size, struct diag *d);
    bool (*flush)(struct store *store, struct diag *d);
    void (*discard)(struct store *store);      /* rows not flushed */
    bool (*query_bytes)(struct store *store, const char *sql, unsigned n_params,
                        const char *const *params, store_bytes_row_fn row, void *context,
                        struct diag *d);
    const char *begin_sql;      /* how a writing transaction starts */
};

struct store {
    enum store_engine engine;
    const struct store_operations *operations;
    char *target;               /* the engine's connection string or file */
    void *connection;           /* the engine's (PGconn, sqlite3) */
    void *state;                /* the engine's buffers and statements */
    enum store_failure last_failure;
};

extern const struct store_operations store_postgresql_operations;
extern const struct store_operations store_sqlite_operations;

#endif
