#include "input/record.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void record_reader_init(struct record_reader *reader, const char *origin,
                        const char *data, size_t size)
{
    reader->origin = origin;
    reader->data = data;
    reader->size = size;
    reader->position = 0;
    reader->line_number = 0;
}

void record_skip_nul_padding(struct record_reader *reader)
{
    while (reader->position < reader->size && reader->data[reader->position] == '\0')
        reader->position++;
}

bool record_fail(const struct record_reader *reader, struct diag *d, const char *format, ...)
{
    char what[sizeof d->message];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    return diag_fail(d, "%s:%lu: %s", reader->origin, reader->line_number, what);
}

enum record_status record_read(struct record_reader *reader, struct record *record,
                               struct diag *d)
{
    if (reader->position >= reader->size)
        return RECORD_END;
    const char *start = reader->data + reader->position;
    size_t rest = reader->size - reader->position;
    const char *newline = memchr(start, '\n', rest);
    size_t length = newline ? (size_t) (newline - start) : rest;
    reader->position += newline ? length + 1 : length;
    reader->line_number++;
    record->line.data = start;
    record->line.size = length;
    record->n_fields = 0;
    if (memchr(start, '\0', length)) {
        record_fail(reader, d, "NUL byte in line");
        return RECORD_ERROR;
    }
    const char *field = start;
    const char *end = start + length;
    for (;;) {
        const char *tab = memchr(field, '\t', (size_t) (end - field));
        const char *field_end = tab ? tab : end;
        void *items = record->fields;
        grow_array(&items, &record->capacity, record->n_fields + 1, sizeof *record->fields);
        record->fields = items;
        record->fields[record->n_fields].data = field;
        record->fields[record->n_fields].size = (size_t) (field_end - field);
        record->n_fields++;
        if (!tab)
            break;
        field = tab + 1;
    }
    return RECORD_READ;
}

void record_free(struct record *record)
{
    free(record->fields);
    record->fields = NULL;
    record->n_fields = record->capacity = 0;
}

bool slice_equals(struct text_slice slice, const char *text)
{
    size_t length = strlen(text);
    return slice.size == length && memcmp(slice.data, text, length) == 0;
}

char *slice_for_message(struct text_slice slice, char *buffer, size_t buffer_size)
{
    return quote_for_message(slice.data, slice.size, buffer, buffer_size);
}

bool field_to_string(const struct record_reader *reader, struct text_slice field,
                     const char *what, char **out, struct diag *d)
{
    char *text = xmalloc(field.size + 1);
    size_t used = 0;
    for (size_t i = 0; i < field.size; i++) {
        char c = field.data[i];
        if (c != '\\') {
            text[used++] = c;
            continue;
        }
        if (i + 1 == field.size) {
            free(text);
            return record_fail(reader, d, "%s ends with a lone backslash", what);
        }
        char escaped = field.data[++i];
        if (escaped == '\\') {
            text[used++] = '\\';
        } else if (escaped == 't') {
            text[used++] = '\t';
        } else if (escaped == 'n') {
            text[used++] = '\n';
        } else {
            char shown[16];
            free(text);
            return record_fail(reader, d, "bad escape '\\%s' in %s (only \\\\, \\t and \\n)",
                               quote_for_message(&escaped, 1, shown, sizeof shown), what);
        }
    }
    text[used] = '\0';
    *out = text;
    return true;
}

bool field_to_u64(const struct record_reader *reader, struct text_slice field,
                  const char *what, unsigned long long max, unsigned long long *out,
                  struct diag *d)
{
    char shown[128];
    if (field.size == 0)
        return record_fail(reader, d, "empty %s (expected a decimal number)", what);
    unsigned long long value = 0;
    for (size_t i = 0; i < field.size; i++) {
        char c = field.data[i];
        if (c < '0' || c > '9')
            return record_fail(reader, d, "bad number '%s' for %s",
                               slice_for_message(field, shown, sizeof shown), what);
        unsigned digit = (unsigned) (c - '0');
        if (digit > max || value > (max - digit) / 10)
            return record_fail(reader, d, "%s '%s' too large (at most %llu)", what,
                               slice_for_message(field, shown, sizeof shown), max);
        value = value * 10 + digit;
    }
    *out = value;
    return true;
}

bool field_to_unsigned(const struct record_reader *reader, struct text_slice field,
                       const char *what, unsigned *out, struct diag *d)
{
    unsigned long long value;
    if (!field_to_u64(reader, field, what, UINT_MAX, &value, d))
        return false;
    *out = (unsigned) value;
    return true;
}

bool field_to_signature(const struct record_reader *reader, struct text_slice field,
                        char **out, struct diag *d)
{
    bool valid = field.size == UNIT_SIGNATURE_LENGTH;
    for (size_t i = 0; valid && i < field.size; i++) {
        char c = field.data[i];
        valid = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }
    if (!valid) {
        char shown[128];
        return record_fail(reader, d, "bad unit signature '%s' (expected %d lowercase hex digits)",
                           slice_for_message(field, shown, sizeof shown), UNIT_SIGNATURE_LENGTH);
    }
    *out = xmemdup0(field.data, field.size);
    return true;
}

static bool starts_with(const char *data, size_t size, const char *prefix)
{
    size_t length = strlen(prefix);
    return size >= length && memcmp(data, prefix, length) == 0;
}

enum file_kind guess_file_kind(const char *data, size_t size)
{
    if (starts_with(data, size, "\177ELF"))
        return FILE_ELF;
    if (starts_with(data, size, "sampler-report\t"))
        return FILE_REPORT;
    if (starts_with(data, size, "sampler-aggregate\t"))
        return FILE_AGGREGATE;
    if (starts_with(data, size, "unit\t"))
        return FILE_SITE_TABLE;
    if (starts_with(data, size, "success\t") || starts_with(data, size, "failure\t"))
        return FILE_LABELS;
    return FILE_UNKNOWN;
}

const char *file_kind_hint(enum file_kind kind)
{
    switch (kind) {
    case FILE_ELF:
        return " (it looks like an ELF file: pass programs, libraries and objects with --binary)";
    case FILE_REPORT:
        return " (it looks like a report)";
    case FILE_AGGREGATE:
        return " (it looks like an aggregate: give it to merge, rank or export)";
    case FILE_SITE_TABLE:
        return " (it looks like a site table: pass it with --sites)";
    case FILE_LABELS:
        return " (it looks like a label file: pass it with --labels)";
    case FILE_UNKNOWN:
        break;
    }
    return "";
}
