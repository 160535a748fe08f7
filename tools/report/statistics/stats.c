#include "statistics/stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

double critical_z(double confidence)
{
    return gsl_cdf_ugaussian_Pinv(1 - (1 - confidence) / 2);
}

static double wilson_end(double x, double n, double z, double sign)
{
    double p = x / n, z2 = z * z;
    double centre = p + z2 / (2 * n);
    double half_width = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    return (centre + sign * half_width) / (1 + z2 / n);
}

/* At 0 of n and n of n the formula gives 0 and 1 up to rounding: exactly
   0 and 1, so that the interval always holds x / n.  */
double wilson_lower(double x, double n, double z)
{
    return x == 0 ? 0 : wilson_end(x, n, z, -1);
}

double wilson_upper(double x, double n, double z)
{
    return x == n ? 1 : wilson_end(x, n, z, 1);
}

void score_predicate(const struct predicate_counts *counts, unsigned long num_failing,
                     const struct score_rule *rule, struct predicate_score *score)
{
    double f = (double) counts->failing_true, s = (double) counts->successful_true;
    double f_obs = (double) counts->failing_observed, s_obs = (double) counts->successful_observed;
    double z = rule->z;
    *score = (struct predicate_score) { 0 };
    bool sensible = counts->failing_true + counts->successful_true > 0
                    && counts->failing_true <= counts->failing_observed
                    && counts->successful_true <= counts->successful_observed
                    && counts->failing_observed <= num_failing;
    if (!sensible)
        return;
    score->failure = f / (f + s);
    score->context = f_obs / (f_obs + s_obs);
    score->increase = score->failure - score->context;
    if (rule->interval == INTERVAL_NORMAL) {
        score->increase_bound = score->increase
            - z * sqrt(score->failure * (1 - score->failure) / (f + s)
                       + score->context * (1 - score->context) / (f_obs + s_obs));
    } else {
        double failure_below = score->failure - wilson_lower(f, f + s, z);
        double context_above = wilson_upper(f_obs, f_obs + s_obs, z) - score->context;
        score->increase_bound = score->increase
            - sqrt(failure_below * failure_below + context_above * context_above);
    }
    score->kept = score->increase_bound > 0 && counts->failing_true >= rule->min_failing;
    if (!score->kept)
        return;
    if (counts->failing_true <= 1 && num_failing > 1) {
        score->importance = 0;
        return;
    }
    double sensitivity_inverse = num_failing <= 1 ? 1 : log((double) num_failing) / log(f);
    score->importance = 2 / (1 / score->increase_bound + sensitivity_inverse);
}

int compare_scores(const struct predicate_score *a, const struct predicate_counts *ca,
                   const struct predicate_score *b, const struct predicate_counts *cb)
{
    if (a->importance != b->importance)
        return a->importance > b->importance ? -1 : 1;
    if (a->increase_bound != b->increase_bound)
        return a->increase_bound > b->increase_bound ? -1 : 1;
    if (ca->failing_true != cb->failing_true)
        return ca->failing_true > cb->failing_true ? -1 : 1;
    return 0;
}
