/* The scores of Cooperative Bug Isolation (Liblit et al., "Scalable
   Statistical Bug Isolation", PLDI 2005) for one predicate P, from four
   counts over a set of runs:

     F(P), S(P)            failing / successful runs where P was observed true
     F(P obs), S(P obs)    failing / successful runs where P was observed

     Failure(P)  = F(P) / (F(P) + S(P))
     Context(P)  = F(P obs) / (F(P obs) + S(P obs))
     Increase(P) = Failure(P) - Context(P)

   Increase's lower confidence bound uses the normal approximation, as CBI's
   own analysis code does:

     bound = Increase - z * sqrt(Failure (1 - Failure) / (F + S)
                                 + Context (1 - Context) / (F obs + S obs))

   with z the two-sided critical value of the confidence level (1.96 at
   95%).  A predicate is kept only when its bound is above 0.  Importance is
   the harmonic mean of the bound and log F(P) / log NumF (NumF: failing
   runs in the set):

     Importance = 2 / (1 / bound + log NumF / log F(P))

   which is 0 when F(P) = 1 (one failing run is no evidence) and, when
   NumF = 1, 2 / (1 / bound + 1) (log F / log NumF taken as 1: P is true in
   the only failing run).  */
#ifndef SAMPLER_REPORT_STATS_H
#define SAMPLER_REPORT_STATS_H

#include <stdbool.h>

struct predicate_counts {
    unsigned long failing_true;       /* F(P) */
    unsigned long successful_true;    /* S(P) */
    unsigned long failing_observed;   /* F(P observed) */
    unsigned long successful_observed;
};

struct predicate_score {
    double failure;
    double context;
    double increase;
    double increase_bound;   /* lower confidence bound of Increase */
    double importance;       /* 0 unless kept */
    bool kept;               /* bound > 0 */
};

/* The two-sided critical value for CONFIDENCE (0 < CONFIDENCE < 1): the
   standard normal quantile at 1 - (1 - CONFIDENCE) / 2.  */
double critical_z(double confidence);

/* Scores COUNTS among runs of which NUM_FAILING failed.  Counts that make
   no sense (true in more runs than observed, observed in none) give a
   score that is not kept.  */
void score_predicate(const struct predicate_counts *counts, unsigned long num_failing,
                     double z, struct predicate_score *score);

/* Whether A ranks above B: higher Importance, then higher bound, then more
   failing runs.  Equal scores compare equal (the caller breaks ties by
   position).  Returns -1, 0 or 1 in qsort's sense (-1: A first).  */
int compare_scores(const struct predicate_score *a, const struct predicate_counts *ca,
                   const struct predicate_score *b, const struct predicate_counts *cb);

#endif
