/* The ranking of `sampler-report rank' (ranking.h): the universe of
   predicates, each run's observed sites and true predicates collected
   for the statistics of Cooperative Bug Isolation (stats.h), the kept
   predicates scored and sorted, and iterative elimination (isolate.h).  */
#include "statistics/ranking.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schemes/registry.h"
#include "statistics/isolate.h"
#include "statistics/predicates.h"
#include "support/progress.h"
#include "support/util.h"

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
   program never made; see schemes/registry.h), then source order: file, line,
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
                      size_t max_steps, struct diag *d)
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
        if (max_steps && ranking->n_steps == max_steps) {
            ranking->step_limit_reached = true;
            break;
        }
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

bool ranking_compute(struct ranking *ranking, struct universe *universe, struct run_set *set,
                     const struct ranking_rule *rule, struct diag *d)
{
    struct isolation isolation = { 0 };
    struct collector collector = { 0 };
    struct predicate_score *scores = NULL;
    unsigned *predicates_per_site;
    bool *every_run;
    universe_init(universe, &set->catalog, &predicates_per_site, &every_run);
    bool ok = isolation_init(&isolation, universe->n_sites, predicates_per_site, every_run, d);
    free(predicates_per_site);
    free(every_run);
    uint32_t *tie_order = ok ? tie_order_of(universe) : NULL;
    isolation.tie_order = tie_order;
    collector.universe = universe;
    collector.isolation = &isolation;
    ok = ok && run_set_visit(set, collect_run, &collector, d);
    if (ok) {
        ranking->universe = universe;
        ranking->n_runs = set->n_runs;
        ranking->n_failing = set->n_failing;
        ranking->confidence = rule->confidence;
        ranking->interval = rule->interval;
        ranking->min_failing = rule->min_failing;
        labeller_describe(&set->labeller, ranking->failure_rule, sizeof ranking->failure_rule);
        ranking->default_failure_rule = !set->options->labels && !set->options->fail_if;
        struct score_rule score_rule = { critical_z(rule->confidence), rule->interval,
                                         rule->min_failing };
        scores = xcalloc(universe->n_predicates, sizeof *scores);
        isolation_score_all(&isolation, &score_rule, scores);
        rank_initial(ranking, &isolation, scores, rule->top);
        ok = eliminate(ranking, &isolation, scores, &score_rule, rule->max_steps, d);
    }
    free(scores);
    free(tie_order);
    free(collector.sites);
    free(collector.predicates);
    isolation_free(&isolation);
    return ok;
}

void ranking_free(struct ranking *ranking)
{
    free(ranking->top);
    free(ranking->steps);
}
