/* Subcommands of sampler-report and the pieces of their command lines they
   share.  A new subcommand (merge, rank, export) is one more `struct
   command' listed in main.c.  */
#ifndef SAMPLER_REPORT_COMMAND_H
#define SAMPLER_REPORT_COMMAND_H

#include <stdbool.h>
#include <stdio.h>

/* Exit statuses of every subcommand.  */
enum {
    EXIT_FINE = 0,
    EXIT_INCOMPLETE = 1,   /* done, but some units had no site table */
    EXIT_BAD_INPUT = 2,    /* bad input or usage: nothing (more) written */
};

struct command {
    const char *name;
    const char *synopsis;     /* the arguments after the name, on one line */
    const char *summary;      /* one sentence */
    const char *options;      /* option help, lines indented by two spaces */
    /* ARGV[0] is the command's name.  Returns an exit status.  */
    int (*run)(const struct command *self, int argc, char **argv);
};

extern const struct command show_command;
extern const struct command rank_command;
extern const struct command merge_command;
extern const struct command export_command;
extern const struct command values_command;
extern const struct command rates_command;
extern const struct command paths_command;
extern const struct command subpaths_command;

/* "sampler-report: MESSAGE" and the command's one-line usage on stderr;
   returns EXIT_BAD_INPUT.  */
int command_usage_error(const struct command *command, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

void command_print_help(FILE *out, const struct command *command);

/* Matches ARGV[*I] against an option taking a value, as "--NAME VALUE" or
   "--NAME=VALUE".  Returns false if it is not that option; otherwise sets
   *VALUE (NULL when the value is missing) and advances *I past it.  */
bool command_option_value(const char *name, int argc, char **argv, int *i, const char **value);

/* Matches ARGV[*I] against NAME (e.g. "--top") with a whole number from
   LOW to HIGH.  Returns 0 if it is another option; 1 with *NUMBER set;
   -1 after a usage error.  */
int command_whole_number_option(const struct command *self, const char *name, long low,
                                long high, int argc, char **argv, int *i, unsigned *number);

/* The output formats of the listing commands (paths, subpaths, values),
   and a set of them.  */
enum command_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSONL, FORMAT_HTML };
#define FORMAT_SET(format) (1u << (format))
#define FORMAT_SET_ALL (FORMAT_SET(FORMAT_HTML + 1) - 1)

/* Matches ARGV[*I] against --format=F, F one of the formats in OFFERED.
   Returns 0 if it is another option; 1 with *FORMAT set; -1 after a usage
   error naming the formats offered.  */
int command_format_option(const struct command *self, int argc, char **argv, int *i,
                          unsigned offered, enum command_format *format);

#endif
