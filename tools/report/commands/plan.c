/* sampler-report plan: the rates file of the next build, from the reports
   of a release (docs/adaptive.md).  Adaptive bug isolation (Arumuga Nainar
   and Liblit, ICSE 2010): stop instrumenting what the evidence has
   settled, sample densely where the failing runs point.

   Each site is judged on its predicates' counts over the runs read (those
   of `rank', statistics/stats.h):

   - settled, weight 0: observed in at least --settled-runs failing and as
     many successful runs, and no predicate there can reach an Increase
     lower bound above the tolerance D (--settled-increase): each predicate
     true somewhere has the upper end of Newcombe's interval for Increase
     at most D, so that at that confidence its true Increase is at most D,
     and rank's lower bound, which tends to it from below as runs
     accumulate, stays below D.  (D cannot be 0: a predicate unrelated to
     failure has Increase 0, and no finite sample puts an interval's upper
     end at 0.)  A predicate never true in those runs is true, at 95%, in
     fewer than 3 / --settled-runs of either outcome's runs (the rule of
     three);
   - suspect, its rate raised --boost times: not settled, and a predicate
     with an Increase estimate above D (kept by rank or not yet);
   - otherwise, the base rate (weight 1 in unit 1: 1 / sparsity).

   A site that weighed 0 in the build read stays at 0: it was settled
   before, and these runs say nothing new about it.  */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands/command.h"
#include "commands/rates-file.h"
#include "output/output-file.h"
#include "statistics/isolate.h"
#include "statistics/ranking.h"
#include "support/util.h"

struct plan_options {
    double confidence;          /* of Newcombe's interval, e.g. 0.95 */
    unsigned sparsity;          /* the next build's SAMPLER_SPARSITY; 0: not given */
    unsigned boost;             /* a suspect's rate over the base rate */
    unsigned settled_runs;      /* failing and successful runs observing a settled site */
    double settled_increase;    /* D: a settled site's predicates have Increase <= D */
};

enum { DEFAULT_BOOST = 10, DEFAULT_SETTLED_RUNS = 30 };
#define DEFAULT_SETTLED_INCREASE 0.05

enum verdict { BASE, SETTLED, SUSPECT, OFF };

struct planned_site {
    const struct unit_table *table;
    const struct site *site;
    enum verdict verdict;
    struct predicate_counts best;   /* a suspect's predicate of highest Increase */
    double increase;
    unsigned k;
};

/* The upper end of Newcombe's interval for Increase (the mirror of the
   lower bound in stats.c).  */
static double increase_upper(const struct predicate_counts *c, double z)
{
    double n_true = (double) (c->failing_true + c->successful_true);
    double n_obs = (double) (c->failing_observed + c->successful_observed);
    double failure = (double) c->failing_true / n_true;
    double context = (double) c->failing_observed / n_obs;
    double up = wilson_upper((double) c->failing_true, n_true, z) - failure;
    double down = context - wilson_lower((double) c->failing_observed, n_obs, z);
    return failure - context + sqrt(up * up + down * down);
}

static void judge(struct planned_site *planned, const struct isolation *isolation,
                  const struct universe *universe, size_t global,
                  const struct plan_options *options, double z)
{
    if (planned->site->weight == 0) {
        planned->verdict = OFF;
        return;
    }
    uint32_t observer = isolation->observed_as[global];
    unsigned long f_obs = isolation->site_observed[1][observer];
    unsigned long s_obs = isolation->site_observed[0][observer];
    bool settled = f_obs >= options->settled_runs && s_obs >= options->settled_runs;
    size_t first = universe->site_first_predicate[global];
    size_t n = universe->site_first_predicate[global + 1] - first;
    if (n == 0)
        settled = false;   /* no predicate to judge it by (values, paths) */
    planned->increase = 0;
    for (size_t k = 0; k < n; k++) {
        struct predicate_counts counts;
        isolation_counts(isolation, first + k, &counts);
        if (counts.failing_true + counts.successful_true == 0
            || counts.failing_observed + counts.successful_observed == 0)
            continue;
        double upper = increase_upper(&counts, z);
        double increase = (double) counts.failing_true
                              / (double) (counts.failing_true + counts.successful_true)
                          - (double) counts.failing_observed
                              / (double) (counts.failing_observed + counts.successful_observed);
        if (upper > options->settled_increase)
            settled = false;
        if (increase > options->settled_increase && increase > planned->increase) {
            planned->increase = increase;
            planned->best = counts;
            planned->k = (unsigned) k;
        }
    }
    planned->verdict = settled ? SETTLED : planned->increase > 0 ? SUSPECT : BASE;
}

static int by_function(const void *pa, const void *pb)
{
    const struct planned_site *a = pa, *b = pb;
    return rates_compare_places(a->table, a->site, b->table, b->site);
}

static bool same_function(const struct planned_site *a, const struct planned_site *b)
{
    return !strcmp(a->table->source, b->table->source) && !strcmp(a->site->file, b->site->file)
           && !strcmp(a->site->function, b->site->function);
}

/* One function's sites, FIRST to END: a comment saying why it is in or
   out, then its site records.  */
static void write_function(FILE *out, const struct planned_site *first,
                           const struct planned_site *end, unsigned suspect_weight)
{
    size_t count[4] = { 0 };
    for (const struct planned_site *p = first; p < end; p++)
        count[p->verdict]++;
    size_t n = (size_t) (end - first);
    const char *why = count[SUSPECT] ? "in, raised: failing runs point here"
                      : count[SETTLED] + count[OFF] == n ? "out: settled"
                      : count[BASE] == n ? "in, base rate: not settled"
                                         : "in part: some sites settled";
    fprintf(out, "# %s (%s): %s; %zu sites: %zu suspect, %zu settled, %zu settled before, "
            "%zu base\n", first->site->function, first->site->file, why, n, count[SUSPECT],
            count[SETTLED], count[OFF], count[BASE]);
    for (const struct planned_site *p = first; p < end; p++)
        if (p->verdict == SUSPECT)
            fprintf(out, "#   suspect: line %u, %s: Increase %.3f, true in %lu failing and "
                    "%lu successful runs, observed in %lu and %lu\n", p->site->line,
                    p->site->predicate, p->increase, p->best.failing_true,
                    p->best.successful_true, p->best.failing_observed,
                    p->best.successful_observed);
    for (const struct planned_site *p = first; p < end; p++) {
        unsigned weight = p->verdict == SUSPECT ? suspect_weight
                          : p->verdict == BASE ? 1 : 0;
        rates_write_site(out, weight, p->table, p->site);
    }
}

/* Two builds of one source would give two records per site.  */
static bool one_build_per_source(const struct site_catalog *catalog, struct diag *d)
{
    for (size_t i = 0; i < catalog->n_units; i++)
        for (size_t j = i + 1; j < catalog->n_units; j++)
            if (catalog->units[i]->n_sites && catalog->units[j]->n_sites
                && !strcmp(catalog->units[i]->source, catalog->units[j]->source))
                return diag_fail(d, "units %s and %s are two builds of %s: plan reads the "
                                 "runs of one build (one round) at a time",
                                 catalog->units[i]->signature, catalog->units[j]->signature,
                                 catalog->units[i]->source);
    return true;
}

static bool write_plan(FILE *out, const struct universe *universe,
                       const struct isolation *isolation, const struct plan_options *options)
{
    double z = critical_z(options->confidence);
    struct planned_site *planned = xcalloc(universe->n_sites ? universe->n_sites : 1,
                                           sizeof *planned);
    size_t n = 0, count[4] = { 0 };
    for (size_t u = 0; u < universe->catalog->n_units; u++) {
        const struct unit_table *table = universe->catalog->units[u];
        for (unsigned s = 0; s < table->n_sites; s++, n++) {
            planned[n].table = table;
            planned[n].site = &table->sites[s];
            judge(&planned[n], isolation, universe, universe->unit_first_site[u] + s, options,
                  z);
            count[planned[n].verdict]++;
        }
    }
    double base = site_rate(options->sparsity, 1, 1);
    unsigned suspect_weight = rates_weight_for(base * options->boost, options->sparsity);
    fprintf(out, "sampler-rates\t1\n");
    fprintf(out, "# planned from %lu runs (%lu failing) for sparsity %u\n",
            isolation->runs[0] + isolation->runs[1], isolation->runs[1], options->sparsity);
    fprintf(out, "# settled (weight 0): observed in at least %u failing and %u successful "
            "runs, every predicate's %.4g%% upper bound of Increase at most %g\n",
            options->settled_runs, options->settled_runs, options->confidence * 100,
            options->settled_increase);
    fprintf(out, "# suspect (weight %u, %g times the base rate, or every visit): not settled, "
            "a predicate with Increase above %g\n", suspect_weight, (double) options->boost,
            options->settled_increase);
    fprintf(out, "# %zu sites: %zu suspect, %zu settled, %zu settled before (weight 0 in the "
            "build read), %zu at the base rate (weight 1: 1/%u)\n", n, count[SUSPECT],
            count[SETTLED], count[OFF], count[BASE], options->sparsity);
    fprintf(out, "unit\t1\n");
    qsort(planned, n, sizeof *planned, by_function);
    for (size_t i = 0; i < n;) {
        size_t end = i + 1;
        while (end < n && same_function(&planned[i], &planned[end]))
            end++;
        write_function(out, planned + i, planned + end, suspect_weight);
        i = end;
    }
    free(planned);
    return true;
}

static int run_plan(const struct invocation *invocation, struct diag *d)
{
    const struct plan_options *options = COMMAND_OPTIONS(invocation, struct plan_options);
    struct universe universe = { 0 };
    struct isolation isolation = { 0 };
    struct output_file output = { 0 };
    bool ok = true;
    if (!options->sparsity)
        ok = diag_fail(d, "say which sparsity the next build runs at with --sparsity=N");
    ok = ok && one_build_per_source(&invocation->runs->catalog, d)
         && isolation_collect(&isolation, &universe, invocation->runs, d);
    if (ok && isolation.runs[0] + isolation.runs[1] == 0)
        ok = diag_fail(d, "no complete run to plan from");
    if (ok)
        ok = output_open(&output, invocation->output, d)
             && write_plan(output.file, &universe, &isolation, options)
             && output_commit(&output, d);
    if (!ok && output.file)
        output_abandon(&output);
    isolation_free(&isolation);
    universe_free(&universe);
    return ok ? EXIT_FINE : EXIT_BAD_INPUT;
}

static bool is_confidence(double percent)
{
    return percent > 0 && percent < 100;
}

static bool is_tolerance(double increase)
{
    return increase > 0 && increase < 1;
}

static int take_plan_option(const struct invocation *invocation, int argc, char **argv, int *i)
{
    struct plan_options *options = COMMAND_OPTIONS(invocation, struct plan_options);
    double percent = 0;
    int taken = command_real_option(invocation, "--confidence", "a percentage above 0 and "
                                    "below 100", is_confidence, argc, argv, i, &percent);
    if (taken > 0)
        options->confidence = percent / 100;
    if (!taken)
        taken = command_whole_number_option(invocation, "--sparsity", 1, 1000000000, argc,
                                            argv, i, &options->sparsity);
    if (!taken)
        taken = command_whole_number_option(invocation, "--boost", 1, 1000000, argc, argv, i,
                                            &options->boost);
    if (!taken)
        taken = command_real_option(invocation, "--settled-increase", "a number above 0 and "
                                    "below 1", is_tolerance, argc, argv, i,
                                    &options->settled_increase);
    if (!taken)
        taken = command_whole_number_option(invocation, "--settled-runs", 1, 1000000000, argc,
                                            argv, i, &options->settled_runs);
    return taken;
}

static void init_plan_options(void *options)
{
    *(struct plan_options *) options = (struct plan_options) {
        .confidence = 0.95, .boost = DEFAULT_BOOST, .settled_runs = DEFAULT_SETTLED_RUNS,
        .settled_increase = DEFAULT_SETTLED_INCREASE,
    };
}

const struct command plan_command = {
    .name = "plan",
    .synopsis = "INPUT... --output FILE --sparsity=N [--boost=K] [--settled-runs=N] "
                "[--settled-increase=D] "
                "[--confidence=PERCENT] [--fail-if=RULE | --labels FILE] "
                "[--binary FILE]... [--sites FILE]...",
    .summary = "Plan the next build's rates from one build's runs: sites the evidence has\n"
               "settled get weight 0 (uninstrumented), sites of suspect predicates a raised\n"
               "rate, the rest the base rate; the file's comments say why, per function.",
    .options_help =
        RUN_OPTIONS_HELP
        LABEL_OPTIONS_HELP
        "  --output FILE    the rates file to write (-o FILE); written whole or not at all\n"
        "  --sparsity=N     the SAMPLER_SPARSITY the next build runs at (required)\n"
        "  --boost=K        a suspect site's rate: K times the base rate 1/N, at most\n"
        "                   every visit (default 10)\n"
        "  --settled-runs=N a settled site was observed in at least N failing and N\n"
        "                   successful runs (default 30)\n"
        "  --settled-increase=D  and its predicates' upper bound of Increase is at\n"
        "                   most D; a suspect's Increase is above D (default 0.05)\n"
        "  --confidence=P   of Increase's interval, in percent (default 95)\n",
    .inputs = INPUTS_RUNS,
    .labels = true,
    .output_what = "FILE",
    .progress = "reading",
    .options_size = sizeof (struct plan_options),
    .init = init_plan_options,
    .take_option = take_plan_option,
    .run = run_plan,
};
