/* Statistical bug isolation over any number of runs in bounded memory.

   Predicates and sites are numbered globally (0 ..).  Each run is added
   once, as its label and two ascending lists: the sites observed in it and
   the predicates true in it.  The engine keeps, for the runs still in play,
   per site how many failing and successful runs observed it, and per
   predicate how many found it true; the runs themselves go to a temporary
   file.  Iterative elimination (CBI, PLDI 2005) takes the top predicate,
   drops the runs where it is true and re-scores: dropping is one pass over
   the file that subtracts the dropped runs' contributions, so memory stays
   proportional to the number of predicates (plus one byte per run).  */
#ifndef SAMPLER_REPORT_ISOLATE_H
#define SAMPLER_REPORT_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "statistics/stats.h"
#include "support/util.h"

struct isolation {
    size_t n_sites;
    size_t n_predicates;
    uint32_t *predicate_site;            /* per predicate */
    bool *site_in_every_run;             /* observed in every run, whatever was sampled */
    unsigned long *site_observed[2];     /* [failed]: runs in play that observed the site */
    unsigned long *predicate_true[2];    /* [failed]: runs in play where it is true */
    unsigned long runs[2];               /* [failed]: runs in play */
    FILE *spill;
    unsigned char *run_state;            /* per run: RUN_FAILED, RUN_DROPPED */
    unsigned long n_runs;
    size_t run_state_capacity;
    /* Per predicate, its place among equals (lower first), or NULL: the
       predicate's number.  Set by the caller; not owned.  */
    const uint32_t *tie_order;
};

/* PREDICATES_PER_SITE[s] predicates for site s, numbered in site order;
   EVERY_RUN[s] says whether site s counts as observed in every run.  */
bool isolation_init(struct isolation *isolation, size_t n_sites,
                    const unsigned *predicates_per_site, const bool *every_run, struct diag *d);

/* Adds a run: SITES (ascending, observed sites other than every-run ones)
   and PREDICATES (ascending, true ones).  */
bool isolation_add_run(struct isolation *isolation, bool failed, const uint32_t *sites,
                       size_t n_sites, const uint32_t *predicates, size_t n_predicates,
                       struct diag *d);

/* The predicate's four counts among the runs in play.  */
void isolation_counts(const struct isolation *isolation, size_t predicate,
                      struct predicate_counts *counts);

/* Scores every predicate among the runs in play into SCORES (n_predicates);
   returns the best kept one, or SIZE_MAX if none is kept.  Ties
   (compare_scores) go to the lower tie_order.  */
size_t isolation_score_all(const struct isolation *isolation, const struct score_rule *rule,
                           struct predicate_score *scores);

/* Whether predicate A comes before predicate B when their scores tie.  */
bool isolation_tie_before(const struct isolation *isolation, size_t a, size_t b);

/* Drops the runs in play where PREDICATE is true; says how many failing and
   successful runs went.  */
bool isolation_drop(struct isolation *isolation, size_t predicate, unsigned long *failing,
                    unsigned long *successful, struct diag *d);

void isolation_free(struct isolation *isolation);

#endif
