/* The ranking as text (two tables: the elimination, then the ranking
   before it) and as CSV or JSON lines (one row per predicate).  */
#include "output/ranking.h"

#include <stdio.h>
#include <string.h>

#include "output/formats.h"
#include "schemes/registry.h"
#include "statistics/predicates.h"
#include "support/util.h"

static const char *interval_name(enum increase_interval interval)
{
    return interval == INTERVAL_NORMAL ? "normal approximation" : "Wilson score, Newcombe";
}


static void format_fixed(char *text, size_t size, double value)
{
    snprintf(text, size, "%.3f", value);
}

static void location_text(const struct predicate_name *name, struct byte_buffer *cell)
{
    char line[32];
    append_visible(cell, name->site->file);
    snprintf(line, sizeof line, ":%u", name->site->line);
    append_text(cell, line);
}

static void predicate_text(const struct predicate_name *name, struct byte_buffer *out)
{
    site_predicate_text(name->site, name->k, out);
}

enum { T_POSITION, T_IMPORTANCE, T_INCREASE, T_BOUND, T_F, T_S, T_F_OBSERVED, T_S_OBSERVED,
       T_LOCATION, T_FUNCTION, T_PREDICATE, N_TEXT_COLUMNS };

static void text_table_of(FILE *out, const struct ranking *ranking,
                          const struct ranked_predicate *rows, size_t n_rows, bool steps)
{
    const char *titles[N_TEXT_COLUMNS] = {
        steps ? "STEP" : "RANK", "IMPORTANCE(LOW)", "INCREASE", "INCREASE-LOW", "F", "S", "F-OBS",
        "S-OBS",
        "LOCATION", "FUNCTION", "PREDICATE",
    };
    struct text_table table;
    text_table_init(&table, N_TEXT_COLUMNS, titles);
    for (size_t i = 0; i < n_rows; i++) {
        const struct ranked_predicate *row = &rows[i];
        struct byte_buffer *cells = text_table_add_row(&table);
        struct predicate_name name;
        char number[64];
        universe_name(ranking->universe, row->predicate, &name);
        snprintf(number, sizeof number, "%zu", i + 1);
        append_text(&cells[T_POSITION], number);
        format_fixed(number, sizeof number, row->score.importance);
        append_text(&cells[T_IMPORTANCE], number);
        format_fixed(number, sizeof number, row->score.increase);
        append_text(&cells[T_INCREASE], number);
        format_fixed(number, sizeof number, row->score.increase_bound);
        append_text(&cells[T_BOUND], number);
        snprintf(number, sizeof number, "%lu", row->counts.failing_true);
        append_text(&cells[T_F], number);
        snprintf(number, sizeof number, "%lu", row->counts.successful_true);
        append_text(&cells[T_S], number);
        snprintf(number, sizeof number, "%lu", row->counts.failing_observed);
        append_text(&cells[T_F_OBSERVED], number);
        snprintf(number, sizeof number, "%lu", row->counts.successful_observed);
        append_text(&cells[T_S_OBSERVED], number);
        location_text(&name, &cells[T_LOCATION]);
        append_visible(&cells[T_FUNCTION], name.site->function);
        struct byte_buffer text = { 0 };
        predicate_text(&name, &text);
        append_visible(&cells[T_PREDICATE], text.data);
        buffer_free(&text);
    }
    text_table_write(&table, out);
    text_table_free(&table);
}

void write_ranking_text(FILE *out, const struct ranking *ranking)
{
    unsigned long n_successful = ranking->n_runs - ranking->n_failing;
    fprintf(out, "runs        %lu: %lu failing, %lu successful (failure: %s)\n", ranking->n_runs,
            ranking->n_failing, n_successful, ranking->failure_rule);
    if (ranking->default_failure_rule)
        fputs("            (the default rule: any signal or non-zero exit status is a failure;\n"
              "            --fail-if=signal counts crashes only)\n", out);
    fprintf(out, "predicates  %zu at %zu sites; %zu kept: INCREASE-LOW above 0 and true in at "
            "least %lu failing run%s\n",
            ranking->universe->n_predicates, ranking->universe->n_sites, ranking->n_kept,
            ranking->min_failing, ranking->min_failing == 1 ? "" : "s");
    fprintf(out, "scores      INCREASE-LOW: %g%% lower confidence bound of INCREASE (%s);\n"
            "            IMPORTANCE(LOW): harmonic mean of INCREASE-LOW and log F / log NumF\n"
            "            (NumF: failing runs in play, %lu before elimination)\n",
            ranking->confidence * 100, interval_name(ranking->interval), ranking->n_failing);
    fputs("\nElimination (each step: the best predicate, then again without the runs where it "
          "is true;\nF and S: the failing and successful runs it drops):\n", out);
    if (ranking->n_steps)
        text_table_of(out, ranking, ranking->steps, ranking->n_steps, true);
    else
        fputs("no predicate predicts failure\n", out);
    if (ranking->n_failing == 0)
        fputs("no failing runs to explain\n", out);
    else if (ranking->n_unexplained == 0)
        fprintf(out, "all %lu failing runs explained\n", ranking->n_failing);
    else if (ranking->step_limit_reached)
        fprintf(out, "%lu of %lu failing runs explained; elimination stopped at --steps=%zu "
                "with %lu failing runs left\n",
                ranking->n_failing - ranking->n_unexplained, ranking->n_failing,
                ranking->n_steps, ranking->n_unexplained);
    else
        fprintf(out, "%lu of %lu failing runs explained; %lu explained by no predicate\n",
                ranking->n_failing - ranking->n_unexplained, ranking->n_failing,
                ranking->n_unexplained);
    fprintf(out, "\nRanking before elimination (%zu of %zu; F, S: runs where true; F-OBS, S-OBS: "
            "where observed):\n", ranking->n_top, ranking->n_kept);
    if (ranking->n_top)
        text_table_of(out, ranking, ranking->top, ranking->n_top, false);
    else
        fputs("no predicate predicts failure\n", out);
}

/* Enough digits to read the same double back.  */
static void format_exact(char *text, size_t size, double value)
{
    snprintf(text, size, "%.17g", value);
}

static const char *const csv_columns[] = {
    "list", "position", "unit", "site", "predicate_index", "file", "line", "column", "function",
    "scheme", "predicate", "importance_from_lower_bound", "increase", "increase_lower_bound",
    "failure", "context",
    "f", "s", "f_observed", "s_observed", "num_failing",
};
enum { N_CSV_COLUMNS = sizeof csv_columns / sizeof csv_columns[0] };

/* The row's fields as text, in csv_columns order, into FIELDS (owned by
   STORAGE).  */
static void row_fields(const struct ranking *ranking, const struct ranked_predicate *row,
                       const char *list, size_t position, char storage[][64],
                       struct byte_buffer *predicate, const char *fields[N_CSV_COLUMNS])
{
    struct predicate_name name;
    universe_name(ranking->universe, row->predicate, &name);
    predicate->size = 0;
    predicate_text(&name, predicate);
    fields[0] = list;
    snprintf(storage[1], 64, "%zu", position);
    fields[2] = name.unit->signature;
    snprintf(storage[3], 64, "%u", name.site->index);
    snprintf(storage[4], 64, "%u", name.k);
    fields[5] = name.site->file;
    snprintf(storage[6], 64, "%u", name.site->line);
    snprintf(storage[7], 64, "%u", name.site->column);
    fields[8] = name.site->function;
    fields[9] = scheme_name(name.site->scheme);
    fields[10] = predicate->data;
    format_exact(storage[11], 64, row->score.importance);
    format_exact(storage[12], 64, row->score.increase);
    format_exact(storage[13], 64, row->score.increase_bound);
    format_exact(storage[14], 64, row->score.failure);
    format_exact(storage[15], 64, row->score.context);
    snprintf(storage[16], 64, "%lu", row->counts.failing_true);
    snprintf(storage[17], 64, "%lu", row->counts.successful_true);
    snprintf(storage[18], 64, "%lu", row->counts.failing_observed);
    snprintf(storage[19], 64, "%lu", row->counts.successful_observed);
    snprintf(storage[20], 64, "%lu", row->failing_in_play);
    for (int i = 0; i < N_CSV_COLUMNS; i++) {
        if (i != 0 && i != 2 && i != 5 && i != 8 && i != 9 && i != 10)
            fields[i] = storage[i];
    }
}

/* Which fields are numbers, for JSON.  */
static bool column_is_number(int column)
{
    return column == 1 || column == 3 || column == 4 || column == 6 || column == 7
           || column >= 11;
}

/* SYMBOLS: the csv has a last column, the function's symbol (C++); a JSON
   row has a `symbol' where it differs from the function.  */
static void write_rows(FILE *out, const struct ranking *ranking, bool csv, bool symbols,
                       const char *list, const struct ranked_predicate *rows, size_t n_rows)
{
    char storage[N_CSV_COLUMNS][64];
    const char *fields[N_CSV_COLUMNS];
    struct byte_buffer predicate = { 0 };
    for (size_t i = 0; i < n_rows; i++) {
        row_fields(ranking, &rows[i], list, i + 1, storage, &predicate, fields);
        struct predicate_name name;
        universe_name(ranking->universe, rows[i].predicate, &name);
        if (!csv)
            fputc('{', out);
        for (int c = 0; c < N_CSV_COLUMNS; c++) {
            if (csv) {
                csv_field(out, fields[c], c == N_CSV_COLUMNS - 1 && !symbols);
                continue;
            }
            json_key(out, csv_columns[c], c == 0);
            if (column_is_number(c))
                fputs(fields[c], out);
            else
                json_string(out, fields[c]);
        }
        if (csv && symbols)
            csv_field(out, site_symbol(name.site), true);
        if (!csv)
            json_symbol(out, name.site);
        if (!csv)
            fputs("}\n", out);
    }
    buffer_free(&predicate);
}

void write_ranking_rows(FILE *out, const struct ranking *ranking, bool csv)
{
    bool symbols = csv && site_catalog_has_symbols(ranking->universe->catalog);
    if (csv) {
        for (int c = 0; c < N_CSV_COLUMNS; c++)
            csv_field(out, csv_columns[c], c == N_CSV_COLUMNS - 1 && !symbols);
        if (symbols)
            csv_field(out, "symbol", true);
    } else {
        fputc('{', out);
        json_key(out, "runs", true);
        fprintf(out, "%lu", ranking->n_runs);
        json_key(out, "failing", false);
        fprintf(out, "%lu", ranking->n_failing);
        json_key(out, "failure", false);
        json_string(out, ranking->failure_rule);
        json_key(out, "default_failure_rule", false);
        fputs(ranking->default_failure_rule ? "true" : "false", out);
        json_key(out, "confidence", false);
        fprintf(out, "%.17g", ranking->confidence);
        json_key(out, "interval", false);
        json_string(out, ranking->interval == INTERVAL_NORMAL ? "normal" : "wilson");
        json_key(out, "min_failing", false);
        fprintf(out, "%lu", ranking->min_failing);
        json_key(out, "sites", false);
        fprintf(out, "%zu", ranking->universe->n_sites);
        json_key(out, "predicates", false);
        fprintf(out, "%zu", ranking->universe->n_predicates);
        json_key(out, "kept", false);
        fprintf(out, "%zu", ranking->n_kept);
        json_key(out, "unexplained", false);
        fprintf(out, "%lu", ranking->n_unexplained);
        json_key(out, "step_limit_reached", false);
        fputs(ranking->step_limit_reached ? "true}\n" : "false}\n", out);
    }
    write_rows(out, ranking, csv, symbols, "elimination", ranking->steps, ranking->n_steps);
    write_rows(out, ranking, csv, symbols, "ranking", ranking->top, ranking->n_top);
}

