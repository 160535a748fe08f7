/* The report writer's buffered output (output.h): write(2) and nothing
   else, async-signal-safe.  */
#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "output.h"

/* How long a write to a full non-blocking descriptor may wait.  */
#define WRITE_WAIT_MS 10000

void sampler_output_start(struct sampler_output *out, int fd)
{
    out->fd = fd;
    out->error = 0;
    out->used = 0;
}

void sampler_output_flush(struct sampler_output *out)
{
    const char *rest = out->buffer;
    size_t length = out->used;

    out->used = 0;
    while (length > 0 && out->error == 0) {
        ssize_t written = write(out->fd, rest, length);
        if (written > 0) {
            rest += written;
            length -= (size_t)written;
        } else if (written < 0 && errno == EINTR) {
            continue;
        } else if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* A non-blocking descriptor the program gave us: wait for
               room, but not forever.  */
            struct pollfd ready = { .fd = out->fd, .events = POLLOUT };
            int polled = poll(&ready, 1, WRITE_WAIT_MS);
            if (polled == 0)
                out->error = EAGAIN;
            else if (polled < 0 && errno != EINTR)
                out->error = errno;
        } else {
            out->error = written < 0 ? errno : EIO;
        }
    }
}

void sampler_output_bytes(struct sampler_output *out, const char *bytes, size_t length)
{
    while (length > 0) {
        if (out->used == sizeof out->buffer)
            sampler_output_flush(out);
        size_t room = sizeof out->buffer - out->used;
        size_t chunk = length < room ? length : room;
        memcpy(out->buffer + out->used, bytes, chunk);
        out->used += chunk;
        bytes += chunk;
        length -= chunk;
    }
}

void sampler_output_field(struct sampler_output *out, const char *text)
{
    for (; *text != '\0'; text++) {
        switch (*text) {
        case '\\': sampler_output_bytes(out, "\\\\", 2); break;
        case '\t': sampler_output_bytes(out, "\\t", 2); break;
        case '\n': sampler_output_bytes(out, "\\n", 2); break;
        default: sampler_output_char(out, *text); break;
        }
    }
}

char *sampler_format_decimal(unsigned long long value, char digits[21])
{
    char *start = digits + 20;

    *start = '\0';
    do {
        *--start = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    return start;
}

bool sampler_append(char *buffer, size_t size, size_t *length, const char *text)
{
    size_t text_length = strlen(text);

    if (*length + text_length >= size)
        return false;
    memcpy(buffer + *length, text, text_length + 1);
    *length += text_length;
    return true;
}
