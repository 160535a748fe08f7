/* sampler-report: reads the reports that programs built with the sampler
   plugin write, with the site tables from their binaries.

   The sources are in folders in the order the data flows through them:

     input/       reading: the record format, reports (report-reader.c),
                  runs one at a time from reports and aggregates
                  (run-stream.c), site tables from files and ELF sections,
                  symbols, label files and failure rules
     combining/   a unit's occurrences added up by merge kind
                  (unit-totals.c); a command's runs, their site tables
                  loaded, walked one at a time (run-set.c)
     statistics/  the predicates of a site, CBI's scores, elimination, the
                  ranking
     output/      formats (text tables, CSV, JSON lines, HTML), whole-or-
                  nothing files, show's rows, the ranking's text and page,
                  aggregates, the SQL schema's rows, source files for pages
     commands/    the runner every command goes through (command.c), and
                  show, merge, rank, export and rates
     schemes/     what sampler-report knows of each scheme of the registry
                  (runtime/schemes.def), one slot per scheme: registry.c,
                  a file per predicate scheme, a folder per profile scheme
                  (values/, paths/, subpaths/: their data and command)
     support/     diagnostics, allocation, buffers, progress lines

   An include names its folder: "input/report-reader.h".  */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "commands/command.h"
#include "support/util.h"

static const struct command *const commands[] = {
    &show_command,
    &merge_command,
    &rank_command,
    &export_command,
    &values_command,
    &rates_command,
    &paths_command,
    &subpaths_command,
};

enum { N_COMMANDS = sizeof commands / sizeof commands[0] };

static const struct command *find_command(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++) {
        if (strcmp(commands[i]->name, name) == 0)
            return commands[i];
    }
    return NULL;
}

static void print_usage_line(FILE *out)
{
    fputs("usage: " PROGRAM_NAME " COMMAND [ARGUMENT]... (commands:", out);
    for (int i = 0; i < N_COMMANDS; i++)
        fprintf(out, " %s,", commands[i]->name);
    fputs(" help; see " PROGRAM_NAME " --help)\n", out);
}

static void print_help(FILE *out)
{
    fputs("usage: " PROGRAM_NAME " COMMAND [ARGUMENT]...\n\n"
          "Reads the reports that programs built with the sampler GCC plugin write,\n"
          "with the site tables the plugin leaves in their binaries.\n\n"
          "Commands:\n", out);
    for (int i = 0; i < N_COMMANDS; i++) {
        fprintf(out, "  %s %s\n", commands[i]->name, commands[i]->synopsis);
        /* The summary may span lines; indent every one.  */
        fputs("      ", out);
        for (const char *p = commands[i]->summary; *p; p++) {
            fputc(*p, out);
            if (*p == '\n')
                fputs("      ", out);
        }
        fputc('\n', out);
    }
    fputs("  help [COMMAND]\n"
          "      Show this help, or a command's.\n", out);
    for (int i = 0; i < N_COMMANDS; i++)
        fprintf(out, "\n%s options:\n%s", commands[i]->name, commands[i]->options_help);
    fputs("\nExit status: 0 success; 1 output written, but some units had no site table;\n"
          "2 bad input or usage.\n", out);
}

static int usage_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs(PROGRAM_NAME ": ", stderr);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    print_usage_line(stderr);
    return EXIT_BAD_INPUT;
}

static int help(int argc, char **argv)
{
    if (argc > 2)
        return usage_error("'help' takes at most one command; '%s' is extra", argv[2]);
    if (argc == 2) {
        const struct command *command = find_command(argv[1]);
        if (!command)
            return usage_error("unknown command '%s'", argv[1]);
        command_print_help(stdout, command);
    } else {
        print_help(stdout);
    }
    return fflush(stdout) == 0 ? EXIT_FINE : EXIT_BAD_INPUT;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("no command given");
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0)
        return help(argc - 1, argv + 1);
    const struct command *command = find_command(name);
    if (command)
        return command_run(command, argc - 1, argv + 1);
    if (name[0] == '-')
        return usage_error("unknown option '%s'", name);
    return usage_error("unknown command '%s'", name);
}
