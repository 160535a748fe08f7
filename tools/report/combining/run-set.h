/* The runs a command reads: its inputs (report files, directories of
   them, aggregates) expanded, their site tables loaded, the failure rule,
   and a walk over every run, one at a time, each with its units' counts
   added up against their site tables.  */
#ifndef SAMPLER_REPORT_RUN_SET_H
#define SAMPLER_REPORT_RUN_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "combining/run-adder.h"
#include "combining/unit-totals.h"
#include "input/labels.h"
#include "input/report-reader.h"
#include "input/site-table.h"
#include "support/util.h"

/* A --binary or --sites argument.  */
struct table_file {
    const char *path;
    bool is_binary;
};

/* The inputs of a command line.  */
struct run_options {
    const char **inputs;         /* as given */
    size_t n_inputs, inputs_capacity;
    struct table_file *tables;   /* --binary and --sites, in command-line order */
    size_t n_tables, tables_capacity;
    size_t n_binaries;
    const char *fail_if;         /* --fail-if */
    const char *labels;          /* --labels */
    const char *store_url;       /* --store (input/store-input.h) */
    const char *store_release;   /* its --release */
};

void run_options_free(struct run_options *options);

/* One run, its units added up.  */
struct run_view {
    const char *origin;                /* the report file, or as an aggregate recorded it */
    const struct run_report *report;
    const struct run_unit *units;      /* one per unit of the run, in report order */
    size_t n_units;
    bool failed;
    unsigned long index;               /* 0, 1, ... over all runs */
};

typedef bool (*run_visitor)(void *context, const struct run_view *run, struct diag *d);

struct run_set {
    const struct run_options *options;
    char **paths;                     /* inputs with directories expanded */
    size_t n_paths;
    struct site_catalog catalog;
    struct labeller labeller;
    bool labels_needed;
    unsigned long n_runs;
    unsigned long n_failing;
    unsigned long n_on_demand;        /* reports without an exit record, left out */
    const char *progress_label;       /* what the progress line says is being read */
    struct run_adder adder;           /* each run's units added up */
    size_t n_skipped_entries;         /* directory entries that are not reports */
    /* The reports' programs whose site tables were read, when no --binary
       or --sites was given.  */
    char **programs;
    size_t n_programs;
};

/* Expands the inputs and loads every site table (from --binary and
   --sites, from aggregates, else from the reports' programs).  With
   LABELS, the failure rule or label file too.  */
bool run_set_open(struct run_set *set, const struct run_options *options, bool labels,
                  struct diag *d);

/* Calls VISIT for every run (reports without an exit record, written on
   demand while their runs went on, are counted in n_on_demand and left
   out).  */
bool run_set_visit(struct run_set *set, run_visitor visit, void *context, struct diag *d);

void run_set_close(struct run_set *set);

/* Prints the notes about what was left out (on-demand reports) on stderr.  */
void run_set_explain(const struct run_set *set);

#endif
