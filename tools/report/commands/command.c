#include "commands/command.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    if (command->options && *command->options)
        fprintf(out, "\n%s", command->options);
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

int command_whole_number_option(const struct command *self, const char *name, long low,
                                long high, int argc, char **argv, int *i, unsigned *number)
{
    const char *value;
    if (!command_option_value(name, argc, argv, i, &value))
        return 0;
    char *end;
    long n = value && *value ? strtol(value, &end, 10) : low - 1;
    if (!value || !*value || *end || n < low || n > high) {
        command_usage_error(self, "%s wants a whole number from %ld to %ld, not '%s'", name,
                            low, high, value ? value : "");
        return -1;
    }
    *number = (unsigned) n;
    return 1;
}

int command_format_option(const struct command *self, int argc, char **argv, int *i,
                          unsigned offered, enum command_format *format)
{
    static const char *const names[] = {
        [FORMAT_TEXT] = "text", [FORMAT_CSV] = "csv", [FORMAT_JSONL] = "jsonl",
        [FORMAT_HTML] = "html",
    };
    enum { N_FORMATS = sizeof names / sizeof *names };
    const char *value;
    if (!command_option_value("--format", argc, argv, i, &value))
        return 0;
    for (unsigned f = 0; value && f < N_FORMATS; f++) {
        if ((offered & FORMAT_SET(f)) && strcmp(value, names[f]) == 0) {
            *format = (enum command_format) f;
            return 1;
        }
    }
    /* "text, csv or jsonl" */
    char list[64] = "";
    unsigned left = 0;
    for (unsigned f = 0; f < N_FORMATS; f++)
        left += (offered & FORMAT_SET(f)) != 0;
    for (unsigned f = 0; f < N_FORMATS; f++) {
        if (!(offered & FORMAT_SET(f)))
            continue;
        left--;
        strcat(list, names[f]);
        strcat(list, left > 1 ? ", " : left == 1 ? " or " : "");
    }
    command_usage_error(self, "unknown format '%s' (%s)", value ? value : "", list);
    return -1;
}
