/* The report writer's output: records written through a buffer of its
   own into one file descriptor, with write(2) only.  No stdio stream of
   the program is touched and nothing is allocated, so that the same code
   writes the report of a run that dies of a signal, from the signal
   handler.  Used by the report writer (runtime/report-writer/) and by
   the schemes' own records (runtime/schemes.h).  */
#ifndef SAMPLER_REPORT_OUTPUT_H
#define SAMPLER_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define SAMPLER_OUTPUT_BUFFER_SIZE 4096

struct sampler_output {
    int fd;
    int error;      /* errno of the first failure; 0 while all is well */
    size_t used;
    char buffer[SAMPLER_OUTPUT_BUFFER_SIZE];
};

/* Starts writing to FD with an empty buffer and no error.  */
void sampler_output_start(struct sampler_output *out, int fd);

/* Writes what the buffer holds (waiting a while for room on a
   non-blocking descriptor); a failure is kept in out->error, and what
   follows is dropped.  */
void sampler_output_flush(struct sampler_output *out);

void sampler_output_bytes(struct sampler_output *out, const char *bytes, size_t length);

static inline void sampler_output_char(struct sampler_output *out, char c)
{
    if (out->used == sizeof out->buffer)
        sampler_output_flush(out);
    out->buffer[out->used++] = c;
}

static inline void sampler_output_text(struct sampler_output *out, const char *text)
{
    sampler_output_bytes(out, text, strlen(text));
}

/* A string field: backslash, TAB and newline escaped.  */
void sampler_output_field(struct sampler_output *out, const char *text);

/* VALUE in decimal, written straight into the buffer (a report writes a
   number for every slot of every site it holds).  */
static inline void sampler_output_decimal(struct sampler_output *out, unsigned long long value)
{
    unsigned length = 1;
    for (unsigned long long v = value; v >= 10; v /= 10)
        length++;
    if (sizeof out->buffer - out->used < length)
        sampler_output_flush(out);
    char *digit = out->buffer + out->used + length;
    do {
        *--digit = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    out->used += length;
}

/* Writes value in decimal into digits (at least 21 bytes); returns the
   start of the NUL-terminated text, within digits.  */
char *sampler_format_decimal(unsigned long long value, char digits[21]);

/* Appends text to the NUL-terminated string in buffer (size bytes), or
   returns false when it does not fit.  */
bool sampler_append(char *buffer, size_t size, size_t *length, const char *text);

#endif
