/* The output formats, and writing text for people and machines in them:
   aligned text tables, CSV fields (RFC 4180), JSON strings and HTML.  */
#ifndef SAMPLER_REPORT_FORMATS_H
#define SAMPLER_REPORT_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "support/util.h"

/* What a command's --format chooses, and a set of them.  */
enum output_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSONL, FORMAT_HTML, N_OUTPUT_FORMATS };
#define FORMAT_SET(format) (1u << (format))
#define FORMAT_SET_ALL (FORMAT_SET(N_OUTPUT_FORMATS) - 1)

/* Its name on the command line: "text", "csv", "jsonl", "html".  */
const char *output_format_name(enum output_format format);

/* Appends TEXT with control characters made visible (\\n, \\t, \\xNN), so
   one row stays one line.  */
void append_visible(struct byte_buffer *buffer, const char *text);
void append_text(struct byte_buffer *buffer, const char *text);

/* Characters, not bytes: UTF-8 continuation bytes do not count.  */
size_t display_width(const char *text);

/* A table whose columns are aligned to their widest cell, two spaces apart;
   the last column is not padded.  */
struct text_table {
    size_t n_columns;
    const char *const *titles;
    struct byte_buffer *cells;   /* row after row */
    size_t n_rows;
    size_t capacity;             /* rows */
};

void text_table_init(struct text_table *table, size_t n_columns, const char *const *titles);
/* The new row's N_COLUMNS cells, empty, to append to.  */
struct byte_buffer *text_table_add_row(struct text_table *table);
void text_table_write(struct text_table *table, FILE *out);
void text_table_free(struct text_table *table);

/* One CSV field, quoted when it holds a comma, quote or line break; then a
   comma, or a newline when LAST.  */
void csv_field(FILE *out, const char *text, bool last);

/* A JSON string; bytes that are not UTF-8 become U+FFFD.  */
void json_string(FILE *out, const char *text);
/* ,"KEY": (no comma when FIRST).  */
void json_key(FILE *out, const char *key, bool first);
void json_string_or_null(FILE *out, const char *text);
struct site;
/* ,"symbol":"..." where the table gives SITE's function a symbol apart
   from its name (C++); nothing for C.  */
void json_symbol(FILE *out, const struct site *site);

/* TEXT as HTML character data or attribute value: markup characters as
   entities, control characters as visible symbols.  */
void html_text(FILE *out, const char *text);

/* SITE's function's name; where the table gives a symbol apart from it
   (C++), the name in a span whose title, shown on hover, is the symbol.  */
void html_function(FILE *out, const struct site *site);

/* The start of a self-contained page, up to and including <body>: TITLE
   (escaped), a common style (body, tables, td.n for numbers) and STYLE,
   rules of the page's own.  */
void html_page_start(FILE *out, const char *title, const char *style);

/* TEXT as a string field of the report and site-table formats: backslash,
   TAB and newline written as two characters each.  */
void write_escaped(FILE *out, const char *text);

/* Items pages and listings show by default (paths' --functions, values'
   --max-sites, rank's elimination steps on its page): enough to read,
   few enough that the page of a large program opens.  */
#define DEFAULT_SHOWN_LIMIT 50

#endif
