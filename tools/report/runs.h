/* What merge, rank and export share: the command-line inputs (report
   files, directories of them, aggregates), their site tables, the failure
   rule, and a walk over every run, one at a time, each with its units'
   counts added up against their site tables.  */
#ifndef SAMPLER_REPORT_RUNS_H
#define SAMPLER_REPORT_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "counts.h"
#include "labels.h"
#include "report.h"
#include "run-adder.h"
#include "sitetable.h"
#include "util.h"

struct run_options {
    const char **inputs;         /* as given */
    size_t n_inputs, inputs_capacity;
    const char **binaries;       /* --binary, in order */
    size_t n_binaries, binaries_capacity;
    const char **site_files;     /* --sites, in order */
    size_t n_site_files, site_files_capacity;
    const char *fail_if;         /* --fail-if */
    const char *labels;          /* --labels */
    const char *store_url;       /* --store (store-input.h) */
    const char *store_release;   /* its --release */
};

/* Takes ARGV[*I] if it is an input or an option of run_options (--binary,
   --sites, --fail-if, --labels), advancing *I past a separate value.
   Returns 1 if taken, 0 if not one of them, -1 on a usage error (printed,
   for COMMAND).  */
struct command;
int run_options_take(const struct command *command, struct run_options *options, int argc,
                     char **argv, int *i);
void run_options_free(struct run_options *options);

/* A whole command line of inputs, run options and --output (-o) VALUE
   (when OUTPUT is set; OUTPUT_WHAT names it in messages: "file").  EXTRA,
   if set, is offered every other argument, and answers as
   run_options_take.  Returns EXIT_FINE, RUN_COMMAND_HELP (the help was
   printed), or a status after a usage error.  */
enum { RUN_COMMAND_HELP = -1 };
int run_command_line(const struct command *command, int argc, char **argv,
                     struct run_options *options, const char **output, const char *output_what,
                     int (*extra)(const struct command *command, int argc, char **argv, int *i));

/* After the command line: the release of --store added to the inputs
   (store-input.h), or a usage error's status; EXIT_FINE.  */
int run_options_finish(const struct command *command, struct run_options *options);

/* Options help shared by the commands.  */
#define RUN_OPTIONS_HELP \
    "  INPUT            a report file, a directory of them (every file in it but\n" \
    "                   hidden ones and stale *.tmp.* files) or an aggregate from\n" \
    "                   'merge'\n" \
    "  --binary FILE    a program, shared library or object built with the sampler\n" \
    "                   plugin, for its site tables (repeatable; without --binary\n" \
    "                   and --sites, the reports' own programs are read)\n" \
    "  --sites FILE     a site-table file (-fplugin-arg-sampler-site-table=FILE)\n"
#define STORE_OPTIONS_HELP \
    "  --store URL      the collector's store (postgresql://... or sqlite:FILE), with\n" \
    "  --release R      its release R (PRODUCT/VERSION or its number): its runs, site\n" \
    "                   tables and failure rule (docs/collect.md)\n"
#define LABEL_OPTIONS_HELP \
    "  --fail-if=RULE   which runs failed: comma-separated conditions, any of which\n" \
    "                   makes a run fail: signal, signal=N, status=N, status=N-M\n" \
    "                   (default " DEFAULT_FAILURE_RULE ": any signal or non-zero\n" \
    "                   exit status; for crashes, --fail-if=signal is the usual\n" \
    "                   choice)\n" \
    "  --labels FILE    each run's outcome instead: lines 'success' or 'failure',\n" \
    "                   TAB, the report as given\n"

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
