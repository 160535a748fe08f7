/* The commands of sampler-report and the runner they all go through.

   A command is a table entry: what its command line takes, the options of
   its own, and the function that does its work.  The runner (command.c)
   reads the command line, the options every command shares first (inputs,
   --binary, --sites, --fail-if, --labels, --output, --format,
   --source-dir, --store and --release, --help) and the command's own after; checks the rules
   between them; opens the runs the command reads (combining/run-set.h);
   runs it; and turns the outcome into messages and the exit status:

     0  done;
     1  done, but some units had no site table (show);
     2  bad input or usage: a message, and nothing (more) written.

   A new command is one more `struct command' listed in main.c.  */
#ifndef SAMPLER_REPORT_COMMAND_H
#define SAMPLER_REPORT_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "combining/run-set.h"
#include "output/formats.h"
#include "output/sources.h"

/* Exit statuses of every command.  */
enum {
    EXIT_FINE = 0,
    EXIT_INCOMPLETE = 1,   /* done, but some units had no site table */
    EXIT_BAD_INPUT = 2,    /* bad input or usage: nothing (more) written */
};

/* What a command reads.  */
enum command_inputs {
    INPUTS_RUNS,           /* INPUT...: reports, directories of them and aggregates,
                              walked run by run (combining/run-set.h) */
    INPUTS_ONE_REPORT,     /* REPORT: one report file, '-' for standard input */
};

struct command;

/* One command line, read.  */
struct invocation {
    const struct command *command;
    struct run_options inputs;      /* INPUT... or REPORT, --binary, --sites, --fail-if,
                                       --labels, --store, --release */
    enum output_format format;      /* --format; FORMAT_TEXT when not given */
    const char *output;             /* --output (-o) */
    struct source_dirs source_dirs; /* --source-dir */
    void *options;                  /* the command's own: options_size bytes */
    struct run_set *runs;           /* INPUTS_RUNS: the inputs, opened for run */
};

struct command {
    const char *name;
    const char *synopsis;          /* the arguments after the name, on one line */
    const char *summary;           /* what it does, in a few lines */
    const char *options_help;      /* its options' help, lines indented by two spaces */

    /* The command line it takes, besides --help.  */
    enum command_inputs inputs;
    bool labels;                   /* --fail-if and --labels: its runs are labelled */
    const char *labels_refusal;    /* without: what it answers to them, after its
                                      name; NULL says they are for rank and export */
    unsigned formats;              /* --format's choices, FORMAT_SET; 0: no --format */
    const char *formats_expected;  /* what the message for another format says */
    const char *format_missing;    /* the message for --format without a value;
                                      NULL: it is an unknown format '' */
    const char *output_what;       /* --output (-o) takes this ("FILE"), and must be
                                      given; NULL: no --output */
    bool source_dirs;              /* --source-dir */
    bool reads_store;              /* --store URL --release R: a release of the
                                      collector's store as an input
                                      (input/store-input.h) */
    const char *progress;          /* what its progress line says it is doing to the
                                      runs; NULL: "reading runs" */

    /* Its own options: OPTIONS_SIZE bytes, set by INIT (NULL: zeroes),
       each argument offered to TAKE_OPTION when no shared option took it
       (which returns 1 when it took it, 0 when not, -1 after a usage
       error), and the rules between them checked by CHECK (NULL: none),
       which returns EXIT_FINE or a usage error's status.  */
    size_t options_size;
    void (*init)(void *options);
    int (*take_option)(const struct invocation *invocation, int argc, char **argv, int *i);
    int (*check)(const struct invocation *invocation);

    /* Does the work.  Returns EXIT_FINE, EXIT_INCOMPLETE, or EXIT_BAD_INPUT
       with D saying why.  The runner prints D's message, if any: after
       the notes on what the input left out when the command succeeded (a
       note of its own on what the output leaves out).  */
    int (*run)(const struct invocation *invocation, struct diag *d);
};

extern const struct command show_command;
extern const struct command rank_command;
extern const struct command merge_command;
extern const struct command export_command;
extern const struct command values_command;
extern const struct command rates_command;
extern const struct command paths_command;
extern const struct command subpaths_command;

/* Runs COMMAND on its command line: ARGV[0] is the command's name.
   Returns the exit status.  */
int command_run(const struct command *command, int argc, char **argv);

void command_print_help(FILE *out, const struct command *command);

/* "sampler-report: MESSAGE" and the command's one-line usage on stderr;
   returns EXIT_BAD_INPUT.  */
int command_usage_error(const struct command *command, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* For take_option.  Matches ARGV[*I] against an option taking a value,
   as "--NAME VALUE" or "--NAME=VALUE".  Returns false if it is not that
   option; otherwise sets *VALUE (NULL when the value is missing) and
   advances *I past it.  */
bool command_option_value(const char *name, int argc, char **argv, int *i, const char **value);

/* Matches ARGV[*I] against NAME (e.g. "--top") with a whole number from
   LOW to HIGH.  Returns 0 if it is another option; 1 with *NUMBER set;
   -1 after a usage error.  */
int command_whole_number_option(const struct invocation *invocation, const char *name,
                                long low, long high, int argc, char **argv, int *i,
                                unsigned *number);

/* Matches ARGV[*I] against NAME (e.g. "--functions") with how many
   items an output shows at most: a whole number from 1, or "all" (sets
   *LIMIT to 0).  Returns as command_whole_number_option.  */
int command_limit_option(const struct invocation *invocation, const char *name, int argc,
                         char **argv, int *i, unsigned *limit);

/* The same for a number in a range that ACCEPTS says, which WANTED
   describes in the usage error ("--min-share wants WANTED, not 'x'").  */
int command_real_option(const struct invocation *invocation, const char *name,
                        const char *wanted, bool (*accepts)(double value), int argc,
                        char **argv, int *i, double *number);

/* The command's own options (invocation->options).  */
#define COMMAND_OPTIONS(invocation, type) ((type *) (invocation)->options)

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
#define SOURCE_DIR_OPTION_HELP \
    "  --source-dir DIR where to look for source files the site tables name that\n" \
    "                   are not found as named (repeatable)\n"

#endif
