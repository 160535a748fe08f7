/* sampler-report values: each values site's hot-list, combined over every
   run, with its top values, their estimated visits and shares and their
   95% intervals, and whether the site is invariant or semi-invariant
   (Burrows et al., ASPLOS 2000; docs/values.md says how).  Sites are
   listed by the lower bound of their top value's share, so invariant
   and semi-invariant sites come first; pointers' values are combined in
   a form that holds in every run (a function, an object and offset, or
   heap, stack or other with an alignment), never as raw addresses.  */
#include <stdlib.h>
#include <string.h>

#include "combining/run-set.h"
#include "commands/command.h"
#include "input/symbols.h"
#include "output/formats.h"
#include "schemes/registry.h"
#include "schemes/values/hotlist.h"
#include "support/util.h"

#define CONFIDENCE 0.95

struct values_options {
    double min_share;
    unsigned top;
    double fold_below;     /* text and html: sites whose top share's lower
                              bound is below it make one count line */
    unsigned max_sites;    /* text and html: sites shown at most; 0: all */
    bool raw_pointers;     /* pointers' raw addresses (one run's only) */
};

/* One site's list, combined over the runs so far.  */
struct site_values {
    const struct unit_table *table;
    const struct site *site;
    struct hot_list list;
    bool is_pointer;
    bool is_target;     /* an indirect call's: values are code addresses */
    bool is_named;      /* values are indices in the state's names */
    double top_share_low;   /* the top value's share's lower bound; 0: none */
};

struct values_state {
    const struct values_options *options;
    /* Per catalog unit, per site: its position in SITES plus 1, or 0.  */
    size_t **slot_of;
    size_t n_units;
    struct site_values *sites;
    size_t n_sites, capacity;
    struct hot_random random;
    struct hot_list scratch;
    /* Indirect-call targets and pointers' values, named in each run
       (addresses differ from run to run), and their lists keyed by name.  */
    struct symbol_namer namer;
    char **names;
    size_t n_names, names_capacity;
    struct name_index names_index;
    unsigned long long *named_slots;
    size_t named_slots_size;
};

/* The index of the target NAME in the state's names.  */
static uint64_t name_id(struct values_state *state, const char *name)
{
    size_t id;
    if (name_index_find(&state->names_index, name, &id))
        return id;
    if (state->n_names == state->names_capacity) {
        state->names_capacity = state->names_capacity ? 2 * state->names_capacity : 64;
        state->names = xrealloc(state->names,
                                       state->names_capacity * sizeof *state->names);
    }
    id = state->n_names++;
    state->names[id] = xstrdup(name);
    name_index_put(&state->names_index, state->names[id], id);
    return id;
}

/* A named site's slots of RUN with each address replaced by its name's
   index: one function's (or object's, or class's) entries from every run
   then combine, wherever the run loaded it.  */
static const unsigned long long *named_addresses(struct values_state *state,
                                                 const struct site_values *v,
                                                 const struct run_view *run,
                                                 const unsigned long long *slots,
                                                 unsigned capacity)
{
    size_t n = HOT_SLOT_ENTRIES + 2 * (size_t) capacity;
    if (state->named_slots_size < n) {
        state->named_slots = xrealloc(state->named_slots, n * sizeof *state->named_slots);
        state->named_slots_size = n;
    }
    memcpy(state->named_slots, slots, n * sizeof *slots);
    for (unsigned i = 0; i < capacity; i++) {
        unsigned long long *value = &state->named_slots[HOT_SLOT_ENTRIES + 2 * i];
        if (value[1] == 0)
            continue;
        char name[512];
        if (v->is_target)
            symbol_namer_name(&state->namer, run->report, *value, name, sizeof name);
        else
            pointer_place_name(&state->namer, run->report, *value, name, sizeof name);
        *value = name_id(state, name);
    }
    return state->named_slots;
}

static bool ends_with(const char *text, const char *suffix)
{
    size_t length = strlen(text), suffix_length = strlen(suffix);
    return length >= suffix_length && strcmp(text + length - suffix_length, suffix) == 0;
}

static struct site_values *site_values_of(struct values_state *state, size_t unit,
                                          const struct unit_table *table,
                                          const struct site *site)
{
    if (!state->slot_of[unit])
        state->slot_of[unit] = xcalloc(table->n_sites, sizeof **state->slot_of);
    size_t *slot = &state->slot_of[unit][site->index];
    if (*slot == 0) {
        if (state->n_sites == state->capacity) {
            state->capacity = state->capacity ? 2 * state->capacity : 64;
            state->sites = xrealloc(state->sites, state->capacity * sizeof *state->sites);
        }
        struct site_values *v = &state->sites[state->n_sites++];
        v->table = table;
        v->site = site;
        v->is_pointer = ends_with(site->predicate, "(pointer)");
        v->is_target = scheme_infos[site->scheme].report->values_are_functions;
        v->is_named = v->is_target || (v->is_pointer && !state->options->raw_pointers);
        hot_list_init(&v->list, hot_list_capacity(site));
        *slot = state->n_sites;
    }
    return &state->sites[*slot - 1];
}

static bool values_run(void *context, const struct run_view *run, struct diag *d)
{
    (void) d;
    struct values_state *state = context;
    for (size_t u = 0; u < run->n_units; u++) {
        const struct run_unit *unit = &run->units[u];
        const struct unit_table *table = unit->totals->table;
        for (size_t i = 0; i < unit->n_sites; i++) {
            const struct site *site = &table->sites[unit->sites[i]];
            if (scheme_infos[site->scheme].merge != SAMPLER_MERGE_HOT_LIST)
                continue;
            const unsigned long long *slots = unit->totals->values + site->first_counter;
            if (slots[HOT_SLOT_SAMPLED] == 0)
                continue;
            struct site_values *v = site_values_of(state, unit->catalog_index, table, site);
            unsigned capacity = hot_list_capacity(site);
            if (v->is_named)
                slots = named_addresses(state, v, run, slots, capacity);
            hot_list_free(&state->scratch);
            hot_list_init(&state->scratch, capacity);
            if (site->weight == 0)
                continue;
            hot_list_from_slots(&state->scratch, slots, capacity,
                                site_visits_per_sample(run->report->sparsity,
                                                       run->report->countdown_unit,
                                                       site->weight));
            hot_list_merge(&v->list, &state->scratch, &state->random);
        }
    }
    return true;
}

/* For csv and jsonl: hot code first, by estimated visits (exact sums,
   which an SQL analysis of the exported runs reproduces), then by place.  */
static int by_visits(const void *pa, const void *pb)
{
    const struct site_values *a = pa, *b = pb;
    if (a->list.visits != b->list.visits)
        return a->list.visits > b->list.visits ? -1 : 1;
    int c = strcmp(a->site->file, b->site->file);
    if (c)
        return c;
    if (a->site->line != b->site->line)
        return a->site->line < b->site->line ? -1 : 1;
    if (a->site->column != b->site->column)
        return a->site->column < b->site->column ? -1 : 1;
    c = strcmp(a->table->signature, b->table->signature);
    if (c)
        return c;
    return a->site->index < b->site->index ? -1 : a->site->index > b->site->index;
}

/* For a reader (text, html): sites whose top value surely has a large
   share (invariant, semi-invariant) first, by the lower bound of that
   share; then as by_visits.  */
static int by_top_share(const void *pa, const void *pb)
{
    const struct site_values *a = pa, *b = pb;
    if (a->top_share_low != b->top_share_low)
        return a->top_share_low > b->top_share_low ? -1 : 1;
    return by_visits(pa, pb);
}

static void value_text(const struct values_state *state, const struct site_values *v,
                       uint64_t value, char *out, size_t size)
{
    if (v->is_named && value < state->n_names)
        snprintf(out, size, "%s", state->names[value]);
    else if (v->is_pointer)
        snprintf(out, size, "0x%llx", (unsigned long long) value);
    else if (v->site->bound_kind == BOUND_SIGNED)
        snprintf(out, size, "%lld", (long long) value);
    else
        snprintf(out, size, "%llu", (unsigned long long) value);
}

static const char *site_flag(const struct values_state *state, const struct site_values *v)
{
    if (v->list.n_entries == 1)
        return "invariant";
    if (v->list.n_entries > 0) {
        struct hot_estimate top;
        hot_list_estimate(&v->list, 0, CONFIDENCE, &top);
        if (top.share_low >= state->options->min_share)
            return "semi-invariant";
    }
    return "";
}

static unsigned shown_values(const struct values_state *state, const struct site_values *v)
{
    unsigned top = state->options->top;
    return v->list.n_entries < top ? v->list.n_entries : top;
}

/* Text and html list the sites (sorted by top share) whose top share's
   lower bound reaches --fold-below, at most --max-sites of them; FOLDED
   and BEYOND count the others.  */
static size_t listed_sites(const struct values_state *state, size_t *folded, size_t *beyond)
{
    size_t listed = 0;
    while (listed < state->n_sites
           && state->sites[listed].top_share_low >= state->options->fold_below)
        listed++;
    *folded = state->n_sites - listed;
    *beyond = 0;
    if (state->options->max_sites && listed > state->options->max_sites) {
        *beyond = listed - state->options->max_sites;
        listed = state->options->max_sites;
    }
    return listed;
}

/* The lines that count what listed_sites left out, for a reader.  */
static void write_left_out(FILE *out, const struct values_state *state, size_t folded,
                           size_t beyond, const char *before, const char *after)
{
    if (beyond)
        fprintf(out, "%s%zu more sites not shown; use --max-sites=all%s", before, beyond,
                after);
    if (folded)
        fprintf(out, "%s%zu sites whose top value's share has its lower bound below %g%% "
                "not shown; use --fold-below=0%s", before, folded,
                100 * state->options->fold_below, after);
}

static void write_text(FILE *out, const struct values_state *state)
{
    size_t folded, beyond, listed = listed_sites(state, &folded, &beyond);
    for (size_t s = 0; s < listed; s++) {
        const struct site_values *v = &state->sites[s];
        const char *flag = site_flag(state, v);
        fprintf(out, "%s:%u:%u  %s  %s  visits %.0f  tau %g  sample %llu%s%s\n",
                v->site->file, v->site->line, v->site->column, v->site->function,
                v->site->predicate, v->list.visits, v->list.tau, hot_list_size(&v->list),
                *flag ? "  " : "", flag);
        for (unsigned i = 0; i < shown_values(state, v); i++) {
            struct hot_estimate e;
            char text[512];
            hot_list_estimate(&v->list, i, CONFIDENCE, &e);
            value_text(state, v, v->list.entries[i].value, text, sizeof text);
            fprintf(out, "    %-20s  visits %.0f [%.0f, %.0f]  share %.1f%% [%.1f%%, %.1f%%]\n",
                    text, e.visits, e.visits_low, e.visits_high, 100 * e.share,
                    100 * e.share_low, 100 * e.share_high);
        }
    }
    write_left_out(out, state, folded, beyond, "", "\n");
}

static void write_csv(FILE *out, const struct values_state *state)
{
    fputs("file,line,column,function,observed,unit,site,site_visits,tau,sample,flag,rank,"
          "value,visits,visits_low,visits_high,share,share_low,share_high\n", out);
    for (size_t s = 0; s < state->n_sites; s++) {
        const struct site_values *v = &state->sites[s];
        const char *flag = site_flag(state, v);
        for (unsigned i = 0; i < shown_values(state, v); i++) {
            struct hot_estimate e;
            char text[512];
            hot_list_estimate(&v->list, i, CONFIDENCE, &e);
            value_text(state, v, v->list.entries[i].value, text, sizeof text);
            csv_field(out, v->site->file, false);
            fprintf(out, "%u,%u,", v->site->line, v->site->column);
            csv_field(out, v->site->function, false);
            csv_field(out, v->site->predicate, false);
            fprintf(out, "%s,%u,%.17g,%.17g,%llu,%s,%u,", v->table->signature,
                    v->site->index, v->list.visits, v->list.tau, hot_list_size(&v->list),
                    flag, i + 1);
            csv_field(out, text, false);
            fprintf(out, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", e.visits, e.visits_low,
                    e.visits_high, e.share, e.share_low, e.share_high);
        }
    }
}

static void write_jsonl(FILE *out, const struct values_state *state)
{
    for (size_t s = 0; s < state->n_sites; s++) {
        const struct site_values *v = &state->sites[s];
        fputc('{', out);
        json_key(out, "file", true);
        json_string(out, v->site->file);
        fprintf(out, ",\"line\":%u,\"column\":%u", v->site->line, v->site->column);
        json_key(out, "function", false);
        json_string(out, v->site->function);
        json_symbol(out, v->site);
        json_key(out, "observed", false);
        json_string(out, v->site->predicate);
        json_key(out, "unit", false);
        json_string(out, v->table->signature);
        fprintf(out, ",\"site\":%u,\"visits\":%.17g,\"tau\":%.17g,\"sample\":%llu",
                v->site->index, v->list.visits, v->list.tau, hot_list_size(&v->list));
        json_key(out, "flag", false);
        json_string_or_null(out, *site_flag(state, v) ? site_flag(state, v) : NULL);
        fputs(",\"values\":[", out);
        for (unsigned i = 0; i < shown_values(state, v); i++) {
            struct hot_estimate e;
            char text[512];
            hot_list_estimate(&v->list, i, CONFIDENCE, &e);
            value_text(state, v, v->list.entries[i].value, text, sizeof text);
            fprintf(out, "%s{\"value\":", i ? "," : "");
            json_string(out, text);
            fprintf(out, ",\"count\":%llu,\"visits\":%.17g,\"visits_low\":%.17g,"
                    "\"visits_high\":%.17g,\"share\":%.17g,\"share_low\":%.17g,"
                    "\"share_high\":%.17g}", v->list.entries[i].count, e.visits,
                    e.visits_low, e.visits_high, e.share, e.share_low, e.share_high);
        }
        fputs("]}\n", out);
    }
}

/* One self-contained page: a table per site, each value with a bar of its
   share (the interval's lower bound dark, the rest up to the upper bound
   light, a mark at the estimate).  */
static void write_html(FILE *out, const struct values_state *state)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>sampler-report "
          "values</title>\n<style>body{font-family:sans-serif}table{border-collapse:"
          "collapse;margin-bottom:1.5em}td,th{padding:2px 8px;text-align:right}"
          "td.v{font-family:monospace}.bar{position:relative;width:200px;height:12px;"
          "background:#eee}.low{position:absolute;height:12px;background:#36c}"
          ".high{position:absolute;height:12px;background:#9bd}.est{position:absolute;"
          "width:2px;height:12px;background:#000}h2{font-size:1em}</style></head><body>\n"
          "<h1>Values</h1>\n<p>Sites by the lower bound of their top value's share "
          "(invariant and semi-invariant first), then by visits. Intervals at 95%: visits "
          "from the Poisson score interval on the count, share from Wilson's on the count "
          "out of the sample.</p>\n", out);
    size_t folded, beyond, listed = listed_sites(state, &folded, &beyond);
    for (size_t s = 0; s < listed; s++) {
        const struct site_values *v = &state->sites[s];
        const char *flag = site_flag(state, v);
        char where[64];
        snprintf(where, sizeof where, ":%u:%u", v->site->line, v->site->column);
        fputs("<h2>", out);
        html_text(out, v->site->file);
        html_text(out, where);
        fputs(" ", out);
        html_function(out, v->site);
        fputs(": ", out);
        html_text(out, v->site->predicate);
        fprintf(out, " &mdash; visits %.0f, tau %g, sample %llu%s%s</h2>\n", v->list.visits,
                v->list.tau, hot_list_size(&v->list), *flag ? ", " : "", flag);
        fputs("<table><tr><th>value</th><th>visits</th><th>95%</th><th>share</th>"
              "<th>95%</th><th></th></tr>\n", out);
        for (unsigned i = 0; i < shown_values(state, v); i++) {
            struct hot_estimate e;
            char text[512];
            hot_list_estimate(&v->list, i, CONFIDENCE, &e);
            value_text(state, v, v->list.entries[i].value, text, sizeof text);
            fputs("<tr><td class=\"v\">", out);
            html_text(out, text);
            fprintf(out, "</td><td>%.0f</td><td>%.0f&ndash;%.0f</td><td>%.1f%%</td>"
                    "<td>%.1f&ndash;%.1f%%</td><td><div class=\"bar\">"
                    "<div class=\"high\" style=\"width:%.1f%%\"></div>"
                    "<div class=\"low\" style=\"width:%.1f%%\"></div>"
                    "<div class=\"est\" style=\"left:%.1f%%\"></div></div></td></tr>\n",
                    e.visits, e.visits_low, e.visits_high, 100 * e.share,
                    100 * e.share_low, 100 * e.share_high, 100 * e.share_high,
                    100 * e.share_low, 100 * e.share);
        }
        fputs("</table>\n", out);
    }
    write_left_out(out, state, folded, beyond, "<p>", "</p>\n");
    fputs("</body></html>\n", out);
}

static void write_values(FILE *out, enum output_format format,
                         const struct values_state *state)
{
    switch (format) {
    case FORMAT_CSV:
        write_csv(out, state);
        break;
    case FORMAT_JSONL:
        write_jsonl(out, state);
        break;
    case FORMAT_HTML:
        write_html(out, state);
        break;
    default:
        write_text(out, state);
    }
}

static int run_values(const struct invocation *invocation, struct diag *d)
{
    struct run_set *set = invocation->runs;
    struct values_state state = { 0 };
    state.options = COMMAND_OPTIONS(invocation, struct values_options);
    state.n_units = set->catalog.n_units;
    state.slot_of = xcalloc(state.n_units ? state.n_units : 1, sizeof *state.slot_of);
    hot_random_init(&state.random, HOT_RANDOM_SEED);
    hot_list_init(&state.scratch, 1);
    bool ok = run_set_visit(set, values_run, &state, d);
    if (ok) {
        for (size_t s = 0; s < state.n_sites; s++) {
            struct site_values *v = &state.sites[s];
            hot_list_sort(&v->list);
            if (v->list.n_entries > 0) {
                struct hot_estimate top;
                hot_list_estimate(&v->list, 0, CONFIDENCE, &top);
                v->top_share_low = top.share_low;
            }
        }
        bool for_reader = invocation->format == FORMAT_TEXT
                          || invocation->format == FORMAT_HTML;
        qsort(state.sites, state.n_sites, sizeof *state.sites,
              for_reader ? by_top_share : by_visits);
        write_values(stdout, invocation->format, &state);
    }
    for (size_t u = 0; u < state.n_units; u++)
        free(state.slot_of[u]);
    free(state.slot_of);
    for (size_t s = 0; s < state.n_sites; s++)
        hot_list_free(&state.sites[s].list);
    free(state.sites);
    hot_list_free(&state.scratch);
    for (size_t i = 0; i < state.n_names; i++)
        free(state.names[i]);
    free(state.names);
    free(state.named_slots);
    name_index_free(&state.names_index);
    symbol_namer_free(&state.namer);
    return ok ? EXIT_FINE : EXIT_BAD_INPUT;
}

static bool is_share(double share)
{
    return share > 0 && share <= 1;
}

static bool is_share_or_zero(double share)
{
    return share >= 0 && share <= 1;
}

static int take_values_option(const struct invocation *invocation, int argc, char **argv,
                              int *i)
{
    struct values_options *options = COMMAND_OPTIONS(invocation, struct values_options);
    if (strcmp(argv[*i], "--raw-pointers") == 0) {
        options->raw_pointers = true;
        ++*i;
        return 1;
    }
    int taken = command_real_option(invocation, "--min-share", "a number above 0 and at most 1",
                                    is_share, argc, argv, i, &options->min_share);
    if (!taken)
        taken = command_real_option(invocation, "--fold-below", "a number from 0 to 1",
                                    is_share_or_zero, argc, argv, i, &options->fold_below);
    if (!taken)
        taken = command_whole_number_option(invocation, "--top", 1, 1024, argc, argv, i,
                                            &options->top);
    if (!taken)
        taken = command_limit_option(invocation, "--max-sites", argc, argv, i,
                                     &options->max_sites);
    return taken;
}

static void init_values_options(void *options)
{
    *(struct values_options *) options = (struct values_options) {
        .min_share = 0.9, .top = 5, .fold_below = 0.2, .max_sites = DEFAULT_SHOWN_LIMIT,
    };
}

const struct command values_command = {
    .name = "values",
    .synopsis = "(INPUT... | --store URL --release R) [--binary FILE]... [--sites FILE]... "
                "[--min-share=P] [--top=N] [--fold-below=S] [--max-sites=N|all] "
                "[--raw-pointers] [--format=text|csv|jsonl|html]",
    .summary = "Show the values sites' hot-lists combined over every run, by the lower bound\n"
               "of the top value's share (invariant and semi-invariant sites first), then\n"
               "by visits: each site's top values with their estimated visits and shares\n"
               "and 95% intervals (visits: Poisson score interval on the count, times tau;\n"
               "share: Wilson on the count out of the sample), flagged invariant (one\n"
               "value) or semi-invariant (the top share's lower bound at least P).\n"
               "Pointers read as where they pointed, which holds in every run: null, a\n"
               "function or object+offset, or heap, stack or other with an alignment.",
    .options_help =
        RUN_OPTIONS_HELP
        STORE_OPTIONS_HELP
        "  --min-share=P    the share, above 0 and at most 1, whose lower bound makes a\n"
        "                   site semi-invariant (0.9)\n"
        "  --top=N          values shown per site, 1 to 1024 (5)\n"
        "  --fold-below=S   text and html: sites whose top value's share has its lower\n"
        "                   bound below S, 0 to 1, make one count line (0.2)\n"
        "  --max-sites=N    text and html: sites shown at most, or all (50)\n"
        "  --raw-pointers   pointers as raw addresses (meaningful within one run only:\n"
        "                   they differ in every run under address randomisation)\n"
        "  --format=F       text (default), csv (one row per site and value), jsonl\n"
        "                   (one object per site) or html (one page, a bar per value)\n",
    .inputs = INPUTS_RUNS,
    .reads_store = true,
    .formats = FORMAT_SET_ALL,
    .formats_expected = "text, csv, jsonl or html",
    .progress = "reading",
    .options_size = sizeof (struct values_options),
    .init = init_values_options,
    .take_option = take_values_option,
    .run = run_values,
};
