/* The scores of Cooperative Bug Isolation (Liblit et al., "Scalable
   Statistical Bug Isolation", PLDI 2005) for one predicate P, from four
   counts over a set of runs:

     F(P), S(P)            failing / successful runs where P was observed true
     F(P obs), S(P obs)    failing / successful runs where P was observed

     Failure(P)  = F(P) / (F(P) + S(P))
     Context(P)  = F(P obs) / (F(P obs) + S(P obs))
     Increase(P) = Failure(P) - Context(P)

   Increase's lower confidence bound is, by default, Newcombe's hybrid
   score bound for a difference of two proportions (Newcombe, Statistics
   in Medicine 1998, method 10), built from Wilson's score interval (Wilson,
   JASA 1927) of each proportion:

     bound = Increase - sqrt((Failure - lower(Failure))^2
                             + (upper(Context) - Context)^2)

   where lower and upper are the ends of the Wilson interval at the
   two-sided confidence level (z = 1.96 at 95%):

     Wilson(x of n) = (p + z^2 / 2n -+ z sqrt(p (1 - p) / n + z^2 / 4n^2))
                      / (1 + z^2 / n),    p = x / n

   Unlike the normal approximation with the sample's variance (CBI's
   choice, kept as INTERVAL_NORMAL for comparison), the Wilson interval
   keeps its width when p is 0 or 1: one failing run of one gives Failure's
   interval [0.21, 1], not [1, 1].

   A predicate is kept when its bound is above 0 and it is true in at least
   MIN_FAILING failing runs.  Importance is the harmonic mean of the bound
   (not the estimate) and log F(P) / log NumF (NumF: failing runs in the
   set):

     Importance = 2 / (1 / bound + log NumF / log F(P))

   which is 0 when F(P) = 1 and, when NumF = 1, 2 / (1 / bound + 1) (log F /
   log NumF taken as 1: P is true in the only failing run).  */
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
    double importance;       /* from the bound; 0 unless kept */
    bool kept;               /* bound > 0 and F(P) >= min_failing */
};

enum increase_interval {
    INTERVAL_WILSON,         /* Newcombe's hybrid of Wilson score intervals */
    INTERVAL_NORMAL,         /* normal approximation, sample variance (CBI) */
};

/* How predicates are scored and which are kept.  */
struct score_rule {
    double z;                    /* two-sided critical value, critical_z */
    enum increase_interval interval;
    unsigned long min_failing;   /* kept only if true in this many failing runs */
};

/* The two-sided critical value for CONFIDENCE (0 < CONFIDENCE < 1): the
   standard normal quantile at 1 - (1 - CONFIDENCE) / 2.  */
double critical_z(double confidence);

/* The ends of Wilson's score interval for X successes in N trials (N > 0)
   at critical value Z.  */
double wilson_lower(double x, double n, double z);
double wilson_upper(double x, double n, double z);

/* Scores COUNTS among runs of which NUM_FAILING failed.  Counts that make
   no sense (true in more runs than observed, observed in none) give a
   score that is not kept.  */
void score_predicate(const struct predicate_counts *counts, unsigned long num_failing,
                     const struct score_rule *rule, struct predicate_score *score);

/* Whether A ranks above B: higher Importance, then higher bound, then more
   failing runs where true.  Equal scores compare equal (the caller breaks
   ties by the kind of predicate and source order).  Returns -1, 0 or 1 in
   qsort's sense (-1: A first).  */
int compare_scores(const struct predicate_score *a, const struct predicate_counts *ca,
                   const struct predicate_score *b, const struct predicate_counts *cb);

#endif
