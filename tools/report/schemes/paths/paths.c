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

#include "commands/command.h"
#include "input/elf-section.h"
#include "output/formats.h"
#include "schemes/paths/interesting.h"
#include "schemes/paths/paths.h"
#include "schemes/paths/pathtable.h"
#include "schemes/registry.h"
#include "support/util.h"

#define CONFIDENCE 0.95
/* Steps shown of one path: a path visits each block once.  */
#define MAX_STEPS 4096

struct paths_options {
    unsigned top;
    unsigned functions;             /* text and html: shown at most; 0: all */
    const char *function;
    const char *write_interesting;  /* each function's --hot paths to this file */
    unsigned hot;
};

struct paths_state {
    const struct paths_options *options;
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

/* COUNT sampled traversals of PATH in a run where each traversal was
   sampled with probability 1 / SCALE.  */
static void add_path(struct function_paths *f, unsigned long long path,
                     unsigned long long count, double scale)
{
    struct path_total *t = path_total_of(f, path);
    double s = scale;
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
            if (slots[PATH_SLOT_SAMPLED] == 0 || sparsity == 0 || site->weight == 0)
                continue;
            const char *only = state->options->function;
            /* Named as the table names it, or by its symbol (C++).  */
            if (only && strcmp(site->function, only) != 0
                && strcmp(site_symbol(site), only) != 0)
                continue;
            /* The exits of the function's regions are visits of its
               paths site: each traversal is sampled at the site's rate.  */
            double scale = site_visits_per_sample(sparsity, run->report->countdown_unit,
                                                  site->weight);
            struct function_paths *f = function_of(state, unit->catalog_index, table, site);
            if (!f->seen)
                f->scale = scale;
            else if (f->scale != scale)
                f->scale = 0;
            f->seen = true;
            f->sampled += slots[PATH_SLOT_SAMPLED];
            f->lost += slots[PATH_SLOT_LOST];
            f->traversals += (double)slots[PATH_SLOT_SAMPLED] * scale;
            unsigned capacity = path_table_capacity(site);
            for (unsigned p = 0; p < capacity; p++) {
                unsigned long long key = slots[PATH_SLOT_PAIRS + 2 * p];
                unsigned long long count = slots[PATH_SLOT_PAIRS + 2 * p + 1];
                if (key != 0 && count != 0)
                    add_path(f, key - 1, count, scale);
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

/* The interval of T's traversals: exact at rate 1; with one rate 1/s
   over the runs, the Poisson score interval on the count, times s; with
   several, the normal one.  */
static void interval(const struct function_paths *f, const struct path_total *t, double *low,
                     double *high)
{
    double z = gsl_cdf_ugaussian_Pinv(1 - (1 - CONFIDENCE) / 2);
    if (f->scale == 1) {
        *low = *high = t->traversals;
    } else if (f->scale > 1) {
        double c = (double)t->count, s = f->scale;
        double centre = c + z * z / 2, half = z * sqrt(c + z * z / 4);
        *low = (centre - half > 0 ? centre - half : 0) * s;
        *high = (centre + half) * s;
    } else {
        double half = z * sqrt(t->variance);
        *low = t->traversals - half > 0 ? t->traversals - half : 0;
        *high = t->traversals + half;
    }
}


/* STEPS as text: "line 7 true -> line 9 -> exit line 6".  */
static void spell(const struct path_step *steps, size_t n, struct byte_buffer *out)
{
    char text[96];
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

/* Decodes T, a path of F (FN its path table, or NULL), into V.  */
static void decode_path(const struct function_paths *f, const struct path_function *fn,
                        const struct path_total *t, struct path_view *v)
{
    static struct path_step steps[MAX_STEPS];
    struct byte_buffer text = { 0 };
    struct diag d;
    memset(v, 0, sizeof *v);
    v->total = t;
    interval(f, t, &v->low, &v->high);
    if (!fn) {
        buffer_append_text(&text, "(no path table: give --binary)");
    } else if (!path_decode(fn, t->path, steps, MAX_STEPS, &v->n_steps, &v->region_line, &d)) {
        v->n_steps = 0;
        v->region_line = 0;
        buffer_append_text(&text, "(");
        buffer_append_text(&text, d.message);
        buffer_append_text(&text, ")");
    } else {
        spell(steps, v->n_steps, &text);
        v->steps = xmalloc((v->n_steps ? v->n_steps : 1) * sizeof *v->steps);
        memcpy(v->steps, steps, v->n_steps * sizeof *v->steps);
    }
    buffer_append(&text, "", 1);
    v->spelled = text.data;
}

/* The views of STATE's first N functions, in order, each with its
   hottest --top paths decoded.  */
static struct function_view *make_views(const struct paths_state *state,
                                        const struct path_catalog *catalog, size_t n)
{
    struct function_view *views = xcalloc(n ? n : 1, sizeof *views);
    for (size_t i = 0; i < n; i++) {
        const struct function_paths *f = &state->functions[i];
        struct function_view *view = &views[i];
        view->paths = f;
        view->table = path_catalog_find(catalog, f->table->signature, f->site->index);
        unsigned top = state->options->top;
        view->n_shown = f->n_paths < top ? f->n_paths : top;
        view->shown = xcalloc(view->n_shown ? view->n_shown : 1, sizeof *view->shown);
        for (size_t p = 0; p < view->n_shown; p++)
            decode_path(f, view->table, &f->paths[p], &view->shown[p]);
    }
    return views;
}

static void free_views(struct function_view *views, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t p = 0; p < views[i].n_shown; p++) {
            free(views[i].shown[p].steps);
            free(views[i].shown[p].spelled);
        }
        free(views[i].shown);
    }
    free(views);
}

static void write_text(FILE *out, const struct function_view *views, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct function_paths *f = views[i].paths;
        const struct path_function *fn = views[i].table;
        fprintf(out, "%s:%u  %s  traversals %.0f  sampled %llu", f->site->file, f->site->line,
                f->site->function, f->traversals, f->sampled);
        if (fn)
            fprintf(out, "  paths %llu (%s)", fn->n_paths, fn->in_array ? "array" : "hash table");
        if (f->lost)
            fprintf(out, "  lost %llu (the table was full)", f->lost);
        fputc('\n', out);
        for (size_t p = 0; p < views[i].n_shown; p++) {
            const struct path_view *v = &views[i].shown[p];
            const struct path_total *t = v->total;
            fprintf(out, "  #%zu path %llu  traversals %.0f [%.0f, %.0f]  %.1f%%\n      %s\n",
                    p + 1, t->path, t->traversals, v->low, v->high,
                    f->traversals > 0 ? 100 * t->traversals / f->traversals : 0, v->spelled);
        }
    }
}

/* The line that says how many functions --functions left out.  */
void write_functions_left_out(FILE *out, size_t n_more, const char *before, const char *after)
{
    if (n_more)
        fprintf(out, "%s%zu more functions not shown; use --functions=all%s", before, n_more,
                after);
}

static void write_csv(FILE *out, const struct function_view *views, size_t n)
{
    fputs("file,line,function,unit,site,paths,sampled,lost,rank,path,region_line,count,"
          "traversals,traversals_low,traversals_high,spelled\n", out);
    for (size_t i = 0; i < n; i++) {
        const struct function_paths *f = views[i].paths;
        const struct path_function *fn = views[i].table;
        for (size_t p = 0; p < views[i].n_shown; p++) {
            const struct path_view *v = &views[i].shown[p];
            const struct path_total *t = v->total;
            csv_field(out, f->site->file, false);
            fprintf(out, "%u,", f->site->line);
            csv_field(out, f->site->function, false);
            fprintf(out, "%s,%u,", f->table->signature, f->site->index);
            if (fn)
                fprintf(out, "%llu,", fn->n_paths);
            else
                fputs(",", out);
            fprintf(out, "%llu,%llu,%zu,%llu,%ld,%llu,%.17g,%.17g,%.17g,", f->sampled, f->lost,
                    p + 1, t->path, v->region_line, t->count, t->traversals, v->low, v->high);
            csv_field(out, v->spelled, true);
        }
    }
}

/* One object per function, its paths in an array.  */
static void write_jsonl(FILE *out, const struct function_view *views, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct function_paths *f = views[i].paths;
        const struct path_function *fn = views[i].table;
        fputc('{', out);
        json_key(out, "file", true);
        json_string(out, f->site->file);
        fprintf(out, ",\"line\":%u", f->site->line);
        json_key(out, "function", false);
        json_string(out, f->site->function);
        json_symbol(out, f->site);
        json_key(out, "unit", false);
        json_string(out, f->table->signature);
        fprintf(out, ",\"site\":%u", f->site->index);
        if (fn)
            fprintf(out, ",\"paths\":%llu", fn->n_paths);
        else
            fputs(",\"paths\":null", out);
        fprintf(out, ",\"sampled\":%llu,\"lost\":%llu,\"traversals\":%.17g,\"hot\":[",
                f->sampled, f->lost, f->traversals);
        for (size_t p = 0; p < views[i].n_shown; p++) {
            const struct path_view *v = &views[i].shown[p];
            const struct path_total *t = v->total;
            fprintf(out, "%s{\"path\":%llu,\"region_line\":%ld,\"count\":%llu,"
                    "\"traversals\":%.17g,\"traversals_low\":%.17g,"
                    "\"traversals_high\":%.17g", p ? "," : "", t->path, v->region_line,
                    t->count, t->traversals, v->low, v->high);
            json_key(out, "spelled", false);
            json_string(out, v->spelled);
            fputc('}', out);
        }
        fputs("]}\n", out);
    }
}


/* Adds the path tables of the ELF file PATH, when it has them.  A file
   that cannot be read is an error if NEEDED (a --binary), else left out
   (a report's program, whose site tables were found elsewhere).  */
static bool add_path_section(struct path_catalog *catalog, const char *path, bool needed,
                             struct diag *d)
{
    struct byte_buffer section = { 0 };
    bool found = false;
    struct diag why;
    bool ok = elf_read_section(path, SAMPLER_PATH_SECTION, &section, &found, &why);
    if (!ok && needed)
        *d = why;
    else if (ok && found) {
        size_t size = strlen(path) + sizeof "[" SAMPLER_PATH_SECTION "]";
        char *origin = xmalloc(size);
        snprintf(origin, size, "%s[" SAMPLER_PATH_SECTION "]", path);
        ok = path_catalog_read_text(catalog, section.data, section.size, origin, d);
        free(origin);
    } else {
        ok = true;
    }
    buffer_free(&section);
    return ok;
}

/* The path tables of the programs and site-table files the site tables
   came from: the binaries, the reports' programs, then the site-table
   files.  */
static bool load_path_tables(const struct run_set *set, struct path_catalog *catalog,
                             struct diag *d)
{
    const struct run_options *options = set->options;
    for (size_t i = 0; i < options->n_tables; i++) {
        if (options->tables[i].is_binary
            && !add_path_section(catalog, options->tables[i].path, true, d))
            return false;
    }
    for (size_t i = 0; i < set->n_programs; i++) {
        if (!add_path_section(catalog, set->programs[i], false, d))
            return false;
    }
    for (size_t i = 0; i < options->n_tables; i++) {
        const char *name = options->tables[i].path;
        if (options->tables[i].is_binary)
            continue;
        struct byte_buffer contents = { 0 };
        bool ok = read_whole_file(name, &contents, d)
                  && path_catalog_read_text(catalog, contents.data, contents.size, name, d);
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
    const char *name = state->options->write_interesting;
    unsigned hot = state->options->hot;
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
        for (size_t p = 0; ok && p < f->n_paths && (!hot || p < hot); p++)
            ok = interesting_write_path(out, f->site->function, f->site->file, fn,
                                        f->paths[p].path, d);
    }
    if (fclose(out) != 0 && ok)
        ok = diag_fail(d, "cannot write %s: %s", name, strerror(errno));
    return ok;
}

static void write_paths(FILE *out, const struct invocation *invocation,
                        const struct function_view *views, size_t n, size_t n_more)
{
    switch (invocation->format) {
    case FORMAT_CSV:
        write_csv(out, views, n);
        break;
    case FORMAT_JSONL:
        write_jsonl(out, views, n);
        break;
    case FORMAT_HTML:
        write_paths_html(out, views, n, n_more, &invocation->source_dirs);
        break;
    default:
        write_text(out, views, n);
        write_functions_left_out(out, n_more, "", "\n");
    }
}

static int run_paths(const struct invocation *invocation, struct diag *d)
{
    struct run_set *set = invocation->runs;
    struct paths_state state = { 0 };
    struct path_catalog catalog = { 0 };
    state.options = COMMAND_OPTIONS(invocation, struct paths_options);
    state.n_units = set->catalog.n_units;
    state.slot_of = xcalloc(state.n_units ? state.n_units : 1, sizeof *state.slot_of);
    bool ok = load_path_tables(set, &catalog, d) && run_set_visit(set, paths_run, &state, d);
    if (ok) {
        /* The index is not used after this.  */
        for (size_t i = 0; i < state.n_functions; i++)
            qsort(state.functions[i].paths, state.functions[i].n_paths,
                  sizeof *state.functions[i].paths, by_traversals);
        qsort(state.functions, state.n_functions, sizeof *state.functions,
              functions_by_traversals);
        /* Pages and listings for a reader stop at --functions; csv and
           jsonl, for programs, have every function.  */
        size_t shown = state.n_functions, limit = state.options->functions;
        if ((invocation->format == FORMAT_TEXT || invocation->format == FORMAT_HTML)
            && limit && shown > limit)
            shown = limit;
        struct function_view *views = make_views(&state, &catalog, shown);
        if (state.options->write_interesting)
            ok = write_interesting(&state, &catalog, &invocation->inputs, d);
        if (ok)
            write_paths(stdout, invocation, views, shown, state.n_functions - shown);
        free_views(views, shown);
    }
    for (size_t u = 0; u < state.n_units; u++)
        free(state.slot_of[u]);
    free(state.slot_of);
    for (size_t i = 0; i < state.n_functions; i++) {
        free(state.functions[i].paths);
        free(state.functions[i].index);
    }
    free(state.functions);
    path_catalog_free(&catalog);
    return ok ? EXIT_FINE : EXIT_BAD_INPUT;
}

static int take_paths_option(const struct invocation *invocation, int argc, char **argv, int *i)
{
    struct paths_options *options = COMMAND_OPTIONS(invocation, struct paths_options);
    const struct command *self = invocation->command;
    const char *value;
    if (command_option_value("--function", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(self, "--function wants a function's name"), -1;
        options->function = value;
        return 1;
    }
    if (command_option_value("--write-interesting", argc, argv, i, &value)) {
        if (!value || !*value)
            return command_usage_error(self, "--write-interesting wants a file name"), -1;
        options->write_interesting = value;
        return 1;
    }
    int taken = command_whole_number_option(invocation, "--hot", 1, 1000000, argc, argv, i,
                                            &options->hot);
    if (!taken)
        taken = command_whole_number_option(invocation, "--top", 1, 1000000, argc, argv, i,
                                            &options->top);
    if (!taken)
        taken = command_limit_option(invocation, "--functions", argc, argv, i,
                                     &options->functions);
    return taken;
}

static int check_paths_options(const struct invocation *invocation)
{
    const struct paths_options *options = COMMAND_OPTIONS(invocation, struct paths_options);
    if (options->hot && !options->write_interesting)
        return command_usage_error(invocation->command,
                                   "--hot goes with --write-interesting");
    return EXIT_FINE;
}

static void init_paths_options(void *options)
{
    *(struct paths_options *) options = (struct paths_options) {
        .top = 10, .functions = DEFAULT_SHOWN_LIMIT,
    };
}

const struct command paths_command = {
    .name = "paths",
    .synopsis = "(INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... "
                "[--function=F] [--top=N] [--functions=N|all] "
                "[--format=text|csv|jsonl|html] [--source-dir DIR]... "
                "[--write-interesting FILE [--hot=N]]",
    .summary = "Show each function's hot paths (the paths scheme) combined over every run,\n"
               "hottest functions first: each path's estimated traversals (sampled count\n"
               "over the paths site's rate: times the sparsity at the default weight) with\n"
               "a 95% interval (exact at rate 1; else the Poisson score interval on the\n"
               "count), spelled as the source lines it runs through,\n"
               "the directions of its branches and the line where it leaves its region.",
    .options_help =
        RUN_OPTIONS_HELP
        STORE_OPTIONS_HELP
        "  --function=F     only function F\n"
        "  --top=N          paths shown per function, 1 to 1000000 (10)\n"
        "  --functions=N    text and html: functions shown at most, hottest first, or\n"
        "                   all (50)\n"
        "  --format=F       text (default), csv (one row per function and path),\n"
        "                   jsonl (one object per function, its paths in \"hot\") or\n"
        "                   html (one page: each function's paths over its source)\n"
        SOURCE_DIR_OPTION_HELP
        "  --write-interesting=FILE  write each function's hottest paths as an\n"
        "                   interesting-paths file, for the plugin's\n"
        "                   paths-interesting=FILE (docs/paths.md)\n"
        "  --hot=N          with --write-interesting: each function's N hottest (all)\n",
    .inputs = INPUTS_RUNS,
    .reads_store = true,
    .formats = FORMAT_SET_ALL,
    .formats_expected = "text, csv, jsonl or html",
    .source_dirs = true,
    .progress = "reading",
    .options_size = sizeof (struct paths_options),
    .init = init_paths_options,
    .take_option = take_paths_option,
    .check = check_paths_options,
    .run = run_paths,
};
