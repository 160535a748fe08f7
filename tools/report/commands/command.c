/* The runner every command goes through (command.h): the command line,
   the runs, the outcome.  */
#include "commands/command.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "input/store-input.h"
#include "support/util.h"

int command_usage_error(const struct command *command, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs(PROGRAM_NAME ": ", stderr);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, "\nusage: " PROGRAM_NAME " %s %s\n", command->name, command->synopsis);
    return EXIT_BAD_INPUT;
}

void command_print_help(FILE *out, const struct command *command)
{
    fprintf(out, "usage: " PROGRAM_NAME " %s %s\n\n%s\n", command->name, command->synopsis,
            command->summary);
    if (command->options_help && *command->options_help)
        fprintf(out, "\n%s", command->options_help);
}

bool command_option_value(const char *name, int argc, char **argv, int *i, const char **value)
{
    const char *argument = argv[*i];
    size_t length = strlen(name);
    if (strncmp(argument, name, length) != 0)
        return false;
    if (argument[length] == '=') {
        *value = argument + length + 1;
    } else if (argument[length] == '\0') {
        *value = *i + 1 < argc ? argv[++*i] : NULL;
    } else {
        return false;
    }
    return true;
}

int command_whole_number_option(const struct invocation *invocation, const char *name,
                                long low, long high, int argc, char **argv, int *i,
                                unsigned *number)
{
    const char *value;
    if (!command_option_value(name, argc, argv, i, &value))
        return 0;
    char *end;
    long n = value && *value ? strtol(value, &end, 10) : low - 1;
    if (!value || !*value || *end || n < low || n > high) {
        command_usage_error(invocation->command, "%s wants a whole number from %ld to %ld, "
                            "not '%s'", name, low, high, value ? value : "");
        return -1;
    }
    *number = (unsigned) n;
    return 1;
}

int command_limit_option(const struct invocation *invocation, const char *name, int argc,
                         char **argv, int *i, unsigned *limit)
{
    const char *value;
    int at = *i;
    if (!command_option_value(name, argc, argv, &at, &value))
        return 0;
    if (value && strcmp(value, "all") == 0) {
        *i = at;
        *limit = 0;
        return 1;
    }
    return command_whole_number_option(invocation, name, 1, 100000000, argc, argv, i, limit);
}

int command_real_option(const struct invocation *invocation, const char *name,
                        const char *wanted, bool (*accepts)(double value), int argc,
                        char **argv, int *i, double *number)
{
    const char *value;
    if (!command_option_value(name, argc, argv, i, &value))
        return 0;
    char *end;
    double x = value && *value ? strtod(value, &end) : 0;
    if (!value || !*value || *end || !accepts(x)) {
        command_usage_error(invocation->command, "%s wants %s, not '%s'", name, wanted,
                            value ? value : "");
        return -1;
    }
    *number = x;
    return 1;
}

/* ---- The shared options ------------------------------------------------------ */

static void append_pointer(void *items_pointer, size_t *count, size_t *capacity,
                           const void *item)
{
    const void ***items = items_pointer;
    void *block = *items;
    grow_array(&block, capacity, *count + 1, sizeof **items);
    *items = block;
    (*items)[(*count)++] = item;
}

static void add_table_file(struct run_options *inputs, const char *path, bool is_binary)
{
    void *items = inputs->tables;
    grow_array(&items, &inputs->tables_capacity, inputs->n_tables + 1, sizeof *inputs->tables);
    inputs->tables = items;
    inputs->tables[inputs->n_tables++] = (struct table_file) { path, is_binary };
    inputs->n_binaries += is_binary;
}

/* An input: a report, directory or aggregate, or show's one report.  */
static int take_input(struct invocation *invocation, const char *argument)
{
    const struct command *command = invocation->command;
    struct run_options *inputs = &invocation->inputs;
    if (command->inputs == INPUTS_ONE_REPORT && inputs->n_inputs > 0)
        return command_usage_error(command, "'%s' takes one report; '%s' is a second one",
                                   command->name, argument), -1;
    append_pointer(&inputs->inputs, &inputs->n_inputs, &inputs->inputs_capacity, argument);
    return 1;
}

/* An option taking a file (or rule, directory): 1 with *VALUE set, 0 if
   ARGV[*I] is another option, -1 when the value is missing.  */
static int take_valued(const struct command *command, const char *name, const char *what,
                       int argc, char **argv, int *i, const char **value)
{
    if (!command_option_value(name, argc, argv, i, value))
        return 0;
    if (!*value || !**value)
        return command_usage_error(command, "option '%s' needs %s", name, what), -1;
    return 1;
}

static int take_format(struct invocation *invocation, int argc, char **argv, int *i)
{
    const struct command *command = invocation->command;
    const char *value;
    if (!command_option_value("--format", argc, argv, i, &value))
        return 0;
    if (!value && command->format_missing)
        return command_usage_error(command, "%s", command->format_missing), -1;
    for (int f = 0; value && f < N_OUTPUT_FORMATS; f++) {
        if ((command->formats & FORMAT_SET(f))
            && strcmp(value, output_format_name((enum output_format) f)) == 0) {
            invocation->format = (enum output_format) f;
            return 1;
        }
    }
    return command_usage_error(command, "unknown format '%s' (%s)", value ? value : "",
                               command->formats_expected), -1;
}

/* Takes ARGV[*I] if it is one of the options COMMAND shares with others:
   1 when taken, 0 if not, -1 after a usage error.  */
static int take_shared_option(struct invocation *invocation, int argc, char **argv, int *i)
{
    const struct command *command = invocation->command;
    struct run_options *inputs = &invocation->inputs;
    const char *value;
    int taken;
    if (command->output_what && (command_option_value("--output", argc, argv, i, &value)
                                 || command_option_value("-o", argc, argv, i, &value))) {
        if (!value || !*value)
            return command_usage_error(command, "option '--output' needs a %s",
                                       command->output_what), -1;
        invocation->output = value;
        return 1;
    }
    for (int binary = 1; binary >= 0; binary--) {
        taken = take_valued(command, binary ? "--binary" : "--sites", "a file", argc, argv, i,
                            &value);
        if (taken > 0)
            add_table_file(inputs, value, binary);
        if (taken)
            return taken;
    }
    if (command->inputs == INPUTS_RUNS
        && ((taken = take_valued(command, "--fail-if", "a rule", argc, argv, i,
                                 &inputs->fail_if)) != 0
            || (taken = take_valued(command, "--labels", "a file", argc, argv, i,
                                    &inputs->labels)) != 0))
        return taken;
    /* export's own --release names the release it writes.  */
    if (command->reads_store
        && ((taken = take_valued(command, "--store", "a URL", argc, argv, i,
                                 &inputs->store_url)) != 0
            || (taken = take_valued(command, "--release", "a release", argc, argv, i,
                                    &inputs->store_release)) != 0))
        return taken;
    if (command->formats && (taken = take_format(invocation, argc, argv, i)) != 0)
        return taken;
    if (command->source_dirs
        && (taken = take_valued(command, "--source-dir", "a directory", argc, argv, i,
                                &value)) != 0) {
        if (taken > 0) {
            struct source_dirs *dirs = &invocation->source_dirs;
            append_pointer(&dirs->dirs, &dirs->n_dirs, &dirs->capacity, value);
        }
        return taken;
    }
    return 0;
}

/* ---- The command line, the runs, the outcome ------------------------------------- */

/* The rules between options, after the whole command line.  */
static int check_command_line(const struct invocation *invocation)
{
    const struct command *command = invocation->command;
    const struct run_options *inputs = &invocation->inputs;
    if (inputs->labels && inputs->fail_if)
        return command_usage_error(command, "give --fail-if or --labels, not both");
    if (!inputs->store_url != !inputs->store_release)
        return command_usage_error(command, "give --store URL and --release R together");
    if (inputs->n_inputs == 0 && command->inputs == INPUTS_ONE_REPORT)
        return command_usage_error(command, "'%s' needs a report file", command->name);
    if (inputs->n_inputs == 0 && !inputs->store_url)
        return command_usage_error(command, "'%s' needs reports", command->name);
    if (command->output_what && !invocation->output)
        return command_usage_error(command, "'%s' needs --output %s", command->name,
                                   command->output_what);
    if (!command->labels && (inputs->fail_if || inputs->labels))
        return command_usage_error(command, "'%s' %s", command->name,
                                   command->labels_refusal
                                   ? command->labels_refusal
                                   : "uses every run alike; --fail-if and --labels are for "
                                     "'rank' and 'export'");
    return command->check ? command->check(invocation) : EXIT_FINE;
}

/* read_command_line's answer when it printed the help: nothing to run.  */
enum { HELP_GIVEN = -1 };

static int read_command_line(struct invocation *invocation, int argc, char **argv)
{
    const struct command *command = invocation->command;
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *argument = argv[i];
        int taken;
        if (options_done || argument[0] != '-'
            || (command->inputs == INPUTS_ONE_REPORT && strcmp(argument, "-") == 0)) {
            taken = take_input(invocation, argument);
        } else if (strcmp(argument, "--") == 0) {
            options_done = true;
            taken = 1;
        } else if (strcmp(argument, "--help") == 0 || strcmp(argument, "-h") == 0) {
            command_print_help(stdout, command);
            return HELP_GIVEN;
        } else {
            taken = take_shared_option(invocation, argc, argv, &i);
            if (taken == 0 && command->take_option)
                taken = command->take_option(invocation, argc, argv, &i);
        }
        if (taken < 0)
            return EXIT_BAD_INPUT;
        if (taken == 0)
            return command_usage_error(command, "unknown option '%s' for '%s'", argument,
                                       command->name);
    }
    return check_command_line(invocation);
}

/* --store URL --release R: the release as one more input, its tables as
   a --sites file and, for a command that labels its runs, its failure
   rule unless --fail-if or --labels is given.  */
static bool add_store_input(struct invocation *invocation, struct diag *d)
{
    struct run_options *inputs = &invocation->inputs;
    struct store_release_input added;
    if (!store_input_add(inputs->store_url, inputs->store_release, &added, d))
        return false;
    append_pointer(&inputs->inputs, &inputs->n_inputs, &inputs->inputs_capacity, added.name);
    add_table_file(inputs, added.sites_path, false);
    if (invocation->command->labels && !inputs->fail_if && !inputs->labels)
        inputs->fail_if = added.fail_if;
    return true;
}

/* Opens the runs the command reads, runs it, and says what went wrong.  */
static int run_invocation(struct invocation *invocation)
{
    const struct command *command = invocation->command;
    struct run_set runs;
    bool runs_opened = false;       /* run_set_open called: run_set_close too */
    struct diag d;
    d.message[0] = '\0';
    int status = EXIT_FINE;
    if (command->inputs == INPUTS_RUNS) {
        /* The store's release joins the inputs once the command line is
           known to be right.  */
        struct run_options *inputs = &invocation->inputs;
        runs_opened = !inputs->store_url || add_store_input(invocation, &d);
        if (runs_opened && run_set_open(&runs, inputs, command->labels, &d)) {
            if (command->progress)
                runs.progress_label = command->progress;
            invocation->runs = &runs;
        } else {
            status = EXIT_BAD_INPUT;
        }
    }
    if (status == EXIT_FINE)
        status = command->run(invocation, &d);
    /* What was left out of the input, once the output is complete.  */
    if (status != EXIT_BAD_INPUT && invocation->runs)
        run_set_explain(invocation->runs);
    if (status != EXIT_BAD_INPUT && (fflush(stdout) != 0 || ferror(stdout))) {
        diag_fail(&d, "cannot write the output");
        status = EXIT_BAD_INPUT;
    }
    if (d.message[0])
        fprintf(stderr, PROGRAM_NAME ": %s\n", d.message);
    if (runs_opened)
        run_set_close(&runs);
    invocation->runs = NULL;
    return status;
}

int command_run(const struct command *command, int argc, char **argv)
{
    struct invocation invocation = { .command = command, .format = FORMAT_TEXT };
    invocation.options = xcalloc(1, command->options_size ? command->options_size : 1);
    if (command->init)
        command->init(invocation.options);
    int status = read_command_line(&invocation, argc, argv);
    if (status == EXIT_FINE)
        status = run_invocation(&invocation);
    else if (status == HELP_GIVEN)
        status = EXIT_FINE;
    run_options_free(&invocation.inputs);
    free(invocation.source_dirs.dirs);
    free(invocation.options);
    return status;
}
