/* A release's ranking from the store (ranking-page.h): the predicates'
   counts from the aggregates the folder keeps (predicate_counts,
   site_counts, release_counts), scored with sampler-report's own
   statistics (stats.h) and ordered as rank orders them; the elimination
   as the eliminator last left it in elimination_steps.  */
#include "ranking-page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "statistics/predicates.h"

/* rank's defaults (sampler-report rank --help).  */
#define CONFIDENCE 0.95
enum { MIN_FAILING = 3 };

struct counts_read {
    const struct release *release;
    struct predicate_counts *counts;
    unsigned long failing, successful;
};

static bool totals_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    struct counts_read *read = context;
    if (n == 2 && values[0] && values[1]) {
        read->failing = strtoul(values[0], NULL, 10);
        read->successful = strtoul(values[1], NULL, 10);
    }
    return true;
}

/* in_play_runs's active flag: still set when the eliminator stopped at
   its --elimination-steps limit.  */
static bool still_active_row(void *context, unsigned n, const char *const *values,
                             struct diag *d)
{
    (void) d;
    struct ranking *ranking = context;
    ranking->step_limit_reached = n == 1 && values[0] && strcmp(values[0], "1") == 0;
    return true;
}

/* A predicate's row: predicate, f, s, f_obs, s_obs.  */
static bool counts_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    struct counts_read *read = context;
    if (n != 5)
        return diag_fail(d, "internal error: predicate counts of %u columns", n);
    size_t predicate = strtoul(values[0], NULL, 10);
    if (predicate >= read->release->universe.n_predicates)
        return diag_fail(d, "release %s: the store has predicate %zu, its tables %zu",
                         read->release->name, predicate, read->release->universe.n_predicates);
    read->counts[predicate] = (struct predicate_counts) {
        strtoul(values[1], NULL, 10), strtoul(values[2], NULL, 10),
        strtoul(values[3], NULL, 10), strtoul(values[4], NULL, 10),
    };
    return true;
}

struct scored_predicate {
    size_t predicate;
    uint32_t tie;
    struct predicate_counts counts;
    struct predicate_score score;
};

static int compare_scored(const void *a, const void *b)
{
    const struct scored_predicate *x = a, *y = b;
    int by_score = compare_scores(&x->score, &x->counts, &y->score, &y->counts);
    if (by_score)
        return by_score;
    return (x->tie > y->tie) - (x->tie < y->tie);
}

/* The ranking before elimination, into RANKING->top.  */
static void rank_counts(struct ranking *ranking, const struct release *release,
                        const struct predicate_counts *counts, size_t top)
{
    struct score_rule rule = { critical_z(ranking->confidence), ranking->interval,
                               ranking->min_failing };
    size_t n = release->universe.n_predicates, n_kept = 0;
    struct scored_predicate *kept = xcalloc(n + 1, sizeof *kept);
    for (size_t p = 0; p < n; p++) {
        struct predicate_score score;
        score_predicate(&counts[p], ranking->n_failing, &rule, &score);
        if (score.kept)
            kept[n_kept++] = (struct scored_predicate) { p, release->tie_order[p], counts[p],
                                                         score };
    }
    if (n_kept > 1)
        qsort(kept, n_kept, sizeof *kept, compare_scored);
    ranking->n_kept = n_kept;
    ranking->n_top = top == 0 || top > n_kept ? n_kept : top;
    ranking->top = xcalloc(ranking->n_top + 1, sizeof *ranking->top);
    for (size_t i = 0; i < ranking->n_top; i++)
        ranking->top[i] = (struct ranked_predicate) { kept[i].predicate, kept[i].counts,
                                                      kept[i].score, ranking->n_failing };
    free(kept);
}

/* A step of elimination_steps: step, predicate, f, s, f_obs, s_obs, num_f,
   failure, context, increase, bound, importance.  */
static bool step_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    struct ranking *ranking = context;
    if (n != 12)
        return diag_fail(d, "internal error: elimination steps of %u columns", n);
    struct ranked_predicate step = {
        strtoul(values[1], NULL, 10),
        { strtoul(values[2], NULL, 10), strtoul(values[3], NULL, 10),
          strtoul(values[4], NULL, 10), strtoul(values[5], NULL, 10) },
        { strtod(values[7], NULL), strtod(values[8], NULL), strtod(values[9], NULL),
          strtod(values[10], NULL), strtod(values[11], NULL), true },
        strtoul(values[6], NULL, 10),
    };
    if (step.predicate >= ranking->universe->n_predicates)
        return diag_fail(d, "an elimination step of predicate %zu, past the release's %zu",
                         step.predicate, ranking->universe->n_predicates);
    ranking->steps = xrealloc(ranking->steps, (ranking->n_steps + 1) * sizeof *ranking->steps);
    ranking->steps[ranking->n_steps++] = step;
    return true;
}

bool ranking_from_store(struct store *store, const struct release *release, size_t top,
                        struct ranking *ranking, struct diag *d)
{
    memset(ranking, 0, sizeof *ranking);
    ranking->universe = &release->universe;
    ranking->confidence = CONFIDENCE;
    ranking->interval = INTERVAL_WILSON;
    ranking->min_failing = MIN_FAILING;
    labeller_describe(&release->labeller, ranking->failure_rule, sizeof ranking->failure_rule);
    struct counts_read read = { release, NULL, 0, 0 };
    read.counts = xcalloc(release->universe.n_predicates + 1, sizeof *read.counts);
    const char *params[1] = { release->id_text };
    bool ok = store_query(store, "SELECT failing, successful FROM release_counts "
                          "WHERE release = $1", 1, params, totals_row, &read, d)
              && store_query(store, "SELECT c.predicate, c.f, c.s, sc.f_obs, sc.s_obs "
                             "FROM predicate_counts c JOIN predicates p "
                             "ON p.release = c.release AND p.predicate = c.predicate "
                             "JOIN site_counts sc ON sc.release = p.release "
                             "AND sc.site = p.site WHERE c.release = $1", 1, params,
                             counts_row, &read, d);
    if (ok) {
        ranking->n_runs = read.failing + read.successful;
        ranking->n_failing = read.failing;
        /* Sites observed in every run (checks, function entries) count as
           observed in every run, as rank counts them.  */
        const struct universe *universe = &release->universe;
        for (size_t p = 0; p < universe->n_predicates; p++) {
            struct predicate_name name;
            universe_name(universe, p, &name);
            if (site_observed_in_every_run(name.site)) {
                read.counts[p].failing_observed = read.failing;
                read.counts[p].successful_observed = read.successful;
            }
        }
        rank_counts(ranking, release, read.counts, top);
    }
    ok = ok && store_query(store, "SELECT step, predicate, f, s, f_obs, s_obs, num_f, failure, "
                           "context, increase, increase_lower_bound, importance "
                           "FROM elimination_steps WHERE release = $1 ORDER BY step", 1,
                           params, step_row, ranking, d)
         && store_query(store, "SELECT active FROM in_play_runs WHERE release = $1", 1, params,
                        still_active_row, ranking, d);
    /* The runs its steps dropped are explained; failing runs folded since
       the elimination are not.  */
    unsigned long explained = 0;
    for (size_t i = 0; i < ranking->n_steps; i++)
        explained += ranking->steps[i].counts.failing_true;
    ranking->n_unexplained = ranking->n_failing > explained ? ranking->n_failing - explained : 0;
    free(read.counts);
    if (!ok)
        ranking_page_free(ranking);
    return ok;
}

void ranking_page_free(struct ranking *ranking)
{
    free(ranking->top);
    free(ranking->steps);
    ranking->top = ranking->steps = NULL;
    ranking->n_top = ranking->n_steps = 0;
}
