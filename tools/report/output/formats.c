#include "output/formats.h"

#include "input/site-table.h"

#include <stdlib.h>
#include <string.h>

const char *output_format_name(enum output_format format)
{
    static const char *const names[N_OUTPUT_FORMATS] = {
        [FORMAT_TEXT] = "text", [FORMAT_CSV] = "csv", [FORMAT_JSONL] = "jsonl",
        [FORMAT_HTML] = "html",
    };
    return names[format];
}

/* TEXT with control characters made visible, so one row stays one line.  */
void append_visible(struct byte_buffer *buffer, const char *text)
{
    for (const unsigned char *p = (const unsigned char *) text; *p; p++) {
        char escaped[8];
        if (*p == '\n')
            buffer_append(buffer, "\\n", 2);
        else if (*p == '\t')
            buffer_append(buffer, "\\t", 2);
        else if (*p < 0x20 || *p == 0x7f)
            buffer_append(buffer, escaped, (size_t) snprintf(escaped, sizeof escaped,
                                                             "\\x%02x", *p));
        else
            buffer_append(buffer, p, 1);
    }
}

void append_text(struct byte_buffer *buffer, const char *text)
{
    buffer_append(buffer, text, strlen(text));
}

/* Columns are aligned by characters, so UTF-8 continuation bytes do not
   count.  */
size_t display_width(const char *text)
{
    size_t width = 0;
    for (const unsigned char *p = (const unsigned char *) text; *p; p++)
        width += (*p & 0xc0) != 0x80;
    return width;
}


void text_table_init(struct text_table *table, size_t n_columns, const char *const *titles)
{
    memset(table, 0, sizeof *table);
    table->n_columns = n_columns;
    table->titles = titles;
}

struct byte_buffer *text_table_add_row(struct text_table *table)
{
    void *items = table->cells;
    size_t capacity = table->capacity * table->n_columns;
    grow_array(&items, &capacity, (table->n_rows + 1) * table->n_columns, sizeof *table->cells);
    table->cells = items;
    table->capacity = capacity / table->n_columns;
    struct byte_buffer *row = table->cells + table->n_rows * table->n_columns;
    memset(row, 0, table->n_columns * sizeof *row);
    for (size_t column = 0; column < table->n_columns; column++)
        buffer_append(&row[column], "", 0);   /* an empty cell still has its NUL */
    table->n_rows++;
    return row;
}

void text_table_write(struct text_table *table, FILE *out)
{
    size_t *widths = xcalloc(table->n_columns, sizeof *widths);
    for (size_t column = 0; column < table->n_columns; column++)
        widths[column] = display_width(table->titles[column]);
    for (size_t i = 0; i < table->n_rows * table->n_columns; i++) {
        size_t width = display_width(table->cells[i].data);
        if (width > widths[i % table->n_columns])
            widths[i % table->n_columns] = width;
    }
    for (size_t row = 0; row <= table->n_rows; row++) {
        for (size_t column = 0; column < table->n_columns; column++) {
            const char *cell = row == 0 ? table->titles[column]
                                        : table->cells[(row - 1) * table->n_columns + column].data;
            fputs(cell, out);
            if (column + 1 < table->n_columns) {
                for (size_t pad = display_width(cell); pad < widths[column] + 2; pad++)
                    fputc(' ', out);
            }
        }
        fputc('\n', out);
    }
    free(widths);
}

void text_table_free(struct text_table *table)
{
    for (size_t i = 0; i < table->n_rows * table->n_columns; i++)
        buffer_free(&table->cells[i]);
    free(table->cells);
    memset(table, 0, sizeof *table);
}

/* RFC 4180: quote a field holding a comma, quote or line break, doubling
   its quotes.  */
void csv_field(FILE *out, const char *text, bool last)
{
    if (strpbrk(text, ",\"\r\n")) {
        fputc('"', out);
        for (const char *p = text; *p; p++) {
            if (*p == '"')
                fputc('"', out);
            fputc(*p, out);
        }
        fputc('"', out);
    } else {
        fputs(text, out);
    }
    fputc(last ? '\n' : ',', out);
}

/* Length of the valid UTF-8 sequence at P (of at most AVAILABLE bytes), or
   0 if it is not one: no overlong forms, surrogates or values past
   U+10FFFF.  */
static size_t utf8_sequence_length(const unsigned char *p, size_t available)
{
    size_t length;
    unsigned min_second = 0x80, max_second = 0xbf;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        length = 2;
    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        length = 3;
        if (p[0] == 0xe0)
            min_second = 0xa0;
        else if (p[0] == 0xed)
            max_second = 0x9f;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        length = 4;
        if (p[0] == 0xf0)
            min_second = 0x90;
        else if (p[0] == 0xf4)
            max_second = 0x8f;
    } else {
        return 0;
    }
    if (length > available || p[1] < min_second || p[1] > max_second)
        return 0;
    for (size_t i = 2; i < length; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    }
    return length;
}

/* A JSON string; bytes that are not UTF-8 become U+FFFD, since JSON text
   must be Unicode.  */
void json_string(FILE *out, const char *text)
{
    const unsigned char *p = (const unsigned char *) text;
    size_t remaining = strlen(text);
    fputc('"', out);
    while (remaining > 0) {
        size_t length = utf8_sequence_length(p, remaining);
        if (length == 0) {
            fputs("\\ufffd", out);
            length = 1;
        } else if (*p == '"' || *p == '\\') {
            fputc('\\', out);
            fputc(*p, out);
        } else if (*p == '\n') {
            fputs("\\n", out);
        } else if (*p == '\t') {
            fputs("\\t", out);
        } else if (*p == '\r') {
            fputs("\\r", out);
        } else if (*p < 0x20) {
            fprintf(out, "\\u%04x", *p);
        } else {
            fwrite(p, 1, length, out);
        }
        p += length;
        remaining -= length;
    }
    fputc('"', out);
}

void json_key(FILE *out, const char *key, bool first)
{
    if (!first)
        fputc(',', out);
    json_string(out, key);
    fputc(':', out);
}

void json_string_or_null(FILE *out, const char *text)
{
    if (text)
        json_string(out, text);
    else
        fputs("null", out);
}


void write_escaped(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '\\')
            fputs("\\\\", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p == '\n')
            fputs("\\n", out);
        else
            fputc(*p, out);
    }
}

void html_text(FILE *out, const char *text)
{
    for (const unsigned char *p = (const unsigned char *) text; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\t': fputs("    ", out); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(out, "&#x%x;", 0x2400 + (*p == 0x7f ? 0x21 : *p));
            else
                fputc(*p, out);
        }
    }
}

void json_symbol(FILE *out, const struct site *site)
{
    if (site->symbol) {
        json_key(out, "symbol", false);
        json_string(out, site->symbol);
    }
}

void html_function(FILE *out, const struct site *site)
{
    if (!site->symbol) {
        html_text(out, site->function);
        return;
    }
    fputs("<span title=\"", out);
    html_text(out, site->symbol);
    fputs("\">", out);
    html_text(out, site->function);
    fputs("</span>", out);
}

void html_page_start(FILE *out, const char *title, const char *style)
{
    fputs("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>\n<title>", out);
    html_text(out, title);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:2em;color:#222}\n"
          "table{border-collapse:collapse;margin-bottom:1.5em}\n"
          "td,th{text-align:left;vertical-align:top}\n"
          "td.n{text-align:right;font-variant-numeric:tabular-nums}\n", out);
    fputs(style, out);
    fputs("</style></head><body>\n", out);
}
