/* The result of `sampler-report rank': the universe of predicates over the
   catalog's units, the ranking before elimination and the elimination
   steps (ranking.c), for the output formats (output/ranking.h).  */
#ifndef SAMPLER_REPORT_RANKING_H
#define SAMPLER_REPORT_RANKING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "combining/run-set.h"
#include "input/site-table.h"
#include "statistics/stats.h"

/* Where predicate numbers come from: the catalog's units, their sites in
   order, each site's predicates in order.  */
struct universe {
    const struct site_catalog *catalog;
    size_t *unit_first_site;        /* n_units + 1 */
    size_t *site_first_predicate;   /* n_sites + 1 */
    size_t n_sites;
    size_t n_predicates;
};

struct predicate_name {
    const struct unit_table *unit;
    const struct site *site;
    unsigned k;                     /* among the site's predicates */
};

void universe_name(const struct universe *universe, size_t predicate,
                   struct predicate_name *name);

/* The universe of CATALOG; *PREDICATES_PER_SITE and *EVERY_RUN (per site:
   observed in every run) are the caller's to free.  */
void universe_init(struct universe *universe, const struct site_catalog *catalog,
                   unsigned **predicates_per_site, bool **every_run);
void universe_free(struct universe *universe);

/* Each predicate's place among predicates whose scores tie (lower first):
   by its scheme's tie group, then source order.  The caller frees it.  */
uint32_t *tie_order_of(const struct universe *universe);

struct ranked_predicate {
    size_t predicate;
    struct predicate_counts counts;
    struct predicate_score score;
    unsigned long failing_in_play;  /* NumF when it was scored */
};

struct ranking {
    const struct universe *universe;
    unsigned long n_runs;
    unsigned long n_failing;
    char failure_rule[256];
    bool default_failure_rule;      /* neither --fail-if nor --labels given */
    double confidence;              /* e.g. 0.95 */
    enum increase_interval interval;
    unsigned long min_failing;
    size_t n_kept;                  /* predicates kept before elimination */
    struct ranked_predicate *top;   /* the best before elimination */
    size_t n_top;
    struct ranked_predicate *steps; /* elimination: counts are the dropped runs' */
    size_t n_steps;
    unsigned long n_unexplained;    /* failing runs left when elimination stopped */
    bool step_limit_reached;        /* stopped by max_steps, predicates were left */
};

/* How predicates are scored and which are kept (the command's options).  */
struct ranking_rule {
    double confidence;              /* of Increase's lower bound, e.g. 0.95 */
    enum increase_interval interval;
    unsigned long min_failing;      /* kept: true in at least this many failing runs */
    size_t top;                     /* the best before elimination listed; 0: all kept */
    size_t max_steps;               /* elimination stops after this many; 0: no limit */
    bool max_steps_given;           /* --steps was given */
};

/* Ranks the predicates of SET's runs (walking them once) into RANKING,
   whose predicates are numbered in UNIVERSE.  */
bool ranking_compute(struct ranking *ranking, struct universe *universe, struct run_set *set,
                     const struct ranking_rule *rule, struct diag *d);

void ranking_free(struct ranking *ranking);

#endif
