/* sampler-report paths: each function's hot paths (the paths scheme's
   Ball-Larus paths of the regions between checks), combined over every
   run, with their estimated traversals and intervals, each spelled as
   source lines and branch directions from the program's path table
   (docs/paths.md).  */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "command.h"
#include "elfsection.h"
#include "interesting.h"
#include "pathtable.h"
#include "runs.h"
#include "schemes.h"
#include "textout.h"
#include "util.h"

#define CONFIDENCE 0.95
/* Steps shown of one path: a path visits each block once.  */
#define MAX_STEPS 4096

enum paths_format { PATHS_TEXT, PATHS_CSV, PATHS_JSONL };

static struct {
    unsigned top;
    const char *function;
    enum paths_format format;
    const char *write_interesting;  /* each function's --hot paths to this file */
    unsigned hot;
} paths_options;

struct path_total {
    unsigned long long path;
    unsigned long long count;     /* sampled traversals, over the runs */
    double traversals;            /* estimated: count times sparsity, summed */
    double variance;              /* of that estimate */
};

/* One function's paths site, combined over the runs so far.  */
struct function_paths {
    const struct unit_table *table;
    const struct site *site;
    unsigned long long sampled, lost;
    double traversals;
    struct path_total *paths;
    size_t n_paths, capacity;
    size_t *index;                /* open addressing: position in PATHS + 1, or 0 */
    size_t index_size;            /* a power of two, more than twice n_paths */
    unsigned long long sparsity;  /* that of every run, or 0 when they differ */
    bool seen;
};

struct paths_state {
    size_t **slot_of;             /* per catalog unit, per site: position + 1 */
    size_t n_units;
    struct function_paths *functions;
    size_t n_functions, capacity;
};

static struct function_paths *function_of(struct paths_state *state, size_t unit,
                                          const struct unit_table *table,
                                          const struct site *site)
{
    if (!state->slot_of[unit])
        state->slot_of[unit] = xcalloc(table->n_sites, sizeof **state->slot_of);
    size_t *slot = &state->slot_of[unit][site->index];
    if (*slot == 0) {
        grow_array((void **)&state->functions, &state->capacity, state->n_functions + 1,
                   sizeof *state->functions);
        struct function_paths *f = &state->functions[state->n_functions++];
        memset(f, 0, sizeof *f);
        f->table = table;
        f->site = site;
        *slot = state->n_functions;
    }
    return &state->functions[*slot - 1];
}

static size_t path_slot(const struct function_paths *f, unsigned long long path)
{
    size_t mask = f->index_size - 1;
    size_t at = (size_t)((path * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & mask;
    while (f->index[at] && f->paths[f->index[at] - 1].path != path)
        at = (at + 1) & mask;
    return at;
}

/* F's total for PATH, made if F has none yet.  */
static struct path_total *path_total_of(struct function_paths *f, unsigned long long path)
{
    if (2 * (f->n_paths + 1) >= f->index_size) {
        free(f->index);
        f->index_size = f->index_size ? 2 * f->index_size : 64;
        f->index = xcalloc(f->index_size, sizeof *f->index);
        for (size_t i = 0; i < f->n_paths; i++)
            f->index[path_slot(f, f->paths[i].path)] = i + 1;
    }
    size_t at = path_slot(f, path);
    if (!f->index[at]) {
        grow_array((void **)&f->paths, &f->capacity, f->n_paths + 1, sizeof *f->paths);
        struct path_total *t = &f->paths[f->n_paths++];
        memset(t, 0, sizeof *t);
        t->path = path;
        f->index[at] = f->n_paths;
    }
    return &f->paths[f->index[at] - 1];
}

static void add_path(struct function_paths *f, unsigned long long path,
                     unsigned long long count, unsigned long long sparsity)
{
    struct path_total *t = path_total_of(f, path);
    double s = (double)sparsity;
    t->count += count;
    t->traversals += (double)count * s;
    /* Each traversal sampled with probability 1/s, independently: the
       variance of count * s is about count * s * (s - 1).  */
    t->variance += (double)count * s * (s - 1);
}

static bool paths_run(void *context, const struct run_view *run, struct diag *d)
{
    (void) d;
    struct paths_state *state = context;
    unsigned long long sparsity = run->report->sparsity;
    for (size_t u = 0; u < run->n_units; u++) {
        const struct run_unit *unit = &run->units[u];
        const struct unit_table *table = unit->totals->table;
        for (size_t i = 0; i < unit->n_sites; i++) {
            const struct site *site = &table->sites[unit->sites[i]];
            if (scheme_infos[site->scheme].merge != SAMPLER_MERGE_PATH_TABLE)
                continue;
            const unsigned long long *slots = unit->totals->values + site->first_counter;
            if (slots[PATH_SLOT_SAMPLED] == 0 || sparsity == 0)
                continue;
            if (paths_options.function && strcmp(site->function, paths_options.function) != 0)
                continue;
            struct function_paths *f = function_of(state, unit->catalog_index, table, site);
            if (!f->seen)
                f->sparsity = sparsity;
            else if (f->sparsity != sparsity)
                f->sparsity = 0;
            f->seen = true;
            f->sampled += slots[PATH_SLOT_SAMPLED];
            f->lost += slots[PATH_SLOT_LOST];
            f->traversals += (double)slots[PATH_SLOT_SAMPLED] * (double)sparsity;
            unsigned capacity = path_table_capacity(site);
            for (unsigned p = 0; p < capacity; p++) {
                unsigned long long key = slots[PATH_SLOT_PAIRS + 2 * p];
                unsigned long long count = slots[PATH_SLOT_PAIRS + 2 * p + 1];
                if (key != 0 && count != 0)
                    add_path(f, key - 1, count, sparsity);
            }
        }
    }
    return true;
}

static int by_traversals(const void *pa, const void *pb)
{
    const struct path_total *a = pa, *b = pb;
    if (a->traversals != b->traversals)
        return a->traversals > b->traversals ? -1 : 1;
    return (a->path > b->path) - (a->path < b->path);
}

static int functions_by_traversals(const void *pa, const void *pb)
{
    const struct function_paths *a = pa, *b = pb;
    if (a->traversals != b->traversals)
        return a->traversals > b->traversals ? -1 : 1;
    int c = strcmp(a->site->file, b->site->file);
    if (c)
        return c;
    if (a->site->line != b->site->line)
        return a->site->line < b->site->line ? -1 : 1;
    c = strcmp(a->table->signature, b->table->signature);
    return c ? c : (a->site->index > b->site->index) - (a->site->index < b->site->index);
}

/* The interval of T's traversals: exact at sparsity 1; with one sparsity
   s over the runs, the Poisson score interval on the count, times s; with
   several, the normal one.  */
static void interval(const struct function_paths *f, const struct path_total *t, double *low,
                     double *high)
{
    double z = gsl_cdf_ugaussian_Pinv(1 - (1 - CONFIDENCE) / 2);
    if (f->sparsity == 1) {
        *low = *high = t->traversals;
    } else if (f->sparsity > 1) {
        double c = (double)t->count, s = (double)f->sparsity;
        double centre = c + z * z / 2, half = z * sqrt(c + z * z / 4);
        *low = (centre - half > 0 ? centre - half : 0) * s;
        *high = (centre + half) * s;
    } else {
        double half = z * sqrt(t->variance);
        *low = t->traversals - half > 0 ? t->traversals - half : 0;
        *high = t->traversals + half;
    }
}

/* The path as text: "line 7 true -> line 9 -> exit line 6".  */
static void spell(const struct path_function *fn, unsigned long long path,
                  struct byte_buffer *out, long *region_line)
{
    static struct path_step steps[MAX_STEPS];
    size_t n = 0;
    struct diag d;
    char text[96];
    *region_line = 0;
    if (!fn) {
        buffer_append_text(out, "(no path table: give --binary)");
        return;
    }
    if (!path_decode(fn, path, steps, MAX_STEPS, &n, region_line, &d)) {
        buffer_append_text(out, "(");
        buffer_append_text(out, d.message);
        buffer_append_text(out, ")");
        return;
    }
    bool first = true;
    long last_shown = -1;
    for (size_t i = 0; i < n; i++) {
        const struct path_step *s = &steps[i];
        bool branch = strcmp(s->how, "true") == 0 || strcmp(s->how, "false") == 0
                      || strcmp(s->how, "switch") == 0;
        bool is_exit = strcmp(s->how, "exit") == 0;
        if (is_exit) {
            if (s->line)
                snprintf(text, sizeof text, "%sexit line %ld", first ? "" : " -> ", s->line);
            else
                snprintf(text, sizeof text, "%sexit", first ? "" : " -> ");
        } else if (branch) {
            long line = s->line ? s->line : s->last_line;
            if (line)
                snprintf(text, sizeof text, "%sline %ld %s", first ? "" : " -> ", line, s->how);
            else
                snprintf(text, sizeof text, "%sline ? %s", first ? "" : " -> ", s->how);
            last_shown = line;
        } else if (s->first_line
                   && !(s->first_line == last_shown && s->last_line == last_shown)) {
            if (s->last_line != s->first_line)
                snprintf(text, sizeof text, "%slines %ld-%ld", first ? "" : " -> ",
                         s->first_line, s->last_line);
            else
                snprintf(text, sizeof text, "%sline %ld", first ? "" : " -> ", s->first_line);
            last_shown = s->last_line;
        } else {
            continue;
        }
        buffer_append_text(out, text);
        first = false;
    }
}

static size_t shown_paths(const struct function_paths *f)
{
    return f->n_paths < paths_options.top ? f->n_paths : paths_options.top;
}

static void write_text(FILE *out, const struct paths_state *state,
                       const struct path_catalog *catalog)
{
    struct byte_buffer text = { 0 };
    for (size_t i = 0; i < state->n_functions; i++) {
        const struct function_paths *f = &state->functions[i];
        const struct path_function *fn = path_catalog_find(catalog, f->table->signature,
                                                           f->site->index);
        fprintf(out, "%s:%u  %s  traversals %.0f  sampled %llu", f->site->file, f->site->line,
                f->site->function, f->traversals, f->sampled);
        if (fn)
            fprintf(out, "  paths %llu (%s)", fn->n_paths, fn->in_array ? "array" : "hash table");
        if (f->lost)
            fprintf(out, "  lost %llu (the table was full)", f->lost);
        fputc('\n', out);
        for (size_t p = 0; p < shown_paths(f); p++) {
            const struct path_total *t = &f->paths[p];
            double low, high;
            long region_line;
            interval(f, t, &low, &high);
            text.size = 0;
            spell(fn, t->path, &text, &region_line);
            buffer_append(&text, "", 1);
            fprintf(out, "  #%zu path %llu  traversals %.0f [%.0f, %.0f]  %.1f%%\n      %s\n",
                    p + 1, t->path, t->traversals, low, high,
                    f->traversals > 0 ? 100 * t->traversals / f->traversals : 0, text.data);
        }
    }
    buffer_free(&text);
}

static void write_csv(FILE *out, const struct paths_state *state,
                      const struct path_catalog *catalog)
{
    struct byte_buffer text = { 0 };
    fputs("file,line,function,unit,site,paths,sampled,lost,rank,path,region_line,count,"
          "traversals,traversals_low,traversals_high,spelled\n", out);
    for (size_t i = 0; i < state->n_functions; i++) {
        const struct function_paths *f = &state->functions[i];
        const struct path_function *fn = path_catalog_find(catalog, f->table->signature,
                                                           f->site->index);
        for (size_t p = 0; p < shown_paths(f); p++) {
            const struct path_total *t = &f->paths[p];
            double low, high;
            long region_line;
            interval(f, t, &low, &high);
            text.size = 0;
            spell(fn, t->path, &text, &region_line);
            buffer_append(&text, "", 1);
            csv_field(out, f->site->file, false);
            fprintf(out, "%u,", f->site->line);
            csv_field(out, f->site->function, false);
            fprintf(out, "%s,%u,", f->table->signature, f->site->index);
            if (fn)
                fprintf(out, "%llu,", fn->n_paths);
            else
                fputs(",", out);
            fprintf(out, "%llu,%llu,%zu,%llu,%ld,%llu,%.17g,%.17g,%.17g,", f->sampled, f->lost,
                    p + 1, t->path, region_line, t->count, t->traversals, low, high);
            csv_field(out, text.data, true);
        }
    }
    buffer_free(&text);
}

/* One object per function, its paths in an array.  */
static void write_jsonl(FILE *out, const struct paths_state *state,
                        const struct path_catalog *catalog)
{
    struct byte_buffer text = { 0 };
    for (size_t i = 0; i < state->n_functions; i++) {
        const struct function_paths *f = &state->functions[i];
        const struct path_function *fn = path_catalog_find(catalog, f->table->signature,
                                                           f->site->index);
        fputc('{', out);
        json_key(out, "file", true);
        json_string(out, f->site->file);
        fprintf(out, ",\"line\":%u", f->site->line);
        json_key(out, "function", false);
        json_string(out, f->site->function);
        json_key(out, "unit", false);
        json_string(out, f->table->signature);
        fprintf(out, ",\"site\":%u", f->site->index);
        if (fn)
            fprintf(out, ",\"paths\":%llu", fn->n_paths);
        else
            fputs(",\"paths\":null", out);
        fprintf(out, ",\"sampled\":%llu,\"lost\":%llu,\"traversals\":%.17g,\"hot\":[",
                f->sampled, f->lost, f->traversals);
        for (size_t p = 0; p < shown_paths(f); p++) {
            const struct path_total *t = &f->paths[p];
            double low, high;
            long region_line;
            interval(f, t, &low, &high);
            text.size = 0;
            spell(fn, t->path, &text, &region_line);
            buffer_append(&text, "", 1);
            fprintf(out, "%s{\"path\":%llu,\"region_line\":%ld,\"count\":%llu,"
                    "\"traversals\":%.17g,\"traversals_low\":%.17g,"
                    "\"traversals_high\":%.17g", p ? "," : "", t->path, region_line,
                    t->count, t->traversals, low, high);
            json_key(out, "spelled", false);
            json_string(out, text.data);
            fputc('}', out);
        }
        fputs("]}\n", out);
    }
    buffer_free(&text);
}

/* The path tables of the programs and site-table files the site tables
   came from.  */
static bool load_path_tables(const struct run_set *set, struct path_catalog *catalog,
                             struct diag *d)
{
    const struct run_options *options = set->options;
    for (size_t i = 0; i < options->n_binaries + set->n_programs; i++) {
        const char *path = i < options->n_binaries ? options->binaries[i]
                                                   : set->programs[i - options->n_binaries];
        struct byte_buffer section = { 0 };
        bool found = false;
        struct diag why;
        bool ok = elf_read_section(path, SAMPLER_PATH_SECTION, &section, &found, &why);
        if (!ok && i < options->n_binaries) {
            buffer_free(&section);
            *d = why;
            return false;
        }
        if (ok && found) {
            size_t size = strlen(path) + sizeof "[" SAMPLER_PATH_SECTION "]";
            char *origin = xmalloc(size);
            snprintf(origin, size, "%s[" SAMPLER_PATH_SECTION "]", path);
            ok = path_catalog_read_text(catalog, section.data, section.size, origin, d);
            free(origin);
            if (!ok) {
                buffer_free(&section);
                return false;
            }
        }
        buffer_free(&section);
    }
    for (size_t i = 0; i < options->n_site_files; i++) {
        struct byte_buffer contents = { 0 };
        bool ok = read_whole_file(options->site_files[i], &contents, d)
                  && path_catalog_read_text(catalog, contents.data, contents.size,
                                            options->site_files[i], d);
        buffer_free(&contents);
        if (!ok)
            return false;
    }
    return true;
}

/* Each function's --hot hottest paths (all with no --hot) to the
   interesting-paths file (interesting.c).  */
static bool write_interesting(const struct paths_state *state,
                              const struct path_catalog *catalog,
                              const struct run_options *options, struct diag *d)
{
    const char *name = paths_options.write_interesting;
    FILE *out = fopen(name, "w");
    if (!out)
        return diag_fail(d, "cannot write %s: %s", name, strerror(errno));
    bool ok = interesting_begin(out, options->n_inputs ? options->inputs[0] : "?", d);
    for (size_t i = 0; ok && i < state->n_functions; i++) {
        const struct function_paths *f = &state->functions[i];
        const struct path_function *fn = path_catalog_find(catalog, f->table->signature,
                                                           f->site->index);
        if (!fn) {
            ok = diag_fail(d, "%s: no path table to spell its paths with: give --binary or "
                           "--sites", f->site->function);
            break;
        }
        for (size_t p = 0; ok && p < f->n_paths && (!paths_options.hot || p < paths_options.hot);
             p++)
            ok = interesting_write_path(out, f->site->function, f->site->file, fn,
                                        f->paths[p].path, d);
    }
    if (fclose(out) != 0 && ok)
        ok = diag_fail(d, "cannot write %s: %s", name, strerror(errno));
    return ok;
}

static int run_paths(const struct run_options *options)
{
    struct run_set set;
    struct diag d;
    struct paths_state state = { 0 };
    struct path_catalog catalog = { 0 };
    bool ok = run_set_open(&set, options, false, &d);
    if (ok) {
        state.n_units = set.catalog.n_units;
        state.slot_of = xcalloc(state.n_units ? state.n_units : 1, sizeof *state.slot_of);
        ok = load_path_tables(&set, &catalog, &d);
    }
    if (ok) {
        set.progress_label = "reading";
        ok = run_set_visit(&set, paths_run, &state, &d);
    }
    int status = EXIT_BAD_INPUT;
    if (ok) {
        /* The index is not used after this.  */
        for (size_t i = 0; i < state.n_functions; i++)
            qsort(state.functions[i].paths, state.functions[i].n_paths,
                  sizeof *state.functions[i].paths, by_traversals);
        qsort(state.functions, state.n_functions, sizeof *state.functions,
              functions_by_traversals);
        if (paths_options.write_interesting)
            ok = write_interesting(&state, &catalog, options, &d);
        if (!ok)
            fprintf(stderr, PROGRAM_NAME ": %s\n", d.message);
        else if (paths_options.format == PATHS_CSV)
            write_csv(stdout, &state, &catalog);
        else if (paths_options.format == PATHS_JSONL)
            write_jsonl(stdout, &state, &catalog);
        else
            write_text(stdout, &state, &catalog);
        run_set_explain(&set);
        status = ok && fflush(stdout) == 0 && !ferror(stdout) ? EXIT_FINE : EXIT_BAD_INPUT;
    } else {
        fprintf(stderr, PROGRAM_NAME ": %s\n", d.message);
    }
    if (state.slot_of) {
        for (size_t u = 0; u < state.n_units; u++)
            free(state.slot_of[u]);
        free(state.slot_of);
    }
    for (size_t i = 0; i < state.n_functions; i++) {
        free(state.functions[i].paths);
        free(state.functions[i].index);
    }
    free(state.functions);
    path_catalog_free(&catalog);
    run_set_close(&set);
    return status;
}

static int take_paths_option(const struct command *self, int argc, char **argv, int *i)
{
    const char *value;
    if (command_option_value("--format", argc, argv, i, &value)) {
        if (value && strcmp(value, "text") == 0)
            paths_options.format = PATHS_TEXT;
        else if (value && strcmp(value, "csv") == 0)
            paths_options.format = PATHS_CSV;
        else if (value && strcmp(value, "jsonl") == 0)
            paths_options.format = PATHS_JSONL;
        else
            return command_usage_error(self, "unknown format '%s' (text, csv or jsonl)",
                                       value ? value : ""), -1;
        return 1;
    }
    if (command_option_value("--function", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(self, "--function wants a function's name"), -1;
        paths_options.function = value;
        return 1;
    }
    if (command_option_value("--write-interesting", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(self, "--write-interesting wants a file name"), -1;
        paths_options.write_interesting = value;
        return 1;
    }
    if (command_option_value("--hot", argc, argv, i, &value)) {
        char *end;
        long n = value && *value ? strtol(value, &end, 10) : -1;
        if (!value || !*value || *end || n < 1 || n > 1000000)
            return command_usage_error(self, "--hot wants a whole number from 1 to 1000000, "
                                       "not '%s'", value ? value : ""), -1;
        paths_options.hot = (unsigned) n;
        return 1;
    }
    if (command_option_value("--top", argc, argv, i, &value)) {
        char *end;
        long n = value && *value ? strtol(value, &end, 10) : -1;
        if (!value || !*value || *end || n < 1 || n > 1000000)
            return command_usage_error(self, "--top wants a whole number from 1 to 1000000, "
                                       "not '%s'", value ? value : ""), -1;
        paths_options.top = (unsigned) n;
        return 1;
    }
    return 0;
}

static int paths_main(const struct command *self, int argc, char **argv)
{
    struct run_options options = { 0 };
    paths_options.top = 10;
    paths_options.function = NULL;
    paths_options.format = PATHS_TEXT;
    paths_options.write_interesting = NULL;
    paths_options.hot = 0;
    int status = run_command_line(self, argc, argv, &options, NULL, NULL, take_paths_option);
    if (status == EXIT_FINE && paths_options.hot && !paths_options.write_interesting)
        status = command_usage_error(self, "--hot goes with --write-interesting");
    if (status == EXIT_FINE)
        status = run_paths(&options);
    else if (status == RUN_COMMAND_HELP)
        status = EXIT_FINE;
    run_options_free(&options);
    return status;
}

const struct command paths_command = {
    .name = "paths",
    .synopsis = "INPUT... [--binary FILE]... [--sites FILE]... [--function=F] [--top=N] "
                "[--format=text|csv|jsonl] [--write-interesting FILE [--hot=N]]",
    .summary = "Show each function's hot paths (the paths scheme) combined over every run,\n"
               "hottest functions first: each path's estimated traversals (sampled count\n"
               "times sparsity) with a 95% interval (exact at sparsity 1; else the Poisson\n"
               "score interval on the count), spelled as the source lines it runs through,\n"
               "the directions of its branches and the line where it leaves its region.",
    .options =
        RUN_OPTIONS_HELP
        "  --function=F     only function F\n"
        "  --top=N          paths shown per function, 1 to 1000000 (10)\n"
        "  --format=F       text (default), csv (one row per function and path) or\n"
        "                   jsonl (one object per function, its paths in \"hot\")\n"
        "  --write-interesting=FILE  write each function's hottest paths as an\n"
        "                   interesting-paths file, for the plugin's\n"
        "                   paths-interesting=FILE (docs/paths.md)\n"
        "  --hot=N          with --write-interesting: each function's N hottest (all)\n",
    .run = paths_main,
};
