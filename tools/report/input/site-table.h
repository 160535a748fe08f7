/* Static site tables (the text the plugin puts in .debug_sampler_sites or
   appends to a site-table file) and a catalog of them keyed by unit
   signature.  */
#ifndef SAMPLER_REPORT_SITETABLE_H
#define SAMPLER_REPORT_SITETABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "support/util.h"

#include "sampler-abi.h"

#define SITE_SECTION SAMPLER_SITE_SECTION

/* How a bounds site's min and max slots hold their values.  */
enum bound_kind { BOUND_NONE, BOUND_SIGNED, BOUND_UNSIGNED, BOUND_DOUBLE };

struct site {
    unsigned index;
    enum sampler_scheme_id scheme;
    char *file;
    unsigned line;
    unsigned column;
    char *function;              /* as a reader knows it: C++ with scope and signature */
    char *symbol;                /* its symbol where that differs (C++), else NULL */
    char *predicate;
    unsigned n_counters;
    unsigned first_counter;      /* its counters' position among the unit's */
    char **counter_names;        /* n_counters names */
    enum bound_kind bound_kind;  /* BOUND_NONE unless a bounds site */
    unsigned weight;             /* countdown units per visit (1 in tables
                                    without weights); 0: not instrumented */
};

struct unit_table {
    char *signature;
    char *source;
    unsigned n_sites;
    unsigned n_counters;
    unsigned countdown_unit;     /* the weight of a site of default rate */
    struct site *sites;          /* n_sites, in index order */
    char *origin;                /* where it was read, for messages */
    unsigned long line_number;
    char *text;                  /* the table's own text, to compare duplicates */
    size_t text_size;
};

struct site_catalog {
    struct unit_table **units;
    size_t n_units;
    size_t capacity;
    struct name_index by_signature;  /* signature -> position in units */
};

void site_catalog_init(struct site_catalog *catalog);
void site_catalog_free(struct site_catalog *catalog);

/* Adds every unit table in DATA (SIZE bytes; ORIGIN names it in messages).
   Validates each table fully.  A unit already in the catalog with the same
   text is skipped (one object linked into two binaries); a different table
   under the same signature is an error.  */
bool site_catalog_add_text(struct site_catalog *catalog, const char *origin,
                           const char *data, size_t size, struct diag *d);

/* The same, DATA's first line being line FIRST_LINE of ORIGIN.  */
bool site_catalog_add_text_at(struct site_catalog *catalog, const char *origin,
                              const char *data, size_t size, unsigned long first_line,
                              struct diag *d);

/* Adds the tables of a site-table file.  */
bool site_catalog_add_file(struct site_catalog *catalog, const char *path, struct diag *d);

/* Adds the tables of the ELF file PATH (program, library or object), from
   its SITE_SECTION; *FOUND says whether it has one.  */
bool site_catalog_add_binary(struct site_catalog *catalog, const char *path, bool *found,
                             struct diag *d);

/* The probability that a visit of a site of weight WEIGHT is sampled, in
   a run of sparsity SPARSITY counting in units of COUNTDOWN_UNIT:
   1 - (1 - 1 / (sparsity * unit))^weight.  */
double site_rate(unsigned long long sparsity, unsigned long long countdown_unit,
                 unsigned weight);

/* 1 / site_rate, exactly the sparsity for a site of default weight.  */
double site_visits_per_sample(unsigned long long sparsity, unsigned long long countdown_unit,
                              unsigned weight);

/* SITE's function's symbol: its own, or its name (C).  */
const char *site_symbol(const struct site *site);

/* Whether a site of CATALOG names a symbol apart from its function: the
   csv then has a `symbol' column.  */
bool site_catalog_has_symbols(const struct site_catalog *catalog);

const struct unit_table *site_catalog_find(const struct site_catalog *catalog,
                                           const char *signature);

#endif
