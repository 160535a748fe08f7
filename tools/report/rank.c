/* sampler-report rank: the predicates that predict failure, by the
   statistics of Cooperative Bug Isolation (stats.h), with iterative
   elimination (isolate.h).  */
#include "rank.h"
#include "schemes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "isolate.h"
#include "predicates.h"
#include "progress.h"
#include "runs.h"
#include "textout.h"
#include "util.h"

enum rank_format { RANK_TEXT, RANK_CSV, RANK_JSONL, RANK_HTML };

struct rank_options {
    struct run_options runs;
    enum rank_format format;
    double confidence;
    enum increase_interval interval;
    size_t min_failing;
    size_t top;                     /* 0: all kept */
    const char **source_dirs;
    size_t n_source_dirs, source_dirs_capacity;
};

/* A kept predicate is true in at least DEFAULT_MIN_FAILING failing runs
   unless --min-failing says otherwise: with one or two, at sparse rates,
   coincidences of sampling abound (docs/ranking.md).  */
enum { HELP_GIVEN = -1, DEFAULT_TOP = 20, DEFAULT_MIN_FAILING = 3 };

static bool parse_confidence(const char *text, double *confidence)
{
    char *end;
    double percent = strtod(text, &end);
    if (end == text || *end || !(percent > 0 && percent < 100))
        return false;
    *confidence = percent / 100;
    return true;
}

static bool parse_count(const char *text, size_t *count)
{
    if (!*text)
        return false;
    size_t value = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9' || value > (SIZE_MAX - 9) / 10)
            return false;
        value = value * 10 + (size_t) (*p - '0');
    }
    *count = value;
    return true;
}

static int parse_rank_options(const struct command *self, int argc, char **argv,
                              struct rank_options *options)
{
    for (int i = 1; i < argc; i++) {
        const char *argument = argv[i];
        const char *value;
        if (strcmp(argument, "--help") == 0 || strcmp(argument, "-h") == 0) {
            command_print_help(stdout, self);
            return HELP_GIVEN;
        }
        int taken = run_options_take(self, &options->runs, argc, argv, &i);
        if (taken < 0)
            return EXIT_BAD_INPUT;
        if (taken)
            continue;
        if (command_option_value("--format", argc, argv, &i, &value)) {
            if (value && strcmp(value, "text") == 0)
                options->format = RANK_TEXT;
            else if (value && strcmp(value, "csv") == 0)
                options->format = RANK_CSV;
            else if (value && strcmp(value, "jsonl") == 0)
                options->format = RANK_JSONL;
            else if (value && strcmp(value, "html") == 0)
                options->format = RANK_HTML;
            else
                return command_usage_error(self, "unknown format '%s' (expected text, csv, jsonl "
                                           "or html)", value ? value : "");
        } else if (command_option_value("--confidence", argc, argv, &i, &value)) {
            if (!value || !parse_confidence(value, &options->confidence))
                return command_usage_error(self, "bad confidence '%s' (expected a percentage "
                                           "above 0 and below 100, such as 95)",
                                           value ? value : "");
        } else if (command_option_value("--interval", argc, argv, &i, &value)) {
            if (value && strcmp(value, "wilson") == 0)
                options->interval = INTERVAL_WILSON;
            else if (value && strcmp(value, "normal") == 0)
                options->interval = INTERVAL_NORMAL;
            else
                return command_usage_error(self, "unknown interval '%s' (expected wilson or "
                                           "normal)", value ? value : "");
        } else if (command_option_value("--min-failing", argc, argv, &i, &value)) {
            if (!value || !parse_count(value, &options->min_failing) || options->min_failing == 0)
                return command_usage_error(self, "bad --min-failing '%s' (expected a number of "
                                           "failing runs, 1 or more)", value ? value : "");
        } else if (command_option_value("--top", argc, argv, &i, &value)) {
            if (!value || !parse_count(value, &options->top))
                return command_usage_error(self, "bad --top '%s' (expected a number; 0 lists "
                                           "every kept predicate)", value ? value : "");
        } else if (command_option_value("--source-dir", argc, argv, &i, &value)) {
            if (!value || !*value)
                return command_usage_error(self, "option '--source-dir' needs a directory");
            void *items = options->source_dirs;
            grow_array(&items, &options->source_dirs_capacity, options->n_source_dirs + 1,
                       sizeof *options->source_dirs);
            options->source_dirs = items;
            options->source_dirs[options->n_source_dirs++] = value;
        } else {
            return command_usage_error(self, "unknown option '%s' for 'rank'", argument);
        }
    }
    if (options->runs.labels && options->runs.fail_if)
        return command_usage_error(self, "give --fail-if or --labels, not both");
    int finished = run_options_finish(self, &options->runs);
    if (finished != EXIT_FINE)
        return finished;
    if (options->runs.n_inputs == 0)
        return command_usage_error(self, "'rank' needs reports");
    return EXIT_FINE;
}

/* ---- The universe of predicates ----------------------------------------- */

void universe_init(struct universe *universe, const struct site_catalog *catalog,
                   unsigned **predicates_per_site, bool **every_run)
{
    universe->catalog = catalog;
    universe->unit_first_site = xcalloc(catalog->n_units + 1, sizeof (size_t));
    size_t n_sites = 0;
    for (size_t u = 0; u < catalog->n_units; u++) {
        universe->unit_first_site[u] = n_sites;
        n_sites += catalog->units[u]->n_sites;
    }
    universe->unit_first_site[catalog->n_units] = n_sites;
    universe->n_sites = n_sites;
    universe->site_first_predicate = xcalloc(n_sites + 1, sizeof (size_t));
    *predicates_per_site = xcalloc(n_sites, sizeof (unsigned));
    *every_run = xcalloc(n_sites, sizeof (bool));
    size_t n_predicates = 0, global = 0;
    for (size_t u = 0; u < catalog->n_units; u++) {
        const struct unit_table *unit = catalog->units[u];
        for (unsigned s = 0; s < unit->n_sites; s++, global++) {
            unsigned count = site_predicate_count(&unit->sites[s]);
            universe->site_first_predicate[global] = n_predicates;
            (*predicates_per_site)[global] = count;
            (*every_run)[global] = site_observed_in_every_run(&unit->sites[s]);
            n_predicates += count;
        }
    }
    universe->site_first_predicate[n_sites] = n_predicates;
    universe->n_predicates = n_predicates;
}

void universe_free(struct universe *universe)
{
    free(universe->unit_first_site);
    free(universe->site_first_predicate);
}

/* The last index I of the ascending OFFSETS[0..N] with OFFSETS[I] <= VALUE
   and I < N.  */
static size_t find_offset(const size_t *offsets, size_t n, size_t value)
{
    size_t low = 0, high = n;
    while (high - low > 1) {
        size_t middle = low + (high - low) / 2;
        if (offsets[middle] <= value)
            low = middle;
        else
            high = middle;
    }
    /* Skip empty entries (units without sites, sites without predicates).  */
    while (low + 1 < n && offsets[low + 1] <= value)
        low++;
    return low;
}

void universe_name(const struct universe *universe, size_t predicate,
                   struct predicate_name *name)
{
    size_t site = find_offset(universe->site_first_predicate, universe->n_sites, predicate);
    size_t unit = find_offset(universe->unit_first_site, universe->catalog->n_units, site);
    name->unit = universe->catalog->units[unit];
    name->site = &name->unit->sites[site - universe->unit_first_site[unit]];
    name->k = (unsigned) (predicate - universe->site_first_predicate[site]);
}

/* Where each predicate goes among predicates whose scores tie: by its
   scheme's tie group (branches and returns first: they read as the
   program's own conditions and calls; scalar pairs last: a comparison the
   program never made; see schemes.h), then source order: file, line,
   column, and the predicate's number.  */
static int readability(const struct site *site)
{
    return scheme_infos[site->scheme].report->tie_group;
}

struct tie_key {
    int readability;
    const char *file;
    unsigned line, column;
    size_t predicate;
};

static int compare_tie_keys(const void *a, const void *b)
{
    const struct tie_key *x = a, *y = b;
    if (x->readability != y->readability)
        return x->readability < y->readability ? -1 : 1;
    int by_file = strcmp(x->file, y->file);
    if (by_file)
        return by_file < 0 ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->column != y->column)
        return x->column < y->column ? -1 : 1;
    return (x->predicate > y->predicate) - (x->predicate < y->predicate);
}

/* Each predicate's place in tie order (isolation.tie_order).  */
uint32_t *tie_order_of(const struct universe *universe)
{
    struct tie_key *keys = xcalloc(universe->n_predicates + 1, sizeof *keys);
    size_t p = 0;
    for (size_t u = 0; u < universe->catalog->n_units; u++) {
        const struct unit_table *unit = universe->catalog->units[u];
        for (unsigned s = 0; s < unit->n_sites; s++) {
            const struct site *site = &unit->sites[s];
            unsigned count = site_predicate_count(site);
            for (unsigned k = 0; k < count; k++, p++)
                keys[p] = (struct tie_key) { readability(site), site->file, site->line,
                                             site->column, p };
        }
    }
    qsort(keys, p, sizeof *keys, compare_tie_keys);
    uint32_t *order = xcalloc(universe->n_predicates + 1, sizeof *order);
    for (size_t i = 0; i < p; i++)
        order[keys[i].predicate] = (uint32_t) i;
    free(keys);
    return order;
}

/* ---- Reading the runs ------------------------------------------------------- */

struct collector {
    const struct universe *universe;
    struct isolation *isolation;
    uint32_t *sites;
    size_t n_sites, sites_capacity;
    uint32_t *predicates;
    size_t n_predicates, predicates_capacity;
};

static void push(uint32_t **items, size_t *n, size_t *capacity, size_t value)
{
    void *block = *items;
    grow_array(&block, capacity, *n + 1, sizeof **items);
    *items = block;
    (*items)[(*n)++] = (uint32_t) value;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
    return (x > y) - (x < y);
}

static bool collect_run(void *context, const struct run_view *run, struct diag *d)
{
    struct collector *collector = context;
    const struct universe *universe = collector->universe;
    collector->n_sites = collector->n_predicates = 0;
    for (size_t u = 0; u < run->n_units; u++) {
        const struct run_unit *unit = &run->units[u];
        const struct unit_table *table = unit->totals->table;
        size_t first_site = universe->unit_first_site[unit->catalog_index];
        for (size_t i = 0; i < unit->n_sites; i++) {
            const struct site *site = &table->sites[unit->sites[i]];
            const unsigned long long *values = unit->totals->values + site->first_counter;
            if (!site_observed(site, values))
                continue;
            size_t global = first_site + site->index;
            if (!site_observed_in_every_run(site))
                push(&collector->sites, &collector->n_sites, &collector->sites_capacity, global);
            size_t first = universe->site_first_predicate[global];
            unsigned count = (unsigned) (universe->site_first_predicate[global + 1] - first);
            for (unsigned k = 0; k < count; k++) {
                if (site_predicate_true(site, values, k))
                    push(&collector->predicates, &collector->n_predicates,
                         &collector->predicates_capacity, first + k);
            }
        }
    }
    /* Units come in report order, not catalog order.  */
    if (collector->n_sites > 1)
        qsort(collector->sites, collector->n_sites, sizeof *collector->sites, compare_u32);
    if (collector->n_predicates > 1)
        qsort(collector->predicates, collector->n_predicates, sizeof *collector->predicates,
              compare_u32);
    return isolation_add_run(collector->isolation, run->failed, collector->sites,
                             collector->n_sites, collector->predicates,
                             collector->n_predicates, d);
}

/* ---- Ranking ------------------------------------------------------------------ */

struct scored {
    const struct isolation *isolation;
    size_t predicate;
    struct predicate_counts counts;
    const struct predicate_score *score;
};

static int compare_scored(const void *a, const void *b)
{
    const struct scored *x = a, *y = b;
    int by_score = compare_scores(x->score, &x->counts, y->score, &y->counts);
    if (by_score)
        return by_score;
    if (x->predicate == y->predicate)
        return 0;
    return isolation_tie_before(x->isolation, x->predicate, y->predicate) ? -1 : 1;
}

/* The kept predicates, best first, into RANKING->top (at most TOP; 0: all).  */
static void rank_initial(struct ranking *ranking, const struct isolation *isolation,
                         const struct predicate_score *scores, size_t top)
{
    size_t n_kept = 0;
    for (size_t p = 0; p < isolation->n_predicates; p++)
        n_kept += scores[p].kept;
    struct scored *kept = xcalloc(n_kept, sizeof *kept);
    size_t n = 0;
    for (size_t p = 0; p < isolation->n_predicates; p++) {
        if (!scores[p].kept)
            continue;
        kept[n].isolation = isolation;
        kept[n].predicate = p;
        kept[n].score = &scores[p];
        isolation_counts(isolation, p, &kept[n].counts);
        n++;
    }
    qsort(kept, n_kept, sizeof *kept, compare_scored);
    ranking->n_kept = n_kept;
    ranking->n_top = top == 0 || top > n_kept ? n_kept : top;
    ranking->top = xcalloc(ranking->n_top, sizeof *ranking->top);
    for (size_t i = 0; i < ranking->n_top; i++)
        ranking->top[i] = (struct ranked_predicate) {
            kept[i].predicate, kept[i].counts, *kept[i].score, isolation->runs[1],
        };
    free(kept);
}

static bool eliminate(struct ranking *ranking, struct isolation *isolation,
                      struct predicate_score *scores, const struct score_rule *rule,
                      struct diag *d)
{
    size_t capacity = 0;
    struct progress progress;
    progress_start(&progress, "eliminating", ranking->n_failing);
    bool ok = true;
    while (ok && isolation->runs[1] > 0) {
        progress_update(&progress, ranking->n_failing - isolation->runs[1]);
        size_t best = isolation_score_all(isolation, rule, scores);
        if (best == SIZE_MAX)
            break;
        struct ranked_predicate step = { best, { 0 }, scores[best], isolation->runs[1] };
        isolation_counts(isolation, best, &step.counts);
        unsigned long failing, successful;
        ok = isolation_drop(isolation, best, &failing, &successful, d);
        /* The runs dropped are exactly those counted true.  */
        if (ok && (failing != step.counts.failing_true || successful != step.counts.successful_true))
            ok = diag_fail(d, "internal error: dropped %lu+%lu runs for a predicate true in "
                           "%lu+%lu", failing, successful, step.counts.failing_true,
                           step.counts.successful_true);
        void *items = ranking->steps;
        grow_array(&items, &capacity, ranking->n_steps + 1, sizeof *ranking->steps);
        ranking->steps = items;
        ranking->steps[ranking->n_steps++] = step;
    }
    progress_finish(&progress);
    ranking->n_unexplained = isolation->runs[1];
    return ok;
}

static const char *interval_name(enum increase_interval interval)
{
    return interval == INTERVAL_NORMAL ? "normal approximation" : "Wilson score, Newcombe";
}

/* ---- Text, CSV and JSON lines ----------------------------------------------------- */

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

static void write_text(FILE *out, const struct ranking *ranking)
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

static void write_rows(FILE *out, const struct ranking *ranking, bool csv, const char *list,
                       const struct ranked_predicate *rows, size_t n_rows)
{
    char storage[N_CSV_COLUMNS][64];
    const char *fields[N_CSV_COLUMNS];
    struct byte_buffer predicate = { 0 };
    for (size_t i = 0; i < n_rows; i++) {
        row_fields(ranking, &rows[i], list, i + 1, storage, &predicate, fields);
        if (!csv)
            fputc('{', out);
        for (int c = 0; c < N_CSV_COLUMNS; c++) {
            if (csv) {
                csv_field(out, fields[c], c == N_CSV_COLUMNS - 1);
                continue;
            }
            json_key(out, csv_columns[c], c == 0);
            if (column_is_number(c))
                fputs(fields[c], out);
            else
                json_string(out, fields[c]);
        }
        if (!csv)
            fputs("}\n", out);
    }
    buffer_free(&predicate);
}

static void write_machine(FILE *out, const struct ranking *ranking, bool csv)
{
    if (csv) {
        for (int c = 0; c < N_CSV_COLUMNS; c++)
            csv_field(out, csv_columns[c], c == N_CSV_COLUMNS - 1);
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
        fprintf(out, "%lu}\n", ranking->n_unexplained);
    }
    write_rows(out, ranking, csv, "elimination", ranking->steps, ranking->n_steps);
    write_rows(out, ranking, csv, "ranking", ranking->top, ranking->n_top);
}

/* ---- The command ----------------------------------------------------------------- */

static int run_rank(const struct rank_options *options)
{
    struct run_set set;
    struct diag d;
    struct universe universe = { 0 };
    struct isolation isolation = { 0 };
    struct collector collector = { 0 };
    struct ranking ranking = { 0 };
    struct predicate_score *scores = NULL;
    uint32_t *tie_order = NULL;
    int status = EXIT_BAD_INPUT;
    if (!run_set_open(&set, &options->runs, true, &d))
        goto fail;
    unsigned *predicates_per_site;
    bool *every_run;
    universe_init(&universe, &set.catalog, &predicates_per_site, &every_run);
    bool ok = isolation_init(&isolation, universe.n_sites, predicates_per_site, every_run, &d);
    free(predicates_per_site);
    free(every_run);
    if (!ok)
        goto fail;
    tie_order = tie_order_of(&universe);
    isolation.tie_order = tie_order;
    collector.universe = &universe;
    collector.isolation = &isolation;
    if (!run_set_visit(&set, collect_run, &collector, &d))
        goto fail;
    ranking.universe = &universe;
    ranking.n_runs = set.n_runs;
    ranking.n_failing = set.n_failing;
    ranking.confidence = options->confidence;
    ranking.interval = options->interval;
    ranking.min_failing = options->min_failing;
    labeller_describe(&set.labeller, ranking.failure_rule, sizeof ranking.failure_rule);
    ranking.default_failure_rule = !options->runs.labels && !options->runs.fail_if;
    struct score_rule rule = { critical_z(options->confidence), options->interval,
                               options->min_failing };
    scores = xcalloc(universe.n_predicates, sizeof *scores);
    isolation_score_all(&isolation, &rule, scores);
    rank_initial(&ranking, &isolation, scores, options->top);
    if (!eliminate(&ranking, &isolation, scores, &rule, &d))
        goto fail;
    switch (options->format) {
    case RANK_TEXT:
        write_text(stdout, &ranking);
        break;
    case RANK_CSV:
    case RANK_JSONL:
        write_machine(stdout, &ranking, options->format == RANK_CSV);
        break;
    case RANK_HTML:
        write_ranking_html(stdout, &ranking, options->source_dirs, options->n_source_dirs);
        break;
    }
    run_set_explain(&set);
    status = EXIT_FINE;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, PROGRAM_NAME ": cannot write the output\n");
        status = EXIT_BAD_INPUT;
    }
    goto done;
fail:
    fprintf(stderr, PROGRAM_NAME ": %s\n", d.message);
done:
    free(ranking.top);
    free(ranking.steps);
    free(scores);
    free(tie_order);
    free(collector.sites);
    free(collector.predicates);
    isolation_free(&isolation);
    universe_free(&universe);
    run_set_close(&set);
    return status;
}

static int rank_main(const struct command *self, int argc, char **argv)
{
    struct rank_options options = { .format = RANK_TEXT, .confidence = 0.95,
                                    .interval = INTERVAL_WILSON,
                                    .min_failing = DEFAULT_MIN_FAILING, .top = DEFAULT_TOP };
    int status = parse_rank_options(self, argc, argv, &options);
    if (status == EXIT_FINE)
        status = run_rank(&options);
    else if (status == HELP_GIVEN)
        status = EXIT_FINE;
    run_options_free(&options.runs);
    free(options.source_dirs);
    return status;
}

const struct command rank_command = {
    .name = "rank",
    .synopsis = "(INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... [--fail-if=RULE | --labels FILE] "
                "[--confidence=PERCENT] [--min-failing=K] [--interval=wilson|normal] [--top=N] "
                "[--format=text|csv|jsonl|html] [--source-dir DIR]...",
    .summary = "Rank the predicates that predict failure over many runs (Cooperative Bug\n"
               "Isolation: Increase with its lower confidence bound, Importance from that\n"
               "bound), then eliminate: take the best, drop the runs where it is true, rank\n"
               "again, until no failing run or no predicate is left.  By default any signal\n"
               "or non-zero exit status is a failure; for crashes, give --fail-if=signal.",
    .options =
        RUN_OPTIONS_HELP
        STORE_OPTIONS_HELP
        LABEL_OPTIONS_HELP
        "  --confidence=P   confidence level of Increase's lower bound, in percent\n"
        "                   (default 95); predicates whose bound is not above 0 are\n"
        "                   dropped\n"
        "  --min-failing=K  keep only predicates true in at least K failing runs\n"
        "                   (default 3)\n"
        "  --interval=I     Increase's bound: wilson (default; Newcombe's difference\n"
        "                   of Wilson score intervals, sound with few runs) or normal\n"
        "                   (the normal approximation of CBI, for comparison)\n"
        "  --top=N          how many predicates of the ranking before elimination to\n"
        "                   list (default 20; 0: all kept)\n"
        "  --format=FORMAT  text (default), csv or jsonl (one row per predicate, with a\n"
        "                   'list' column: elimination or ranking), or html (one\n"
        "                   self-contained page)\n"
        "  --source-dir DIR where the html page looks for source files, besides the\n"
        "                   current directory (repeatable)\n",
    .run = rank_main,
};
