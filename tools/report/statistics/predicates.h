/* The predicates of Cooperative Bug Isolation, derived from a site's
   counters (summed over one run).  A predicate is observed in a run when
   its site was sampled at least once, and true when it was observed true at
   least once.

     branches (if, loop test, &&, ||, ?:)  P, !P (true and false counters)
     branches (switch)                     one per arm: the arm was taken
     returns, scalar-pairs                 the six relations of the value to 0
                                           (or of the pair) from the <, ==, >
                                           counters: <, >=, ==, !=, >, <=
     float-kinds                           one per class: nan, -inf, ... +inf
     bounds, signed or double              x < 0 (min < 0), x <= 0 (min <= 0),
                                           x > 0 (max > 0), x >= 0 (max >= 0),
                                           x != 0 (min or max not 0)
     bounds, unsigned                      x == 0 (min == 0), x != 0 (max > 0)
     function-entries, checks              entered / ran

   Bounds keep only the least and greatest value, so "x == 0" is known only
   for unsigned variables; NaNs are not seen by bounds predicates
   (float-kinds sees them).  Function entries and checks have no "not
   taken" counter: a sampled visit makes them true, and they count as
   observed in every run, so that Context is the failure rate of all runs
   and Increase says how much more often runs that were seen there failed.  */
#ifndef SAMPLER_REPORT_PREDICATES_H
#define SAMPLER_REPORT_PREDICATES_H

#include <stdbool.h>

#include "input/site-table.h"
#include "support/util.h"

/* How many predicates the site has.  */
unsigned site_predicate_count(const struct site *site);

/* Whether the site's predicates count as observed in every run.  */
bool site_observed_in_every_run(const struct site *site);

/* Whether predicate K of the site is true, from VALUES.  */
bool site_predicate_true(const struct site *site, const unsigned long long *values, unsigned k);

/* Appends predicate K's text ("argc > 1", "!(argc > 1)", "parse (s) < 0",
   "n <= limit", "x is -inf", "main entered") to OUT, NUL-terminated.  */
void site_predicate_text(const struct site *site, unsigned k, struct byte_buffer *out);

#endif
