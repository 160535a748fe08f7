/* Warning lines on stderr, shared by the configuration, the unit registry
   and the report writer.  Nothing here uses stdio, the locale or malloc, so
   the report writer can use it on its way out of a dying process.  */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sampler-internal.h"

void sampler_quote(const char *value, size_t max, char *quoted)
{
    static const char hex[] = "0123456789abcdef";
    size_t length = 0;
    size_t i;

    for (i = 0; i < max && value[i] != '\0'; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
            quoted[length++] = (char)c;
        } else {
            quoted[length++] = '\\';
            quoted[length++] = 'x';
            quoted[length++] = hex[c >> 4];
            quoted[length++] = hex[c & 0xf];
        }
    }
    if (value[i] != '\0') {
        memcpy(quoted + length, "...", 3);
        length += 3;
    }
    quoted[length] = '\0';
}

void sampler_warn(const char *message)
{
    char line[1024];
    size_t length = strnlen(message, sizeof line - 1);
    int saved_errno = errno;

    memcpy(line, message, length);
    line[length++] = '\n';

    const char *rest = line;
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, rest, length);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            break;
        rest += written;
        length -= (size_t)written;
    }
    errno = saved_errno;
}
