/* sampler-report subpaths: the hot subpaths of the subpaths scheme's
   per-thread hot-lists, combined over threads and runs, with estimated
   counts and Chernoff bounds (docs/subpaths.md).

   A subpath of 2^n blocks is in a list, as one unit of its count, when
   its first block's visit was sampled (that block's site's rate r: 1 /
   sparsity at the default weight), its length drawn (P(2^n): 2^-n below
   the list's longest, 2^-(max-1) at it; 1 when every length is recorded)
   and its unit kept (1/tau): independently for each occurrence.  So a
   list's subpaths of one length and one first block's weight are a
   concise sample at tau / (r P(2^n)) occurrences per unit, and the lists
   of every thread and run combine class by class (length and weight) as
   the values' hot-lists do (hot_list_merge: thinned to the larger
   scale).  A subpath's first block is always the same site, so each
   subpath is in one class.  The estimate is
   count * scale; its bounds are the means m that the count's Chernoff
   bounds do not reject at the confidence, times the scale (none at scale
   1, where the count is exact).  */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "combining/run-set.h"
#include "commands/command.h"
#include "output/formats.h"
#include "output/sources.h"
#include "schemes/registry.h"
#include "schemes/subpaths/subpath-records.h"
#include "schemes/values/hotlist.h"
#include "support/util.h"

#define LENGTH_CLASSES 11          /* 2^1 .. 2^10 */
#define CLASS_CAPACITY 65536


struct subpaths_options {
    unsigned top;
    unsigned length;               /* 0: every length */
    double confidence;
};

/* A distinct subpath: its blocks as sites of the catalog's tables.  */
struct subpath_spelled {
    char *key;
    unsigned length;
    const struct site **sites;
};

/* The subpaths of 2^n blocks whose first block's site has one weight.  */
struct subpath_class {
    unsigned n;
    unsigned weight;
    struct hot_list list;
};

struct subpaths_state {
    struct name_index ids;         /* key -> index in spelled */
    struct subpath_spelled *spelled;
    size_t n_spelled, capacity;
    struct subpath_class *classes;
    size_t n_classes, classes_capacity;
    struct hot_random random;
    unsigned long long lists, offered, dropped, unspelled;
};

/* The probability that a start draws 2^N blocks in LIST.  */
static double length_probability(const struct subpath_list *list, unsigned n)
{
    if (list->all_lengths)
        return 1;
    if (n > list->max_log2)
        return 0;
    return ldexp(1, -(int)(n < list->max_log2 ? n : list->max_log2 - 1));
}

/* The site table of the report's unit U in RUN, or NULL.  */
static const struct unit_table *table_of(const struct run_view *run, unsigned u)
{
    const char *signature = run->report->units[u].signature;
    for (size_t i = 0; i < run->n_units; i++)
        if (strcmp(run->units[i].totals->table->signature, signature) == 0)
            return run->units[i].totals->table;
    return NULL;
}

/* ENTRY's id among the distinct subpaths, or -1 (a unit without a table);
   false after a diagnostic (a block that is no subpaths site).  */
static bool subpath_id(struct subpaths_state *state, const struct run_view *run,
                       const struct subpath_entry *entry, long *id, struct diag *d)
{
    struct byte_buffer key = { 0 };
    const struct site **sites = xcalloc(entry->length, sizeof *sites);
    *id = -1;
    for (unsigned b = 0; b < entry->length; b++) {
        const struct unit_table *table = table_of(run, entry->blocks[b].unit);
        if (table == NULL) {
            free(sites);
            buffer_free(&key);
            return true;
        }
        const struct site *site = &table->sites[entry->blocks[b].site];
        if (!site_is_subpath_block(site)) {
            free(sites);
            buffer_free(&key);
            return diag_fail(d, "%s:%lu: subpath block %u:%u is a %s site, not a block",
                             run->origin, entry->line_number, entry->blocks[b].unit,
                             entry->blocks[b].site, scheme_infos[site->scheme].name);
        }
        sites[b] = site;
        char text[32];
        snprintf(text, sizeof text, ":%u,", site->index);
        buffer_append(&key, table->signature, strlen(table->signature));
        buffer_append(&key, text, strlen(text));
    }
    buffer_append(&key, "", 1);
    size_t found;
    if (name_index_find(&state->ids, (const char *)key.data, &found)) {
        free(sites);
        buffer_free(&key);
        *id = (long)found;
        return true;
    }
    grow_array((void **)&state->spelled, &state->capacity, state->n_spelled + 1,
               sizeof *state->spelled);
    struct subpath_spelled *s = &state->spelled[state->n_spelled];
    s->key = xstrdup((const char *)key.data);
    s->length = entry->length;
    s->sites = sites;
    buffer_free(&key);
    name_index_put(&state->ids, s->key, state->n_spelled);
    *id = (long)state->n_spelled++;
    return true;
}

/* The class of subpaths of 2^N blocks whose first block weighs WEIGHT,
   made if there is none yet.  */
static struct hot_list *class_of(struct subpaths_state *state, unsigned n, unsigned weight)
{
    for (size_t i = 0; i < state->n_classes; i++)
        if (state->classes[i].n == n && state->classes[i].weight == weight)
            return &state->classes[i].list;
    grow_array((void **)&state->classes, &state->classes_capacity, state->n_classes + 1,
               sizeof *state->classes);
    struct subpath_class *c = &state->classes[state->n_classes++];
    c->n = n;
    c->weight = weight;
    hot_list_init(&c->list, CLASS_CAPACITY);
    return &c->list;
}

/* One run's list's subpaths of one length and first block's weight.  */
struct run_class {
    unsigned weight;
    struct hot_list from;
};

static bool subpaths_run(void *context, const struct run_view *run, struct diag *d)
{
    struct subpaths_state *state = context;
    const struct run_report *report = run->report;
    struct run_class *froms = NULL;
    size_t n_froms = 0, froms_capacity = 0;
    bool ok = true;
    const struct subpath_lists *lists = subpath_lists_of(report);
    for (size_t l = 0; lists && l < lists->n_lists && ok; l++) {
        const struct subpath_list *list = &lists->lists[l];
        state->lists++;
        state->offered += list->offered;
        state->dropped += list->dropped;
        for (unsigned n = 1; n < LENGTH_CLASSES && ok; n++) {
            double p = length_probability(list, n);
            if (p == 0 || report->sparsity == 0)
                continue;
            n_froms = 0;
            for (size_t e = 0; e < list->n_entries; e++) {
                const struct subpath_entry *entry = &list->entries[e];
                if (entry->length != 1U << n)
                    continue;
                long id;
                if (!subpath_id(state, run, entry, &id, d)) {
                    ok = false;
                    break;
                }
                if (id < 0) {
                    state->unspelled += entry->count;
                    continue;
                }
                const struct site *first = state->spelled[id].sites[0];
                if (first->weight == 0) {
                    ok = diag_fail(d, "%s:%lu: a subpath starts at block %u:%u, which has "
                                   "weight 0 (not instrumented)", run->origin,
                                   entry->line_number, entry->blocks[0].unit,
                                   entry->blocks[0].site);
                    break;
                }
                size_t c = 0;
                while (c < n_froms && froms[c].weight != first->weight)
                    c++;
                if (c == n_froms) {
                    grow_array((void **)&froms, &froms_capacity, n_froms + 1, sizeof *froms);
                    froms[c].weight = first->weight;
                    hot_list_init(&froms[c].from,
                                  (unsigned)(list->n_entries ? list->n_entries : 1));
                    froms[c].from.tau = ldexp(1, (int)list->tau_log2)
                                        * site_visits_per_sample(report->sparsity,
                                                                 report->countdown_unit,
                                                                 first->weight) / p;
                    n_froms++;
                }
                struct hot_list *from = &froms[c].from;
                unsigned i = 0;
                while (i < from->n_entries && from->entries[i].value != (uint64_t)id)
                    i++;
                if (i == from->n_entries) {
                    from->entries[i].value = (uint64_t)id;
                    from->n_entries++;
                }
                from->entries[i].count += entry->count;
            }
            for (size_t c = 0; c < n_froms; c++) {
                if (ok)
                    hot_list_merge(class_of(state, n, froms[c].weight), &froms[c].from,
                                   &state->random);
                hot_list_free(&froms[c].from);
            }
        }
    }
    free(froms);
    return ok;
}

/* The Chernoff bounds on the mean m of a count C (a sum of independent
   Bernoulli trials, or Poisson) at level 1 - delta: the m whose tails,
   exp(-(m - C)^2 / 2m) below and exp(-(C - m)^2 / (C + m)) above, are at
   least delta / 2 at C.  */
static void chernoff_bounds(double c, double confidence, double *low, double *high)
{
    double l = log(2 / (1 - confidence));
    *high = c + l + sqrt(l * l + 2 * c * l);
    double m = c + l / 2 - sqrt(l * l / 4 + 2 * c * l);
    *low = m > 0 ? m : 0;
}

struct shown {
    const struct subpath_spelled *spelled;
    unsigned long long count;
    double scale, estimate, low, high;
};

/* Surely hot first: by the lower bound, then the estimate.  A subpath
   seen once has a large estimate when long subpaths are rare (a scale of
   tau / rate * 2^n), and a lower bound of 0.  */
static int by_estimate(const void *pa, const void *pb)
{
    const struct shown *a = pa, *b = pb;
    if (a->low != b->low)
        return a->low > b->low ? -1 : 1;
    if (a->estimate != b->estimate)
        return a->estimate > b->estimate ? -1 : 1;
    return strcmp(a->spelled->key, b->spelled->key);
}

static void write_blocks(FILE *out, const struct subpath_spelled *s, const char *separator)
{
    for (unsigned b = 0; b < s->length; b++)
        fprintf(out, "%s%s:%u", b ? separator : "", s->sites[b]->function, s->sites[b]->line);
}

/* S's blocks as "function:line function:line".  */
static char *blocks_text(const struct subpath_spelled *s)
{
    struct byte_buffer blocks = { 0 };
    for (unsigned b = 0; b < s->length; b++) {
        const struct site *site = s->sites[b];
        char line[32];
        if (b)
            buffer_append(&blocks, " ", 1);
        buffer_append(&blocks, site->function, strlen(site->function));
        snprintf(line, sizeof line, ":%u", site->line);
        buffer_append(&blocks, line, strlen(line));
    }
    buffer_append(&blocks, "", 1);
    return blocks.data;
}

/* S's blocks as "signature:index signature:index": two blocks on one line
   read the same as function:line.  */
static char *sites_text(const struct subpath_spelled *s)
{
    size_t key_length = strlen(s->key);
    char *sites = xstrdup(s->key);
    if (key_length > 0)
        sites[key_length - 1] = '\0';   /* the last comma */
    for (char *c = sites; *c; c++)
        if (*c == ',')
            *c = ' ';
    return sites;
}

static void write_csv(FILE *out, const struct subpaths_options *options,
                      const struct shown *shown, size_t n_shown)
{
    fputs("rank,estimate,low,high,confidence,length,count,scale,file,blocks,sites\n", out);
    for (size_t i = 0; i < n_shown; i++) {
        const struct shown *s = &shown[i];
        fprintf(out, "%zu,%.0f,%.0f,%.0f,%g,%u,%llu,%.6g,", i + 1, s->estimate, s->low,
                s->high, options->confidence, s->spelled->length, s->count,
                s->scale);
        csv_field(out, s->spelled->sites[0]->file, false);
        char *blocks = blocks_text(s->spelled);
        csv_field(out, blocks, false);
        free(blocks);
        char *sites = sites_text(s->spelled);
        csv_field(out, sites, true);
        free(sites);
    }
}

/* One object per subpath, its blocks in an array.  */
static void write_jsonl(FILE *out, const struct subpaths_options *options,
                        const struct shown *shown, size_t n_shown)
{
    for (size_t i = 0; i < n_shown; i++) {
        const struct shown *s = &shown[i];
        fprintf(out, "{\"rank\":%zu,\"estimate\":%.17g,\"low\":%.17g,\"high\":%.17g,"
                "\"confidence\":%g,\"length\":%u,\"count\":%llu,\"scale\":%.17g",
                i + 1, s->estimate, s->low, s->high, options->confidence,
                s->spelled->length, s->count, s->scale);
        fputs(",\"blocks\":[", out);
        char *sites = sites_text(s->spelled);
        char *next = sites;
        for (unsigned b = 0; b < s->spelled->length; b++) {
            const struct site *site = s->spelled->sites[b];
            char *word = next;
            next = strchr(word, ' ');
            if (next)
                *next++ = '\0';
            fputs(b ? ",{" : "{", out);
            json_key(out, "function", true);
            json_string(out, site->function);
            json_symbol(out, site);
            json_key(out, "file", false);
            json_string(out, site->file);
            fprintf(out, ",\"line\":%u", site->line);
            json_key(out, "site", false);
            json_string(out, word);
            fputc('}', out);
        }
        free(sites);
        fputs("]}\n", out);
    }
}

static void write_text(FILE *out, const struct subpaths_options *options,
                       const struct subpaths_state *state, const struct shown *shown,
                       size_t n_shown)
{
    fprintf(out, "%llu subpath lists, %llu subpaths sampled (%llu dropped, "
            "%llu in units without a site table); estimated counts with "
            "Chernoff bounds at %g%% confidence\n",
            state->lists, state->offered, state->dropped, state->unspelled,
            100 * options->confidence);
    for (size_t i = 0; i < n_shown; i++) {
        const struct shown *s = &shown[i];
        fprintf(out, "%zu. %.0f [%.0f, %.0f]  %u blocks, %llu in the sample\n   ",
                i + 1, s->estimate, s->low, s->high, s->spelled->length, s->count);
        write_blocks(out, s->spelled, " -> ");
        fputc('\n', out);
    }
}

/* One self-contained page: a row per subpath, its blocks as function:line
   with their source lines where the files are found.  */
static void write_html(FILE *out, const struct invocation *invocation,
                       const struct subpaths_state *state, const struct shown *shown,
                       size_t n_shown)
{
    const struct subpaths_options *options = COMMAND_OPTIONS(invocation,
                                                             struct subpaths_options);
    struct sources sources;
    sources_init(&sources, &invocation->source_dirs);
    html_page_start(out, "sampler-report subpaths",
                    "td,th{padding:.2em .5em;border-bottom:1px solid #ddd}\n"
                    "ol.blocks{margin:0;padding-left:2.5em;font-family:monospace}\n"
                    "ol.blocks span.source{color:#555;white-space:pre}\n"
                    "span.note{color:#a40}\n");
    fputs("<h1>Hot subpaths</h1>\n", out);
    fprintf(out, "<p>%llu subpath lists, %llu subpaths sampled (%llu dropped, %llu in units "
            "without a site table). Surely hottest first: by the lower bound of the estimated "
            "count, then the estimate; bounds are Chernoff bounds at %g%% confidence (exact "
            "where the scale is 1).</p>\n", state->lists, state->offered, state->dropped,
            state->unspelled, 100 * options->confidence);
    if (n_shown == 0) {
        fputs("<p>No subpaths were sampled.</p>\n", out);
    } else {
        fputs("<table>\n<thead><tr><th>#</th><th>estimate</th><th>bounds</th><th>blocks</th>"
              "<th>in the sample</th><th>scale</th><th>the blocks, in order</th></tr></thead>\n"
              "<tbody>\n", out);
    }
    for (size_t i = 0; i < n_shown; i++) {
        const struct shown *s = &shown[i];
        fprintf(out, "<tr><td class=n>%zu</td><td class=n>%.0f</td>"
                "<td class=n>%.0f&ndash;%.0f</td><td class=n>%u</td><td class=n>%llu</td>"
                "<td class=n>%.6g</td><td><ol class=blocks>\n", i + 1, s->estimate, s->low,
                s->high, s->spelled->length, s->count, s->scale);
        for (unsigned b = 0; b < s->spelled->length; b++) {
            const struct site *site = s->spelled->sites[b];
            const struct source_file *source = sources_find(&sources, site->file);
            fputs("<li>", out);
            html_function(out, site);
            fprintf(out, ":%u ", site->line);
            if (source->found && site->line >= 1 && site->line <= source->n_lines) {
                fputs("<span class=source>", out);
                html_text(out, source->lines[site->line - 1]);
                fputs("</span>", out);
            } else {
                fputs("<span class=note>(", out);
                html_text(out, site->file);
                fputs(source->found ? ": no such line)" : " not found)", out);
                fputs("</span>", out);
            }
            fputs("</li>\n", out);
        }
        fputs("</ol></td></tr>\n", out);
    }
    if (n_shown)
        fputs("</tbody></table>\n", out);
    fputs("</body></html>\n", out);
    sources_free(&sources);
}

/* The subpaths of the classes STATE combined (only those of --length),
   surely hottest first, at most --top of them; *N_SHOWN of them.  */
static struct shown *hottest(const struct subpaths_state *state,
                             const struct subpaths_options *options, size_t *n_shown)
{
    struct shown *shown = NULL;
    *n_shown = 0;
    for (size_t c = 0; c < state->n_classes; c++) {
        const struct hot_list *list = &state->classes[c].list;
        if (options->length && options->length != 1U << state->classes[c].n)
            continue;
        shown = xrealloc(shown, (*n_shown + list->n_entries + 1) * sizeof *shown);
        for (unsigned i = 0; i < list->n_entries; i++) {
            if (list->entries[i].count == 0)
                continue;
            struct shown *s = &shown[(*n_shown)++];
            s->spelled = &state->spelled[list->entries[i].value];
            s->count = list->entries[i].count;
            s->scale = list->tau;
            s->estimate = (double)s->count * s->scale;
            /* At scale 1 (rate 1, every length, tau 1) every occurrence is
               counted: the count is exact.  */
            if (s->scale == 1) {
                s->low = s->high = s->estimate;
            } else {
                chernoff_bounds((double)s->count, options->confidence, &s->low, &s->high);
                s->low *= s->scale;
                s->high *= s->scale;
            }
        }
    }
    if (*n_shown > 1)
        qsort(shown, *n_shown, sizeof *shown, by_estimate);
    if (*n_shown > options->top)
        *n_shown = options->top;
    return shown;
}

static int run_subpaths(const struct invocation *invocation, struct diag *d)
{
    const struct subpaths_options *options = COMMAND_OPTIONS(invocation,
                                                             struct subpaths_options);
    struct subpaths_state state = { 0 };
    hot_random_init(&state.random, HOT_RANDOM_SEED);
    bool ok = run_set_visit(invocation->runs, subpaths_run, &state, d);
    if (ok) {
        size_t n_shown;
        struct shown *shown = hottest(&state, options, &n_shown);
        switch (invocation->format) {
        case FORMAT_CSV:
            write_csv(stdout, options, shown, n_shown);
            break;
        case FORMAT_JSONL:
            write_jsonl(stdout, options, shown, n_shown);
            break;
        case FORMAT_HTML:
            write_html(stdout, invocation, &state, shown, n_shown);
            break;
        default:
            write_text(stdout, options, &state, shown, n_shown);
        }
        free(shown);
    }
    for (size_t c = 0; c < state.n_classes; c++)
        hot_list_free(&state.classes[c].list);
    free(state.classes);
    for (size_t i = 0; i < state.n_spelled; i++) {
        free(state.spelled[i].key);
        free(state.spelled[i].sites);
    }
    free(state.spelled);
    name_index_free(&state.ids);
    return ok ? EXIT_FINE : EXIT_BAD_INPUT;
}

static bool is_confidence(double p)
{
    return p > 0 && p < 1;
}

static int take_subpaths_option(const struct invocation *invocation, int argc, char **argv,
                                int *i)
{
    struct subpaths_options *options = COMMAND_OPTIONS(invocation, struct subpaths_options);
    const char *value;
    char *end;
    int taken = command_whole_number_option(invocation, "--top", 1, 100000, argc, argv, i,
                                            &options->top);
    if (taken)
        return taken;
    if (command_option_value("--length", argc, argv, i, &value)) {
        long n = value && *value ? strtol(value, &end, 10) : -1;
        if (!value || !*value || *end || n < 2 || n > 1024 || (n & (n - 1)) != 0)
            return command_usage_error(invocation->command, "--length wants a power of two "
                                       "from 2 to 1024, not '%s'", value ? value : ""), -1;
        options->length = (unsigned) n;
        return 1;
    }
    return command_real_option(invocation, "--confidence", "a number above 0 and below 1",
                               is_confidence, argc, argv, i, &options->confidence);
}

static void init_subpaths_options(void *options)
{
    *(struct subpaths_options *) options = (struct subpaths_options) { .top = 10,
                                                                       .confidence = 0.95 };
}

const struct command subpaths_command = {
    .name = "subpaths",
    .synopsis = "(INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... "
                "[--top=N] [--length=L] "
                "[--confidence=P] [--format=text|csv|jsonl|html] [--source-dir DIR]...",
    .summary = "Show the hot subpaths of the subpaths scheme, combined over every thread and\n"
               "run, surely hottest first (by the lower bound): each one's estimated count\n"
               "(its first block's rate taken into account) with its Chernoff bounds and\n"
               "its blocks as function:line.",
    .options_help =
        RUN_OPTIONS_HELP
        STORE_OPTIONS_HELP
        "  --top=N          subpaths shown, 1 to 100000 (10)\n"
        "  --length=L       only subpaths of L blocks, a power of two from 2 to 1024\n"
        "  --confidence=P   the bounds' confidence, above 0 and below 1 (0.95)\n"
        "  --format=F       text (default), csv (one row per subpath), jsonl (one\n"
        "                   object per subpath, its blocks in \"blocks\") or html (one\n"
        "                   page, each block with its source line)\n"
        SOURCE_DIR_OPTION_HELP,
    .inputs = INPUTS_RUNS,
    .reads_store = true,
    .formats = FORMAT_SET_ALL,
    .formats_expected = "text, csv, jsonl or html",
    .source_dirs = true,
    .progress = "reading",
    .options_size = sizeof (struct subpaths_options),
    .init = init_subpaths_options,
    .take_option = take_subpaths_option,
    .run = run_subpaths,
};
