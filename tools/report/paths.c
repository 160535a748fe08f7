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
#include "sources.h"
#include "textout.h"
#include "util.h"

#define CONFIDENCE 0.95
/* Steps shown of one path: a path visits each block once.  */
#define MAX_STEPS 4096

static struct {
    unsigned top;
    const char *function;
    enum command_format format;
    struct source_dirs source_dirs;
    const char *write_interesting;  /* each function's --hot paths to this file */
    unsigned hot;
} paths_options;

struct path_total {
    unsigned long long path;
    unsigned long long count;     /* sampled traversals, over the runs */
    double traversals;            /* estimated: count over the site's rate, summed */
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
    double scale;                 /* traversals per sample (1 / the site's rate) in
                                     every run, or 0 when they differ */
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
            if (paths_options.function && strcmp(site->function, paths_options.function) != 0)
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

/* A shown path, decoded once for every writer.  */
struct path_view {
    const struct path_total *total;
    double low, high;             /* the interval of its traversals */
    long region_line;             /* 0 when not decoded */
    struct path_step *steps;      /* none when not decoded */
    size_t n_steps;
    char *spelled;                /* as source lines and branches, or why not */
};

/* A function and its shown paths.  */
struct function_view {
    const struct function_paths *paths;
    const struct path_function *table;   /* NULL: no path table */
    struct path_view *shown;
    size_t n_shown;
};

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

/* The views of STATE's functions, in order, each with its hottest
   --top paths decoded.  */
static struct function_view *make_views(const struct paths_state *state,
                                        const struct path_catalog *catalog)
{
    struct function_view *views = xcalloc(state->n_functions ? state->n_functions : 1,
                                          sizeof *views);
    for (size_t i = 0; i < state->n_functions; i++) {
        const struct function_paths *f = &state->functions[i];
        struct function_view *view = &views[i];
        view->paths = f;
        view->table = path_catalog_find(catalog, f->table->signature, f->site->index);
        view->n_shown = f->n_paths < paths_options.top ? f->n_paths : paths_options.top;
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

/* How a path passes a source line, for the HTML page.  */
enum {
    MARK_RUN = 1,       /* a line of one of its blocks */
    MARK_TRUE = 2,      /* a branch taken true, false, a switch case, the way out */
    MARK_FALSE = 4,
    MARK_SWITCH = 8,
    MARK_EXIT = 16,
};

static unsigned step_mark(const struct path_step *s)
{
    if (strcmp(s->how, "true") == 0)
        return MARK_TRUE;
    if (strcmp(s->how, "false") == 0)
        return MARK_FALSE;
    if (strcmp(s->how, "switch") == 0)
        return MARK_SWITCH;
    if (strcmp(s->how, "exit") == 0)
        return MARK_EXIT;
    return 0;
}

/* Marks, in column COLUMN of MARKS (a row per line from FIRST to LAST,
   STRIDE wide), the lines V's steps pass and how.  */
static void mark_path(const struct path_view *v, unsigned char *marks, long first, long last,
                      size_t stride, size_t column)
{
    for (size_t i = 0; i < v->n_steps; i++) {
        const struct path_step *s = &v->steps[i];
        for (long line = s->first_line; line > 0 && line <= s->last_line; line++)
            if (line >= first && line <= last)
                marks[(size_t)(line - first) * stride + column] |= MARK_RUN;
        unsigned how = step_mark(s);
        long line = s->line ? s->line : s->last_line;
        if (how && line >= first && line <= last)
            marks[(size_t)(line - first) * stride + column] |= (unsigned char) how;
    }
}

/* Widens *FIRST to *LAST (0: none yet) to the lines V's steps name.  */
static void path_lines(const struct path_view *v, long *first, long *last)
{
    for (size_t i = 0; i < v->n_steps; i++) {
        const struct path_step *s = &v->steps[i];
        long lines[3] = { s->first_line, s->last_line, s->line };
        for (int k = 0; k < 3; k++) {
            if (lines[k] <= 0)
                continue;
            if (*first == 0 || lines[k] < *first)
                *first = lines[k];
            if (lines[k] > *last)
                *last = lines[k];
        }
    }
}

static void write_mark(FILE *out, unsigned mark)
{
    static const struct { unsigned bit; const char *text; } names[] = {
        { MARK_TRUE, "T" }, { MARK_FALSE, "F" }, { MARK_SWITCH, "S" }, { MARK_EXIT, "X" },
    };
    if (!mark) {
        fputs("<td></td>", out);
        return;
    }
    fputs(mark & ~MARK_RUN ? "<td class=branch>" : "<td class=run>", out);
    bool any = false;
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        if (mark & names[k].bit) {
            fprintf(out, "%s%s", any ? " " : "", names[k].text);
            any = true;
        }
    }
    fputs(any ? "</td>" : "&#x2022;</td>", out);
}

/* Lines no shown path passes, this many or more in a row, are folded.  */
#define FOLD_LINES 6

static bool line_marked(const unsigned char *marks, size_t stride, size_t row)
{
    for (size_t p = 0; p < stride; p++)
        if (marks[row * stride + p])
            return true;
    return false;
}

/* The function's source from its first to its last line any shown path
   names, a column per path marking the lines it runs and its branches'
   directions; or a note saying why not.  */
static void write_source(FILE *out, const struct function_view *view, struct sources *sources)
{
    const struct function_paths *f = view->paths;
    long first = 0, last = 0;
    for (size_t p = 0; p < view->n_shown; p++)
        path_lines(&view->shown[p], &first, &last);
    if (first == 0) {
        fputs("<p class=note>No source lines: the paths could not be decoded (see above).</p>\n",
              out);
        return;
    }
    const struct source_file *source = sources_find(sources, f->site->file);
    if (!source->found) {
        fputs("<p class=note>Source file <code>", out);
        html_text(out, f->site->file);
        fputs("</code> not found (give --source-dir DIR): the paths are shown as lines "
              "only.</p>\n", out);
        return;
    }
    if (f->site->line >= 1 && (long) f->site->line < first)
        first = (long) f->site->line;
    if ((size_t) last > source->n_lines)
        last = (long) source->n_lines;
    if (first > last) {
        fputs("<p class=note>Source file <code>", out);
        html_text(out, f->site->file);
        fprintf(out, "</code> has %zu lines, fewer than the paths name: it is not the file "
                "the program was built from.</p>\n", source->n_lines);
        return;
    }
    size_t stride = view->n_shown, n_lines = (size_t)(last - first + 1);
    unsigned char *marks = xcalloc(n_lines * stride, 1);
    for (size_t p = 0; p < view->n_shown; p++)
        mark_path(&view->shown[p], marks, first, last, stride, p);
    fputs("<table class=source>\n<thead><tr><th>line</th>", out);
    for (size_t p = 0; p < view->n_shown; p++)
        fprintf(out, "<th>#%zu</th>", p + 1);
    fputs("<th class=text>source</th></tr></thead>\n<tbody>\n", out);
    for (size_t l = 0; l < n_lines; l++) {
        size_t run = 0;
        while (l + run < n_lines && !line_marked(marks, stride, l + run)
               && first + (long)(l + run) != (long) f->site->line)
            run++;
        if (run >= FOLD_LINES) {
            fprintf(out, "<tr class=fold><td colspan=%zu>&#x22ee; lines %ld-%ld</td></tr>\n",
                    stride + 2, first + (long) l, first + (long)(l + run - 1));
            l += run - 1;
            continue;
        }
        fprintf(out, "<tr><td class=n>%ld</td>", first + (long) l);
        for (size_t p = 0; p < stride; p++)
            write_mark(out, marks[l * stride + p]);
        fputs("<td class=text>", out);
        html_text(out, source->lines[first + (long) l - 1]);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    free(marks);
}

/* One self-contained page: per function, a table of its hot paths and its
   source with each path's lines and branch directions marked.  */
static void write_html(FILE *out, const struct function_view *views, size_t n)
{
    struct sources sources = { paths_options.source_dirs.dirs,
                               paths_options.source_dirs.n_dirs, NULL, 0, 0 };
    html_page_start(out, "sampler-report paths",
                    "td,th{padding:.15em .5em}\n"
                    "table.paths td,table.paths th{border-bottom:1px solid #ddd}\n"
                    "table.source{font-family:monospace}\n"
                    "table.source td{text-align:center;padding:0 .4em}\n"
                    "table.source td.n{text-align:right;color:#888}\n"
                    "table.source td.text{text-align:left;white-space:pre}\n"
                    "td.run{background:#fde7a6}"
                    "td.branch{background:#f5b942;font-weight:bold}\n"
                    "tr.fold td{color:#888;text-align:left}\n"
                    "p.note{color:#a40}\n");
    fputs("<h1>Hot paths</h1>\n"
          "<p>Hottest functions first. Each path's estimated traversals are its sampled count "
          "times the sparsity, with a 95% interval (exact at sparsity 1; else the Poisson score "
          "interval on the count). Below each function's paths, its source: a column per path, "
          "shaded on the lines of the blocks the path runs through, with the direction it "
          "leaves a branch by (T true, F false, S a switch case) and X where it leaves its "
          "region.</p>\n", out);
    if (n == 0)
        fputs("<p>No paths were sampled.</p>\n", out);
    for (size_t i = 0; i < n; i++) {
        const struct function_paths *f = views[i].paths;
        const struct path_function *fn = views[i].table;
        fputs("<h2><code>", out);
        html_text(out, f->site->function);
        fputs("</code> &mdash; ", out);
        html_text(out, f->site->file);
        fprintf(out, ":%u</h2>\n<p>traversals %.0f, sampled %llu", f->site->line, f->traversals,
                f->sampled);
        if (fn)
            fprintf(out, ", paths %llu (%s)", fn->n_paths, fn->in_array ? "array" : "hash table");
        if (f->lost)
            fprintf(out, ", lost %llu (the table was full)", f->lost);
        fputs("</p>\n<table class=paths>\n<thead><tr><th>#</th><th>path</th>"
              "<th>traversals</th><th>95% interval</th><th>share</th><th>spelled</th></tr>"
              "</thead>\n<tbody>\n", out);
        for (size_t p = 0; p < views[i].n_shown; p++) {
            const struct path_view *v = &views[i].shown[p];
            const struct path_total *t = v->total;
            fprintf(out, "<tr><td class=n>%zu</td><td class=n>%llu</td><td class=n>%.0f</td>"
                    "<td class=n>%.0f&ndash;%.0f</td><td class=n>%.1f%%</td><td><code>",
                    p + 1, t->path, t->traversals, v->low, v->high,
                    f->traversals > 0 ? 100 * t->traversals / f->traversals : 0);
            html_text(out, v->spelled);
            fputs("</code></td></tr>\n", out);
        }
        fputs("</tbody></table>\n", out);
        write_source(out, &views[i], &sources);
    }
    fputs("</body></html>\n", out);
    sources_free(&sources);
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
        struct function_view *views = make_views(&state, &catalog);
        if (paths_options.write_interesting)
            ok = write_interesting(&state, &catalog, options, &d);
        if (!ok)
            fprintf(stderr, PROGRAM_NAME ": %s\n", d.message);
        else if (paths_options.format == FORMAT_CSV)
            write_csv(stdout, views, state.n_functions);
        else if (paths_options.format == FORMAT_JSONL)
            write_jsonl(stdout, views, state.n_functions);
        else if (paths_options.format == FORMAT_HTML)
            write_html(stdout, views, state.n_functions);
        else
            write_text(stdout, views, state.n_functions);
        free_views(views, state.n_functions);
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
    int taken = command_format_option(self, argc, argv, i, FORMAT_SET_ALL,
                                      &paths_options.format);
    if (!taken)
        taken = source_dir_option(self, argc, argv, i, &paths_options.source_dirs);
    if (taken)
        return taken;
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
    taken = command_whole_number_option(self, "--hot", 1, 1000000, argc, argv, i,
                                        &paths_options.hot);
    if (taken != 0)
        return taken;
    return command_whole_number_option(self, "--top", 1, 1000000, argc, argv, i,
                                       &paths_options.top);
}

static int paths_main(const struct command *self, int argc, char **argv)
{
    struct run_options options = { 0 };
    paths_options.top = 10;
    paths_options.function = NULL;
    paths_options.format = FORMAT_TEXT;
    paths_options.source_dirs.n_dirs = 0;
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
    free(paths_options.source_dirs.dirs);
    paths_options.source_dirs = (struct source_dirs) { 0 };
    return status;
}

const struct command paths_command = {
    .name = "paths",
    .synopsis = "(INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... [--function=F] [--top=N] "
                "[--format=text|csv|jsonl|html] [--source-dir DIR]... "
                "[--write-interesting FILE [--hot=N]]",
    .summary = "Show each function's hot paths (the paths scheme) combined over every run,\n"
               "hottest functions first: each path's estimated traversals (sampled count\n"
               "over the paths site's rate: times the sparsity at the default weight) with\n"
               "a 95% interval (exact at rate 1; else the Poisson score interval on the\n"
               "count), spelled as the source lines it runs through,\n"
               "the directions of its branches and the line where it leaves its region.",
    .options =
        RUN_OPTIONS_HELP
        STORE_OPTIONS_HELP
        "  --function=F     only function F\n"
        "  --top=N          paths shown per function, 1 to 1000000 (10)\n"
        "  --format=F       text (default), csv (one row per function and path),\n"
        "                   jsonl (one object per function, its paths in \"hot\") or\n"
        "                   html (one page: each function's paths over its source)\n"
        SOURCE_DIR_OPTION_HELP
        "  --write-interesting=FILE  write each function's hottest paths as an\n"
        "                   interesting-paths file, for the plugin's\n"
        "                   paths-interesting=FILE (docs/paths.md)\n"
        "  --hot=N          with --write-interesting: each function's N hottest (all)\n",
    .run = paths_main,
};
