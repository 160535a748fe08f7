/* show's rows (site-rows.h): each observed site with its location, scheme,
   predicate, rate, estimated visits and counters, in the order its scheme
   shows them.  */
#include "output/site-rows.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/formats.h"
#include "schemes/registry.h"

/* ---- Counter values ---------------------------------------------------- */

enum value_state {
    VALUE_NUMBER,        /* text holds a number, valid in JSON and CSV */
    VALUE_ABSENT,        /* a bounds min/max with no observation */
    VALUE_NOT_FINITE,    /* nan or an infinity: text holds it, JSON has no such number */
};

struct counter_value {
    enum value_state state;
    char text[48];
};

static unsigned row_counter_count(const struct site_row *row)
{
    return row->site ? row->site->n_counters : row->n_values;
}

static unsigned long long row_raw_value(const struct site_row *row, unsigned counter)
{
    return row->values && counter < row->n_values ? row->values[counter] : 0;
}

/* The counter shown at POSITION: its scheme says (branches show true
   before false); else table order.  */
static unsigned row_counter_at(const struct site_row *row, unsigned position)
{
    const struct site *site = row->site;
    if (site && scheme_infos[site->scheme].report->counter_at)
        return scheme_infos[site->scheme].report->counter_at(site, position);
    return position;
}

static void counter_name(const struct site_row *row, unsigned counter, char *buffer,
                         size_t size, const char **name)
{
    if (row->site) {
        *name = row->site->counter_names[counter];
    } else {
        snprintf(buffer, size, "c%u", counter);
        *name = buffer;
    }
}

/* Shortest text that reads back as the same double.  */
static void format_double(double value, char *text, size_t size)
{
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(text, size, "%.*g", precision, value);
        if (strtod(text, NULL) == value)
            return;
    }
}

static void decode_bound(uint64_t bits, enum bound_kind kind, struct counter_value *value)
{
    value->state = VALUE_NUMBER;
    switch (kind) {
    case BOUND_SIGNED: {
        int64_t signed_value;
        memcpy(&signed_value, &bits, sizeof signed_value);
        snprintf(value->text, sizeof value->text, "%lld", (long long) signed_value);
        break;
    }
    case BOUND_DOUBLE: {
        double real;
        memcpy(&real, &bits, sizeof real);
        if (isnan(real)) {
            value->state = VALUE_NOT_FINITE;
            snprintf(value->text, sizeof value->text, "nan");
        } else if (isinf(real)) {
            value->state = VALUE_NOT_FINITE;
            snprintf(value->text, sizeof value->text, "%s", real < 0 ? "-inf" : "inf");
        } else {
            format_double(real, value->text, sizeof value->text);
        }
        break;
    }
    case BOUND_UNSIGNED:
    case BOUND_NONE:
        snprintf(value->text, sizeof value->text, "%llu", (unsigned long long) bits);
        break;
    }
}

static void counter_value(const struct site_row *row, unsigned counter,
                          struct counter_value *value)
{
    const struct site *site = row->site;
    unsigned long long raw = row_raw_value(row, counter);
    if (site && site_counter_is_value(site, counter)) {
        /* A site that saw nothing has no values yet.  */
        if (!site_observed(site, row->values)) {
            value->state = VALUE_ABSENT;
            value->text[0] = '\0';
            return;
        }
        decode_bound(raw, site->bound_kind, value);
        return;
    }
    value->state = VALUE_NUMBER;
    snprintf(value->text, sizeof value->text, "%llu", raw);
}

/* ---- Rates and estimates ----------------------------------------------- */

/* The probability that a visit of the row's site was sampled in REPORT's
   run; -1 when the site table is unknown.  */
static double row_rate(const struct run_report *report, const struct site_row *row)
{
    if (!row->site)
        return -1;
    return site_rate(report->sparsity, report->countdown_unit, row->site->weight);
}

/* An estimate: whole numbers in full, others as format_double.  */
static void format_estimate(double value, char *text, size_t size)
{
    if (value == floor(value) && fabs(value) < 9007199254740992.0)
        snprintf(text, size, "%.0f", value);
    else
        format_double(value, text, size);
}

/* Visits per sampled visit: 1 over the rate (exactly the sparsity at the
   default weight).  */
static double row_visits_per_sample(const struct run_report *report, const struct site_row *row)
{
    return site_visits_per_sample(report->sparsity, report->countdown_unit, row->site->weight);
}

/* "1/N" for the uniform rate of a run at sparsity N, "0 (off)" for a site
   left uninstrumented, else the rate in short.  */
static void rate_text(const struct run_report *report, const struct site_row *row, char *text,
                      size_t size)
{
    double rate = row_rate(report, row);
    if (rate < 0)
        snprintf(text, size, "?");
    else if (rate == 0)
        snprintf(text, size, "0 (off)");
    else if (row->site->weight == 1 && report->countdown_unit == 1)
        snprintf(text, size, "1/%llu", report->sparsity);
    else
        snprintf(text, size, "%.3g", rate);
}

/* How many visits the row's site had, estimated: its samples over its
   rate.  False when that cannot be said (no table, rate 0).  */
static bool row_estimated_visits(const struct run_report *report, const struct site_row *row,
                                 double *visits)
{
    double rate = row_rate(report, row);
    if (rate <= 0)
        return false;
    double samples = site_samples(row->site, row->values);
    *visits = samples * row_visits_per_sample(report, row);
    return true;
}

/* Counter COUNTER's count over the rate, when it is a count of the
   row's sampled visits (not a value, not a hot-list's bookkeeping).  */
static bool counter_estimate(const struct run_report *report, const struct site_row *row,
                             unsigned counter, double *estimate)
{
    double rate = row_rate(report, row);
    if (rate <= 0 || !site_counter_counts_visits(row->site, counter))
        return false;
    *estimate = (double) row_raw_value(row, counter) * row_visits_per_sample(report, row);
    return true;
}

/* ---- Text ---------------------------------------------------------------- */

enum { COLUMN_LOCATION, COLUMN_FUNCTION, COLUMN_SCHEME, COLUMN_PREDICATE, COLUMN_RATE,
       COLUMN_VISITS, COLUMN_COUNTS, N_COLUMNS };

/* RATE: the chance that a visit was sampled; VISITS: the site's visits
   estimated, its samples over its rate.  */
static const char *const column_titles[N_COLUMNS] = {
    "LOCATION", "FUNCTION", "SCHEME", "PREDICATE", "RATE", "VISITS", "COUNTS",
};

static void text_counts(const struct site_row *row, struct byte_buffer *cell)
{
    unsigned n_counters = row_counter_count(row);
    for (unsigned position = 0; position < n_counters; position++) {
        unsigned counter = row_counter_at(row, position);
        char generated[16];
        const char *name;
        struct counter_value value;
        counter_name(row, counter, generated, sizeof generated, &name);
        counter_value(row, counter, &value);
        /* "[<] 1  [==] 0  [>] 0": a counter named "<" or "==" next to
           an "=" would read as "<=" or "===".  */
        if (position)
            append_text(cell, "  ");
        append_text(cell, "[");
        append_visible(cell, name);
        append_text(cell, "] ");
        append_text(cell, value.state == VALUE_ABSENT ? "-" : value.text);
    }
}

static void text_cells(const struct run_report *report, const struct site_row *row,
                       struct byte_buffer cells[N_COLUMNS])
{
    char number[64];
    double visits;
    rate_text(report, row, number, sizeof number);
    append_text(&cells[COLUMN_RATE], number);
    if (row_estimated_visits(report, row, &visits))
        snprintf(number, sizeof number, "%.0f", visits);
    else
        snprintf(number, sizeof number, "-");
    append_text(&cells[COLUMN_VISITS], number);
    const struct site *site = row->site;
    if (site) {
        append_visible(&cells[COLUMN_LOCATION], site->file);
        snprintf(number, sizeof number, ":%u", site->line);
        append_text(&cells[COLUMN_LOCATION], number);
        append_visible(&cells[COLUMN_FUNCTION], site->function);
        append_text(&cells[COLUMN_SCHEME], scheme_name(site->scheme));
        append_visible(&cells[COLUMN_PREDICATE], site->predicate);
    } else {
        append_visible(&cells[COLUMN_LOCATION], row->unit->source);
        append_text(&cells[COLUMN_LOCATION], ":?");
        append_text(&cells[COLUMN_FUNCTION], "?");
        append_text(&cells[COLUMN_SCHEME], "unknown");
        snprintf(number, sizeof number, "site %u (no site table)", row->site_index);
        append_text(&cells[COLUMN_PREDICATE], number);
    }
    text_counts(row, &cells[COLUMN_COUNTS]);
}

/* The records of docs/remote.md, where the report has them.  */
static void write_text_release(FILE *out, const struct run_report *report)
{
    if (report->run_id[0] != '\0')
        fprintf(out, "run id    %s\n", report->run_id);
    if (report->product != NULL) {
        struct byte_buffer release = { 0 };
        append_visible(&release, report->product);
        append_text(&release, " ");
        append_visible(&release, report->version);
        buffer_append(&release, "", 0);
        fprintf(out, "release   %s\n", release.data);
        buffer_free(&release);
    }
    if (report->withheld != NULL)
        fprintf(out, "withheld  %s: kept on the machine, not in this field report\n",
                report->withheld);
    if (report->dropped > 0)
        fprintf(out, "dropped   %llu earlier reports, to keep the store's bound\n",
                report->dropped);
}

static void write_text_header(FILE *out, const struct run_report *report)
{
    struct byte_buffer program = { 0 };
    append_visible(&program, report->program);
    buffer_append(&program, "", 0);
    fprintf(out, "program   %s\n", program.data);
    fprintf(out, "pid       %llu\n", report->pid);
    fprintf(out, "sparsity  %llu\n", report->sparsity);
    if (report->countdown_unit != 1)
        fprintf(out, "unit      %llu countdown units per visit of default weight\n",
                report->countdown_unit);
    fprintf(out, "seed      %llu\n", report->seed);
    write_text_release(out, report);
    if (report->parent > 0)
        fprintf(out, "parent    %llu: this process was forked from it\n", report->parent);
    if (report->resets > 0)
        fprintf(out, "resets    %llu\n", report->resets);
    if (report->interim > 0)
        fprintf(out, "exit      none: interim report %llu, written while the run went on\n",
                report->interim);
    else if (report->exit_kind == EXIT_NOT_YET)
        fputs("exit      none: written on demand, before the run ended\n", out);
    else if (report->exit_kind == EXIT_BY_EXEC)
        fputs("exit      exec: the process went on as another program\n", out);
    else
        fprintf(out, "exit      %s %u\n", exit_kind_name(report->exit_kind), report->exit_code);
    buffer_free(&program);
}

static void write_text(FILE *out, const struct run_report *report,
                       const struct site_row *rows, size_t n_rows)
{
    write_text_header(out, report);
    fputc('\n', out);
    if (n_rows == 0) {
        fputs("no sites observed\n", out);
        return;
    }
    struct text_table table;
    text_table_init(&table, N_COLUMNS, column_titles);
    for (size_t i = 0; i < n_rows; i++) {
        struct byte_buffer *cells = text_table_add_row(&table);
        text_cells(report, &rows[i], cells);
    }
    text_table_write(&table, out);
    text_table_free(&table);
}

/* ---- CSV ------------------------------------------------------------------ */

/* SYMBOLS: a last column, the function's symbol (C++ tables have it).  */
static void write_csv(FILE *out, const struct run_report *report, const struct site_row *rows,
                      size_t n_rows, bool symbols)
{
    for (size_t i = 0; i < n_rows; i++) {
        const struct site_row *row = &rows[i];
        const struct site *site = row->site;
        char site_index[16], line[16], column[16];
        snprintf(site_index, sizeof site_index, "%u", row->site_index);
        snprintf(line, sizeof line, "%u", site ? site->line : 0);
        snprintf(column, sizeof column, "%u", site ? site->column : 0);
        unsigned n_counters = row_counter_count(row);
        for (unsigned position = 0; position < n_counters; position++) {
            unsigned counter = row_counter_at(row, position);
            char generated[16];
            const char *name;
            struct counter_value value;
            counter_name(row, counter, generated, sizeof generated, &name);
            counter_value(row, counter, &value);
            csv_field(out, row->unit->signature, false);
            csv_field(out, site_index, false);
            csv_field(out, site ? site->file : "", false);
            csv_field(out, site ? line : "", false);
            csv_field(out, site ? column : "", false);
            csv_field(out, site ? site->function : "", false);
            csv_field(out, site ? scheme_name(site->scheme) : "unknown", false);
            csv_field(out, site ? site->predicate : "", false);
            csv_field(out, name, false);
            csv_field(out, value.text, false);
            char rate[48] = "", estimate[48] = "";
            double estimated;
            if (site)
                format_double(row_rate(report, row), rate, sizeof rate);
            if (site && counter_estimate(report, row, counter, &estimated))
                format_estimate(estimated, estimate, sizeof estimate);
            csv_field(out, rate, false);
            csv_field(out, estimate, !symbols);
            if (symbols)
                csv_field(out, site ? site_symbol(site) : "", true);
        }
    }
}

/* ---- JSON lines -------------------------------------------------------- */

/* The report's own line: its header's records.  */
static void write_jsonl_run(FILE *out, const struct run_report *report)
{
    fputc('{', out);
    json_key(out, "program", true);
    json_string(out, report->program);
    json_key(out, "pid", false);
    fprintf(out, "%llu", report->pid);
    json_key(out, "sparsity", false);
    fprintf(out, "%llu", report->sparsity);
    if (report->countdown_unit != 1) {
        json_key(out, "countdown_unit", false);
        fprintf(out, "%llu", report->countdown_unit);
    }
    json_key(out, "seed", false);
    fprintf(out, "%llu", report->seed);
    if (report->run_id[0] != '\0') {
        json_key(out, "run_id", false);
        json_string(out, report->run_id);
    }
    if (report->product != NULL) {
        json_key(out, "product", false);
        json_string(out, report->product);
        json_key(out, "version", false);
        json_string(out, report->version);
    }
    if (report->withheld != NULL) {
        json_key(out, "withheld", false);
        json_string(out, report->withheld);
    }
    if (report->dropped > 0) {
        json_key(out, "dropped", false);
        fprintf(out, "%llu", report->dropped);
    }
    if (report->parent > 0) {
        json_key(out, "parent", false);
        fprintf(out, "%llu", report->parent);
    }
    if (report->resets > 0) {
        json_key(out, "resets", false);
        fprintf(out, "%llu", report->resets);
    }
    if (report->interim > 0) {
        json_key(out, "interim", false);
        fprintf(out, "%llu", report->interim);
    }
    json_key(out, "exit", false);
    if (report->exit_kind == EXIT_NOT_YET) {
        fputs("null}\n", out);
    } else if (report->exit_kind == EXIT_BY_EXEC) {
        fputs("{\"exec\":true}}\n", out);
    } else {
        fputc('{', out);
        json_key(out, exit_kind_name(report->exit_kind), true);
        fprintf(out, "%u}}\n", report->exit_code);
    }
}

/* A site's line: where it is, its counts and their estimates.  */
static void write_jsonl_row(FILE *out, const struct run_report *report,
                            const struct site_row *row)
{
    const struct site *site = row->site;
    fputc('{', out);
    json_key(out, "unit", true);
    json_string(out, row->unit->signature);
    json_key(out, "source", false);
    json_string(out, row->unit->source);
    json_key(out, "site", false);
    fprintf(out, "%u", row->site_index);
    json_key(out, "file", false);
    json_string_or_null(out, site ? site->file : NULL);
    json_key(out, "line", false);
    if (site)
        fprintf(out, "%u", site->line);
    else
        fputs("null", out);
    json_key(out, "column", false);
    if (site)
        fprintf(out, "%u", site->column);
    else
        fputs("null", out);
    json_key(out, "function", false);
    json_string_or_null(out, site ? site->function : NULL);
    if (site)
        json_symbol(out, site);
    json_key(out, "scheme", false);
    json_string(out, site ? scheme_name(site->scheme) : "unknown");
    json_key(out, "predicate", false);
    json_string_or_null(out, site ? site->predicate : NULL);
    json_key(out, "counts", false);
    fputc('{', out);
    unsigned n_counters = row_counter_count(row);
    for (unsigned position = 0; position < n_counters; position++) {
        unsigned counter = row_counter_at(row, position);
        char generated[16];
        const char *name;
        struct counter_value value;
        counter_name(row, counter, generated, sizeof generated, &name);
        counter_value(row, counter, &value);
        json_key(out, name, position == 0);
        fputs(value.state == VALUE_NUMBER ? value.text : "null", out);
    }
    fputc('}', out);
    if (site) {
        char number[48];
        json_key(out, "rate", false);
        format_double(row_rate(report, row), number, sizeof number);
        fputs(number, out);
        json_key(out, "estimated", false);
        fputc('{', out);
        bool first = true;
        for (unsigned position = 0; position < n_counters; position++) {
            unsigned counter = row_counter_at(row, position);
            char generated[16];
            const char *name;
            double estimated;
            if (!counter_estimate(report, row, counter, &estimated))
                continue;
            counter_name(row, counter, generated, sizeof generated, &name);
            json_key(out, name, first);
            first = false;
            format_estimate(estimated, number, sizeof number);
            fputs(number, out);
        }
        fputc('}', out);
    }
    fputs("}\n", out);
}

static void write_jsonl(FILE *out, const struct run_report *report,
                        const struct site_row *rows, size_t n_rows)
{
    write_jsonl_run(out, report);
    for (size_t i = 0; i < n_rows; i++)
        write_jsonl_row(out, report, &rows[i]);
}

void write_rows(FILE *out, enum output_format format, const struct run_report *report,
                const struct site_row *rows, size_t n_rows, bool first_report, bool symbols)
{
    switch (format) {
    case FORMAT_CSV:
        if (first_report)
            fprintf(out, "unit,site,file,line,column,function,scheme,predicate,counter,count,"
                    "rate,estimate%s\n", symbols ? ",symbol" : "");
        write_csv(out, report, rows, n_rows, symbols);
        break;
    case FORMAT_JSONL:
        write_jsonl(out, report, rows, n_rows);
        break;
    default:
        if (!first_report)
            fputc('\n', out);
        write_text(out, report, rows, n_rows);
    }
}
