/* Reading the line-and-TAB record format shared by site tables and reports:
   one record per line, fields separated by exactly one TAB, and `\', TAB
   and newline inside string fields written as `\\', `\t' and `\n'.  */
#ifndef SAMPLER_REPORT_RECORD_H
#define SAMPLER_REPORT_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "support/util.h"

struct text_slice {
    const char *data;
    size_t size;
};

struct record_reader {
    const char *origin;          /* name in diagnostics: a path, or path[section] */
    const char *data;
    size_t size;
    size_t position;
    unsigned long line_number;   /* of the record last read; 0 before the first */
};

/* One line, split into fields that point into the reader's data.  */
struct record {
    struct text_slice line;
    struct text_slice *fields;
    size_t n_fields;
    size_t capacity;
};

enum record_status { RECORD_READ, RECORD_END, RECORD_ERROR };

void record_reader_init(struct record_reader *reader, const char *origin,
                        const char *data, size_t size);

/* Reads the next line into RECORD.  A NUL byte inside a line is an error;
   a last line without a newline is accepted.  */
enum record_status record_read(struct record_reader *reader, struct record *record,
                               struct diag *d);

/* Skips NUL bytes at the reader's position: linkers may pad between the
   tables of several objects in one section.  */
void record_skip_nul_padding(struct record_reader *reader);

void record_free(struct record *record);

/* "ORIGIN:LINE: message" for the reader's current line; returns false.  */
bool record_fail(const struct record_reader *reader, struct diag *d, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

bool slice_equals(struct text_slice slice, const char *text);

/* Quoted copy of SLICE for messages, in BUFFER.  */
char *slice_for_message(struct text_slice slice, char *buffer, size_t buffer_size);

/* Unescapes FIELD into a new string.  WHAT names the field in messages.  */
bool field_to_string(const struct record_reader *reader, struct text_slice field,
                     const char *what, char **out, struct diag *d);

/* Parses FIELD as a plain decimal number no larger than MAX (no sign, no
   spaces, no empty field).  */
bool field_to_u64(const struct record_reader *reader, struct text_slice field,
                  const char *what, unsigned long long max, unsigned long long *out,
                  struct diag *d);
bool field_to_unsigned(const struct record_reader *reader, struct text_slice field,
                       const char *what, unsigned *out, struct diag *d);

/* Unit signatures are 32 lowercase hex digits (sampler-abi.h).  Checks
   FIELD is one and copies it.  */
#define UNIT_SIGNATURE_LENGTH 32
bool field_to_signature(const struct record_reader *reader, struct text_slice field,
                        char **out, struct diag *d);

/* What a file that a reader does not take looks like, judged by its
   start, for a hint in the reader's message.  */
enum file_kind { FILE_UNKNOWN, FILE_ELF, FILE_REPORT, FILE_AGGREGATE, FILE_SITE_TABLE,
                 FILE_LABELS };
enum file_kind guess_file_kind(const char *data, size_t size);

/* " (it looks like a site table: pass it with --sites)" and the like: what
   KIND is and how it is given; "" for FILE_UNKNOWN.  */
const char *file_kind_hint(enum file_kind kind);

#endif
