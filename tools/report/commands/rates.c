/* sampler-report rates: per-site weights for the next build, trained on
   the reports of earlier runs (docs/rates.md).

   Each site's visits per run are estimated from its samples, each run's
   divided by the site's rate in that run (its weight, the run's sparsity
   and countdown unit); sites never sampled share the samples of those
   sampled once (Good and Turing).  Then every site gets the rate that gives it the
   same expected samples per run, T, capped at every visit (rate 1): a rare
   site is sampled at every visit, a hot one at T over its visits.  T is
   the largest level at which the expected samples per run of all sites
   together stay within the budget (water-filling over the sites' visits).
   The rates are written as weights in countdown units for the sparsity
   the next build will run at; a site whose rate falls below --min-rate
   gets weight 0, which leaves it uninstrumented (adaptive bug isolation,
   Arumuga Nainar and Liblit, ICSE 2010).  */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "combining/run-set.h"
#include "commands/command.h"
#include "output/formats.h"
#include "output/output-file.h"
#include "schemes/registry.h"
#include "support/util.h"

struct rates_options {
    double budget;          /* expected samples per run; 0: the training runs' */
    unsigned sparsity;      /* 0: the training runs' */
    unsigned unit;          /* 0: chosen from the rates */
    double min_rate;        /* rates below it: weight 0 */
};

/* One site's estimate, over the runs so far.  */
struct site_rate {
    const struct unit_table *table;
    const struct site *site;
    double visits;          /* estimated visits, summed over runs */
    double samples;         /* sampled visits, summed over runs */
    double exposure;        /* the site's rates, summed over the runs of its unit */
    double rate;            /* the rate chosen */
    unsigned weight;
};

struct rates_state {
    struct site_rate **of_unit;   /* per catalog unit, per site */
    size_t n_units;
    double samples;               /* over all runs and sites */
    unsigned long long sparsity;  /* of the runs, while all agree */
    bool mixed_sparsity;
    unsigned long runs;
};

static bool rates_run(void *context, const struct run_view *run, struct diag *d)
{
    struct rates_state *state = context;
    const struct run_report *report = run->report;
    if (report->sparsity == 0)
        return diag_fail(d, "%s: sparsity 0 (a report of a run that did not sample)",
                         run->origin);
    if (state->runs == 0)
        state->sparsity = report->sparsity;
    else if (state->sparsity != report->sparsity)
        state->mixed_sparsity = true;
    state->runs++;
    for (size_t u = 0; u < run->n_units; u++) {
        const struct run_unit *unit = &run->units[u];
        const struct unit_table *table = unit->totals->table;
        struct site_rate *of_unit = state->of_unit[unit->catalog_index];
        for (unsigned i = 0; i < table->n_sites; i++)
            of_unit[i].exposure += site_rate(report->sparsity, report->countdown_unit,
                                             table->sites[i].weight);
        for (size_t i = 0; i < unit->n_sites; i++) {
            const struct site *site = &table->sites[unit->sites[i]];
            double rate = site_rate(report->sparsity, report->countdown_unit, site->weight);
            if (rate <= 0)
                continue;
            double samples = site_samples(site, unit->totals->values + site->first_counter);
            of_unit[site->index].visits += samples / rate;
            of_unit[site->index].samples += samples;
            state->samples += samples;
        }
    }
    return true;
}

static int by_visits(const void *pa, const void *pb)
{
    double a = (*(struct site_rate *const *) pa)->visits;
    double b = (*(struct site_rate *const *) pb)->visits;
    return a < b ? -1 : a > b;
}

/* The level T: the largest such that the sum over SITES (N of them, by
   visits ascending) of min(visits, T) is at most BUDGET; DBL_MAX when
   every site at every visit fits.  */
static double water_level(struct site_rate **sites, size_t n, double budget)
{
    double below = 0;   /* visits of the sites under the level */
    for (size_t i = 0; i < n; i++) {
        /* Sites i.. all at level T: below + (n - i) T.  */
        double level = (budget - below) / (double) (n - i);
        if (level <= sites[i]->visits)
            return level > 0 ? level : 0;
        below += sites[i]->visits;
    }
    return DBL_MAX;
}

/* The greatest weight whose rate, at mean countdown MEAN (sparsity times
   unit), is at most RATE (1 - (1 - 1/mean)^w <= rate), so that the budget
   holds; at least 1.  */
static unsigned weight_for(double rate, double mean)
{
    if (rate >= 1)
        /* Every visit, as nearly as a weight can: the countdown's chance
           of outlasting the visit below 1e-6.  */
        rate = 1 - 1e-6;
    double w = mean <= 1 ? 1 : log1p(-rate) / log1p(-1 / mean);
    if (w > SAMPLER_SITE_WEIGHT_MAX)
        return SAMPLER_SITE_WEIGHT_MAX;
    /* The tolerance: a rate computed back from its own weight.  */
    return w < 1 ? 1 : (unsigned) (w + 1e-9);
}

static int by_place(const void *pa, const void *pb)
{
    const struct site_rate *a = *(struct site_rate *const *) pa;
    const struct site_rate *b = *(struct site_rate *const *) pb;
    int c = strcmp(a->table->source, b->table->source);
    if (!c)
        c = strcmp(a->site->file, b->site->file);
    if (!c)
        c = strcmp(a->site->function, b->site->function);
    if (!c && a->site->line != b->site->line)
        c = a->site->line < b->site->line ? -1 : 1;
    if (!c)
        c = a->site->index < b->site->index ? -1 : a->site->index > b->site->index;
    return c;
}

static bool write_rates(FILE *out, struct rates_state *state,
                        const struct rates_options *options)
{
    size_t n = 0;
    for (size_t u = 0; u < state->n_units; u++)
        n += state->of_unit[u] ? state->of_unit[u][0].table->n_sites : 0;
    struct site_rate **sites = xcalloc(n ? n : 1, sizeof *sites);
    size_t n_trained = 0, n_untrained = 0, n_unseen = 0, n_once = 0;
    for (size_t u = 0; u < state->n_units; u++) {
        if (!state->of_unit[u])
            continue;
        for (unsigned i = 0; i < state->of_unit[u][0].table->n_sites; i++) {
            struct site_rate *s = &state->of_unit[u][i];
            /* Uninstrumented in the training build, or in no training
               run: nothing is known. */
            if (s->site->weight == 0 || s->exposure <= 0) {
                n_untrained++;
                continue;
            }
            if (s->samples == 0)
                n_unseen++;
            else
                s->visits /= (double) state->runs;
            n_once += s->samples == 1;
            sites[n_trained++] = s;
        }
    }
    /* Sites never sampled: their visits are not known to be 0, only to be
       few, and taking 0 would sample every one at every visit, which
       thousands of them can turn into many times the budget.  Together
       they would take, in runs like the training ones, about as many
       samples as the sites sampled exactly once took (Good and Turing's
       estimate of the unseen mass); each is given its share of those.  */
    for (size_t i = 0; i < n_trained; i++)
        if (sites[i]->samples == 0)
            sites[i]->visits = (double) n_once / (double) n_unseen / sites[i]->exposure;
    unsigned long long sparsity = options->sparsity ? options->sparsity : state->sparsity;
    double budget = options->budget > 0 ? options->budget
                                             : state->samples / (double) state->runs;
    qsort(sites, n_trained, sizeof *sites, by_visits);
    double level = water_level(sites, n_trained, budget);
    double least_rate = 1;
    for (size_t i = 0; i < n_trained; i++) {
        struct site_rate *s = sites[i];
        s->rate = s->visits <= level ? 1 : level / s->visits;
        if (s->rate < options->min_rate)
            s->rate = 0;
        if (s->rate > 0 && s->rate < least_rate)
            least_rate = s->rate;
    }
    /* The unit: sixteen weights to the least rate, so that rounding down
       takes a few percent off a rate at most, within the ABI's bound.  */
    unsigned unit = options->unit;
    if (!unit) {
        double wanted = ceil(16 / ((double) sparsity * least_rate));
        unit = wanted < 1 ? 1 : wanted > SAMPLER_COUNTDOWN_UNIT_MAX
                                    ? SAMPLER_COUNTDOWN_UNIT_MAX : (unsigned) wanted;
    }
    double mean = (double) sparsity * unit, expected = 0;
    size_t n_zero = 0, n_every = 0;
    for (size_t i = 0; i < n_trained; i++) {
        struct site_rate *s = sites[i];
        s->weight = s->rate > 0 ? weight_for(s->rate, mean) : 0;
        double rate = site_rate(sparsity, unit, s->weight);
        expected += rate * s->visits;
        n_zero += s->weight == 0;
        n_every += s->rate >= 1;
    }
    fprintf(out, "sampler-rates\t1\n");
    fprintf(out, "# trained on %lu runs at sparsity %llu, for sparsity %llu\n", state->runs,
            state->sparsity, sparsity);
    fprintf(out, "# budget %.6g samples per run; expected with these rates %.6g\n", budget,
            expected);
    fprintf(out, "# %zu sites: %zu at every visit, %zu at weight 0, %zu not trained "
            "(uninstrumented in the training build, or in no run; default weight)\n",
            n_trained + n_untrained, n_every, n_zero, n_untrained);
    fprintf(out, "# %zu sites never sampled: together, as many samples as the %zu sampled "
            "once (Good-Turing)\n", n_unseen, n_once);
    if (level < DBL_MAX)
        fprintf(out, "# expected samples per site per run: %.6g, or its visits if fewer\n",
                level);
    fprintf(out, "unit\t%u\n", unit);
    qsort(sites, n_trained, sizeof *sites, by_place);
    for (size_t i = 0; i < n_trained; i++) {
        const struct site_rate *s = sites[i];
        fprintf(out, "site\t%u\t", s->weight);
        write_escaped(out, s->table->source);
        fputc('\t', out);
        write_escaped(out, s->site->file);
        fprintf(out, "\t%u\t", s->site->line);
        write_escaped(out, s->site->function);
        fprintf(out, "\t%s\t", scheme_name(s->site->scheme));
        write_escaped(out, s->site->predicate);
        fputc('\n', out);
    }
    free(sites);
    return true;
}

static int run_rates(const struct invocation *invocation, struct diag *d)
{
    const struct rates_options *options = COMMAND_OPTIONS(invocation, struct rates_options);
    struct run_set *set = invocation->runs;
    struct rates_state state = { 0 };
    struct output_file output = { 0 };
    state.n_units = set->catalog.n_units;
    state.of_unit = xcalloc(state.n_units ? state.n_units : 1, sizeof *state.of_unit);
    for (size_t u = 0; u < state.n_units; u++) {
        const struct unit_table *table = set->catalog.units[u];
        if (table->n_sites == 0)
            continue;
        state.of_unit[u] = xcalloc(table->n_sites, sizeof **state.of_unit);
        for (unsigned i = 0; i < table->n_sites; i++) {
            state.of_unit[u][i].table = table;
            state.of_unit[u][i].site = &table->sites[i];
        }
    }
    bool ok = run_set_visit(set, rates_run, &state, d);
    if (ok && state.runs == 0)
        ok = diag_fail(d, "no complete run to train on");
    if (ok && state.mixed_sparsity && !options->sparsity)
        ok = diag_fail(d, "the runs have different sparsities: say which the next build "
                       "runs at with --sparsity=N");
    if (ok)
        ok = output_open(&output, invocation->output, d)
             && write_rates(output.file, &state, options) && output_commit(&output, d);
    if (!ok && output.file)
        output_abandon(&output);
    for (size_t u = 0; u < state.n_units; u++)
        free(state.of_unit[u]);
    free(state.of_unit);
    return ok ? EXIT_FINE : EXIT_BAD_INPUT;
}

static bool is_budget(double budget)
{
    return budget > 0 && budget < 1e18;
}

static bool is_probability(double p)
{
    return p >= 0 && p <= 1;
}

static int take_rates_option(const struct invocation *invocation, int argc, char **argv, int *i)
{
    struct rates_options *options = COMMAND_OPTIONS(invocation, struct rates_options);
    int taken = command_real_option(invocation, "--budget", "a number of samples per run "
                                    "above 0", is_budget, argc, argv, i, &options->budget);
    if (!taken)
        taken = command_whole_number_option(invocation, "--sparsity", 1, 1000000000, argc,
                                            argv, i, &options->sparsity);
    if (!taken)
        taken = command_whole_number_option(invocation, "--unit", 1,
                                            SAMPLER_COUNTDOWN_UNIT_MAX, argc, argv, i,
                                            &options->unit);
    if (!taken)
        taken = command_real_option(invocation, "--min-rate", "a probability from 0 to 1",
                                    is_probability, argc, argv, i, &options->min_rate);
    return taken;
}

const struct command rates_command = {
    .name = "rates",
    .synopsis = "INPUT... --output FILE [--budget=N] [--sparsity=N] [--unit=N] [--min-rate=P] "
                "[--binary FILE]... [--sites FILE]...",
    .summary = "Train per-site rates for the next build (-fplugin-arg-sampler-rates=FILE):\n"
               "each site sampled so that it is expected to give the same samples per run,\n"
               "at most at every visit, all sites together within the budget.",
    .options_help =
        RUN_OPTIONS_HELP
        "  --output FILE    the rates file to write (-o FILE); written whole or not at all\n"
        "  --budget=N       expected samples per run, all sites together (default: what\n"
        "                   the training runs took, per run)\n"
        "  --sparsity=N     the SAMPLER_SPARSITY the next build runs at (default: the\n"
        "                   training runs', when they agree)\n"
        "  --unit=N         countdown units per default visit, 1 to 4096 (default: enough\n"
        "                   for the least rate to be within a few percent)\n"
        "  --min-rate=P     sites whose rate falls below P get weight 0: left\n"
        "                   uninstrumented (default 0: none)\n",
    .inputs = INPUTS_RUNS,
    .output_what = "FILE",
    .progress = "reading",
    .options_size = sizeof (struct rates_options),
    .take_option = take_rates_option,
    .run = run_rates,
};
