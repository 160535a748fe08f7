/* The rows of the SQL schema of tools/sql/ (docs/schema.md): a release's
   sites and predicates, and each run's row, its observations (a row per
   observed site with its true predicates as bits), hot-lists, path counts
   and subpath lists.  `export' writes them as CSV; the collector inserts
   the same rows into its store.  Rows go to a sink as text fields, NULL
   for an SQL NULL, in the column order of sql_tables.  */
#ifndef SAMPLER_REPORT_SQL_TABLES_H
#define SAMPLER_REPORT_SQL_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "combining/run-set.h"
#include "input/symbols.h"
#include "statistics/ranking.h"
#include "support/util.h"

enum sql_table {
    SQL_RELEASES, SQL_RUNS, SQL_SITES, SQL_PREDICATES, SQL_OBSERVATIONS, SQL_HOT_LISTS,
    SQL_HOT_VALUES, SQL_PATH_SAMPLES, SQL_PATH_COUNTS, SQL_SUBPATH_LISTS, SQL_SUBPATH_COUNTS,
    SQL_COUNTS, SQL_N_TABLES
};

struct sql_table_info {
    const char *name;
    const char *columns;        /* comma-separated, as in the DDL */
    unsigned n_columns;
};
extern const struct sql_table_info sql_tables[SQL_N_TABLES];

/* Predicates per word of an observation's truths: bit k % 62 of word
   k / 62, so that every word is a positive BIGINT in any engine.  */
enum { SQL_TRUTH_BITS = 62 };

struct sql_sink {
    bool (*row)(void *context, enum sql_table table, const char *const *fields,
                struct diag *d);
    void *context;
    bool counts;                /* also the raw counters (SQL_COUNTS) */
};

/* A release: its number in the store, its name, and the numbering of its
   sites and predicates (rank's universe and tie order).  */
struct sql_release {
    unsigned long id;
    const char *name;
    const struct universe *universe;
    const uint32_t *tie_order;
};

/* The release's row, its sites and its predicates.  */
bool sql_release_rows(const struct sql_sink *sink, const struct sql_release *release,
                      struct diag *d);

/* What the store says of a run beyond its report.  */
struct sql_run {
    unsigned long number;       /* 1, 2, ... within the release */
    char id[33];                /* 128 bits in hex */
    const char *received;       /* "YYYY-MM-DD HH:MM:SS", UTC */
    bool failed;
};

/* A run's rows: its row in runs, then its observations, hot-lists, path
   counts and subpath lists (NAMER names indirect-call targets).  */
bool sql_run_rows(const struct sql_sink *sink, const struct sql_release *release,
                  const struct sql_run *run, const struct run_view *view,
                  struct symbol_namer *namer, struct diag *d);

/* A run's 128-bit id: its report's run-id record, or for a report from
   before them a hash of where it was read and its pid, seed and program.  */
void sql_run_id_of(const struct run_view *view, char id[33]);

#endif
