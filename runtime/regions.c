/* The heap and the main thread's stack, as /proc/self/maps names them
   ([heap], [stack]), for the `region' records that let a reader class a
   pointer's value in a form that holds whatever address the run was
   given (docs/values.md).  Read with open and read only, so that a report
   from a signal handler lists them too.  */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "sampler-internal.h"

/* Hex digits at *TEXT up to a character that is not one.  */
static uintptr_t parse_hex(const char **text, const char *end)
{
    uintptr_t value = 0;
    for (; *text < end; (*text)++) {
        char c = **text;
        unsigned digit;
        if (c >= '0' && c <= '9')
            digit = (unsigned) (c - '0');
        else if (c >= 'a' && c <= 'f')
            digit = (unsigned) (c - 'a' + 10);
        else
            break;
        value = value << 4 | digit;
    }
    return value;
}

static bool line_ends_with(const char *line, size_t length, const char *suffix)
{
    size_t n = strlen(suffix);
    return length >= n && memcmp(line + length - n, suffix, n) == 0;
}

/* One line of the maps: "start-end perms offset dev inode   name".  */
static void visit_line(const char *line, size_t length,
                       void (*visit)(const char *kind, uintptr_t start, uintptr_t end,
                                     void *context),
                       void *context)
{
    const char *kind = line_ends_with(line, length, "[heap]") ? "heap"
                       : line_ends_with(line, length, "[stack]") ? "stack"
                       : NULL;
    if (kind == NULL)
        return;
    const char *at = line, *end = line + length;
    uintptr_t start = parse_hex(&at, end);
    if (at == end || *at != '-')
        return;
    at++;
    uintptr_t stop = parse_hex(&at, end);
    if (start < stop)
        visit(kind, start, stop, context);
}

void sampler_regions_visit(void (*visit)(const char *kind, uintptr_t start, uintptr_t end,
                                         void *context),
                           void *context)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    /* A line longer than the buffer (a very long path) is skipped whole.  */
    char buffer[4096];
    size_t held = 0;
    bool skipping = false;
    for (;;) {
        ssize_t got = read(fd, buffer + held, sizeof buffer - held);
        if (got <= 0)
            break;
        held += (size_t) got;
        size_t from = 0;
        for (char *newline; (newline = memchr(buffer + from, '\n', held - from)) != NULL;) {
            size_t length = (size_t) (newline - (buffer + from));
            if (!skipping)
                visit_line(buffer + from, length, visit, context);
            skipping = false;
            from += length + 1;
        }
        if (from == 0 && held == sizeof buffer) {
            skipping = true;
            held = 0;
            continue;
        }
        memmove(buffer, buffer + from, held - from);
        held -= from;
    }
    close(fd);
}
