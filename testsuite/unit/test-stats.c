/* The statistics of sampler-report rank (tools/report/statistics/stats.c)
   and its elimination engine (isolate.c), on counts and runs made by hand, with
   the expected numbers derived in the comments (z = 1.959963984540054, the
   two-sided critical value at 95%), and Increase's bound checked against
   GSL's normal and binomial distributions.  */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "isolate.h"
#include "stats.h"

#define Z95 1.959963984540054

static void assert_close(double got, double want, const char *what)
{
    ck_assert_msg(fabs(got - want) < 1e-9, "%s: %.17g, expected %.17g", what, got, want);
}

START_TEST(test_critical_values)
{
    /* Tables of the standard normal: 1.959964 at 95%, 2.575829 at 99%,
       1.644854 at 90% (two-sided).  */
    ck_assert_msg(fabs(critical_z(0.95) - 1.959964) < 1e-6, "%g", critical_z(0.95));
    ck_assert_msg(fabs(critical_z(0.99) - 2.575829) < 1e-6, "%g", critical_z(0.99));
    ck_assert_msg(fabs(critical_z(0.90) - 1.644854) < 1e-6, "%g", critical_z(0.90));
}
END_TEST

/* The ends of Wilson's interval against GSL's normal distribution: at the
   lower end L of x of n, the score statistic (x/n - L) / sqrt(L (1 - L) / n)
   is the normal quantile at 1 - alpha/2; likewise at the upper end.  */
START_TEST(test_wilson_defining_equation)
{
    for (unsigned n = 1; n <= 60; n++) {
        for (unsigned x = 0; x <= n; x++) {
            double p = (double) x / n;
            double low = wilson_lower(x, n, Z95), high = wilson_upper(x, n, Z95);
            ck_assert_msg(low >= 0 && low <= p && p <= high && high <= 1,
                          "%u of %u: [%g, %g]", x, n, low, high);
            if (x > 0) {
                double score = (p - low) / sqrt(low * (1 - low) / n);
                ck_assert_msg(fabs(gsl_cdf_ugaussian_P(score) - 0.975) < 1e-9,
                              "%u of %u: lower end %g", x, n, low);
            } else {
                ck_assert_msg(fabs(low) < 1e-15, "0 of %u: lower end %g", n, low);
            }
            if (x < n) {
                double score = (high - p) / sqrt(high * (1 - high) / n);
                ck_assert_msg(fabs(gsl_cdf_ugaussian_P(score) - 0.975) < 1e-9,
                              "%u of %u: upper end %g", x, n, high);
            }
        }
    }
    /* All n of n: the lower end is n / (n + z^2), the interval keeps its
       width (the normal approximation's is 0).  */
    assert_close(wilson_lower(1, 1, Z95), 1 / (1 + Z95 * Z95), "1 of 1");
    assert_close(wilson_lower(10, 10, Z95), 10 / (10 + Z95 * Z95), "10 of 10");
}
END_TEST

/* The probability, under Binomial(N, P), that LOWER (N + 1 bounds, one per
   outcome) is at most P: the coverage of a lower bound, exactly.  */
static double coverage(const double *lower, unsigned n, double p)
{
    double covered = 0;
    for (unsigned x = 0; x <= n; x++) {
        if (lower[x] <= p)
            covered += gsl_ran_binomial_pdf(x, p, n);
    }
    return covered;
}

/* Wilson's lower end as a one-sided 97.5% bound, exactly by GSL's binomial
   distribution over p = 0.01 .. 0.99 for n = 1 .. 50: on average over p
   it covers at least 97% for every n (Brown, Cai and DasGupta, Statistical
   Science 2001, find its mean coverage close to nominal) and never less
   than 75%.  The normal approximation's lower bound p - z sqrt(p (1 - p) /
   n), the bound CBI used, covers p = 0.95 with n = 5 in 23% of samples:
   whenever all 5 are successes its width is 0.  */
START_TEST(test_wilson_coverage)
{
    double wilson[51], normal[51];
    double worst = 1;
    for (unsigned n = 1; n <= 50; n++) {
        for (unsigned x = 0; x <= n; x++) {
            double p = (double) x / n;
            wilson[x] = wilson_lower(x, n, Z95);
            normal[x] = p - Z95 * sqrt(p * (1 - p) / n);
        }
        double sum = 0;
        for (unsigned i = 1; i <= 99; i++) {
            double c = coverage(wilson, n, i / 100.0);
            sum += c;
            if (c < worst)
                worst = c;
        }
        ck_assert_msg(sum / 99 >= 0.97, "n %u: mean coverage %g", n, sum / 99);
        if (n == 5) {
            ck_assert_msg(coverage(wilson, n, 0.95) > 0.95, "Wilson, 0.95 of 5");
            ck_assert_msg(coverage(normal, n, 0.95) < 0.25, "normal, 0.95 of 5");
        }
    }
    ck_assert_msg(worst >= 0.75, "worst coverage %g", worst);
}
END_TEST

/* Increase's bound (Newcombe's hybrid) as a one-sided 97.5% bound on
   p1 - p2 for two independent binomials, exactly: over p1, p2 in 0.05 ..
   0.95 and sample sizes with few runs where P is true (3 .. 20) and more
   where it is observed (20 .. 200), the mean coverage is at least 97% and
   the worst at least 85%.  */
START_TEST(test_increase_bound_coverage)
{
    static const unsigned true_sizes[] = { 3, 5, 10, 20 }, observed_sizes[] = { 20, 50, 200 };
    struct score_rule rule = { Z95, INTERVAL_WILSON, 1 };
    static double bound[21][201], pdf1[21], pdf2[201];
    double worst = 1, sum = 0;
    unsigned cases = 0;
    for (size_t a = 0; a < 4; a++) {
        for (size_t b = 0; b < 3; b++) {
            unsigned n1 = true_sizes[a], n2 = observed_sizes[b];
            for (unsigned x = 0; x <= n1; x++) {
                for (unsigned y = 0; y <= n2; y++) {
                    double p1 = (double) x / n1, p2 = (double) y / n2;
                    bound[x][y] = p1 - p2 - hypot(p1 - wilson_lower(x, n1, Z95),
                                                  wilson_upper(y, n2, Z95) - p2);
                }
            }
            for (unsigned i = 1; i < 20; i++) {
                for (unsigned j = 1; j < 20; j++) {
                    double p1 = i / 20.0, p2 = j / 20.0, c = 0;
                    for (unsigned x = 0; x <= n1; x++)
                        pdf1[x] = gsl_ran_binomial_pdf(x, p1, n1);
                    for (unsigned y = 0; y <= n2; y++)
                        pdf2[y] = gsl_ran_binomial_pdf(y, p2, n2);
                    for (unsigned x = 0; x <= n1; x++)
                        for (unsigned y = 0; y <= n2; y++)
                            if (bound[x][y] <= p1 - p2)
                                c += pdf1[x] * pdf2[y];
                    sum += c;
                    cases++;
                    if (c < worst)
                        worst = c;
                }
            }
        }
    }
    ck_assert_msg(sum / cases >= 0.97, "mean coverage %g", sum / cases);
    ck_assert_msg(worst >= 0.85, "worst coverage %g", worst);
    /* score_predicate computes that bound: P true in 3 of 5 runs, observed
       in 20 of 50 (counts as failing and successful runs).  */
    struct predicate_counts counts = { 3, 2, 20, 30 };
    struct predicate_score score;
    score_predicate(&counts, 20, &rule, &score);
    assert_close(score.increase_bound, 0.6 - 0.4 - hypot(0.6 - wilson_lower(3, 5, Z95),
                                                         wilson_upper(20, 50, Z95) - 0.4),
                 "score_predicate's bound");
}
END_TEST

START_TEST(test_scores_by_hand)
{
    /* 100 runs, 40 failing.  P observed in all 40 failing runs and 40 of
       the successful ones; true in all 40 failing and 10 successful.
         Failure  = 40 / (40 + 10) = 0.8
         Context  = 40 / (40 + 40) = 0.5
         Increase = 0.3
         Wilson's interval of 40 of 50 at z = 1.96: lower end
           (0.8 + z^2/100 - z sqrt(0.16/50 + z^2/10000)) / (1 + z^2/50)
           = 0.6696289407; Failure - lower = 0.1303710593
         Wilson's interval of 40 of 80: upper end 0.6070258491;
           upper - Context = 0.1070258491
         bound = 0.3 - sqrt(0.1303710593^2 + 0.1070258491^2)
               = 0.3 - 0.1686746735 = 0.1313253265
         Importance = 2 / (1 / 0.1313253265 + log 40 / log 40)
                    = 0.2321619138  */
    struct score_rule rule = { Z95, INTERVAL_WILSON, 3 };
    struct predicate_counts counts = { 40, 10, 40, 40 };
    struct predicate_score score;
    score_predicate(&counts, 40, &rule, &score);
    assert_close(score.failure, 0.8, "Failure");
    assert_close(score.context, 0.5, "Context");
    assert_close(score.increase, 0.3, "Increase");
    assert_close(score.increase_bound, 0.1313253264633707, "bound");
    ck_assert(score.kept);
    assert_close(score.importance, 0.23216191380406204, "Importance");

    /* The normal approximation, for comparison:
         variance = 0.8 * 0.2 / 50 + 0.5 * 0.5 / 80 = 0.006325
         bound    = 0.3 - 1.959963984540054 * sqrt(0.006325) = 0.1441243218  */
    struct score_rule normal = { Z95, INTERVAL_NORMAL, 1 };
    score_predicate(&counts, 40, &normal, &score);
    assert_close(score.increase_bound, 0.14412432184304594, "normal bound");

    /* True in 20 of 40 failing runs and no successful one, observed in 40
       failing and 60 successful: Failure 1, Context 0.4, Increase 0.6.
         Wilson lower end of 20 of 20: 20 / (20 + z^2) = 0.8388748419
         Wilson upper end of 40 of 100: 0.4979974132
         bound = 0.6 - sqrt(0.1611251581^2 + 0.0979974132^2) = 0.4114136549
         Importance = 2 / (1 / 0.4114136549 + log 40 / log 20) = 0.5461463799
       The normal approximation gives Failure's term no width at all.  */
    counts = (struct predicate_counts) { 20, 0, 40, 60 };
    score_predicate(&counts, 40, &rule, &score);
    assert_close(score.increase_bound, 0.41141365491322179, "bound (all failing)");
    assert_close(score.importance, 0.54614637994803239, "Importance (all failing)");
}
END_TEST

START_TEST(test_edge_cases)
{
    struct predicate_counts counts;
    struct predicate_score score;
    struct score_rule rule = { Z95, INTERVAL_WILSON, 1 };
    /* True in one failing run of ten, observed in a thousand runs: the
       normal approximation's bound is 0.99 - z sqrt(0.01 * 0.99 / 1000)
       = 0.984; Wilson's lower end of 1 of 1 is 1 / (1 + z^2) = 0.2065, so
       the bound is 0.99 - sqrt(0.7935^2 + 0.0083^2) = 0.1965.  Importance
       is 0 (log 1 = 0).  */
    counts = (struct predicate_counts) { 1, 0, 10, 990 };
    score_predicate(&counts, 10, &rule, &score);
    assert_close(score.increase_bound, 0.19650580481761637, "one of one");
    ck_assert(score.kept);
    ck_assert(score.importance == 0);
    /* The minimum support keeps it out whatever its bound.  */
    struct score_rule three = { Z95, INTERVAL_WILSON, 3 };
    score_predicate(&counts, 10, &three, &score);
    ck_assert(!score.kept && score.importance == 0);
    counts = (struct predicate_counts) { 3, 0, 3, 97 };
    score_predicate(&counts, 3, &three, &score);
    ck_assert(score.kept);
    assert_close(score.increase_bound, 0.40586235921331226, "three of three");
    /* Only one failing run, and P true in it: log F / log NumF is taken as
       1: Failure 1, Context 1 / 200, bound = 0.995 - sqrt(0.7935^2 +
       0.0228^2) = 0.2012; Importance = 2 / (1 / 0.2012 + 1) = 0.3350.  */
    counts = (struct predicate_counts) { 1, 0, 1, 199 };
    score_predicate(&counts, 1, &rule, &score);
    ck_assert(score.kept);
    assert_close(score.importance, 0.33502959829670342, "Importance, NumF 1");
    /* Never true, never observed, or true more often than observed: not
       kept, and no division by zero.  */
    struct predicate_counts bad[] = {
        { 0, 0, 10, 10 }, { 0, 0, 0, 0 }, { 5, 0, 4, 10 }, { 1, 2, 1, 1 }, { 3, 0, 3, 0 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        for (int interval = INTERVAL_WILSON; interval <= INTERVAL_NORMAL; interval++) {
            struct score_rule each = { Z95, (enum increase_interval) interval, 1 };
            score_predicate(&bad[i], 3, &each, &score);
            ck_assert_msg(!score.kept && score.importance == 0, "case %zu", i);
            ck_assert_msg(!isnan(score.increase_bound), "case %zu", i);
        }
    }
    /* Increase 0 (P true in every observed run, the ones that failed no
       more than others): not kept.  */
    counts = (struct predicate_counts) { 30, 70, 30, 70 };
    score_predicate(&counts, 30, &rule, &score);
    assert_close(score.increase, 0, "Increase when always true");
    ck_assert(!score.kept);
}
END_TEST

START_TEST(test_ordering)
{
    struct predicate_score a = { .importance = 0.5, .increase_bound = 0.1 };
    struct predicate_score b = { .importance = 0.4, .increase_bound = 0.9 };
    struct predicate_counts ca = { 10, 0, 10, 10 }, cb = { 20, 0, 20, 20 };
    ck_assert_int_eq(compare_scores(&a, &ca, &b, &cb), -1);
    ck_assert_int_eq(compare_scores(&b, &cb, &a, &ca), 1);
    /* Equal Importance: the higher bound, then more failing runs.  */
    b.importance = 0.5;
    ck_assert_int_eq(compare_scores(&b, &cb, &a, &ca), -1);
    b.increase_bound = 0.1;
    ck_assert_int_eq(compare_scores(&b, &cb, &a, &ca), -1);
    ck_assert_int_eq(compare_scores(&a, &ca, &a, &ca), 0);
}
END_TEST

/* Runs for the engine: 100 runs, failing ones first (40), over three sites
   with one predicate each:
     site 0, predicate 0 "A": true in failing runs 0..19, no successful one
     site 1, predicate 1 "B": true in failing runs 20..29
     site 2, predicate 2 "C": true where A is, and in 5 successful runs:
                              a weaker proxy of bug A
   Every site is observed in every run.  Runs 30..39 fail for no reason the
   predicates see.  */
static void add_runs(struct isolation *isolation)
{
    struct diag d;
    for (uint32_t run = 0; run < 100; run++) {
        uint32_t sites[] = { 0, 1, 2 };
        uint32_t predicates[3];
        size_t n = 0;
        bool failed = run < 40;
        if (run < 20)
            predicates[n++] = 0;
        if (run >= 20 && run < 30)
            predicates[n++] = 1;
        if (run < 20 || (run >= 40 && run < 45))
            predicates[n++] = 2;
        ck_assert_msg(isolation_add_run(isolation, failed, sites, 3, predicates, n, &d), "%s",
                      d.message);
    }
}

START_TEST(test_elimination)
{
    struct isolation isolation;
    struct diag d;
    unsigned per_site[] = { 1, 1, 1 };
    bool every_run[] = { false, false, false };
    struct score_rule rule = { Z95, INTERVAL_WILSON, 3 };
    ck_assert(isolation_init(&isolation, 3, per_site, every_run, &d));
    add_runs(&isolation);
    struct predicate_counts counts;
    isolation_counts(&isolation, 2, &counts);
    ck_assert_uint_eq(counts.failing_true, 20);
    ck_assert_uint_eq(counts.successful_true, 5);
    ck_assert_uint_eq(counts.failing_observed, 40);
    ck_assert_uint_eq(counts.successful_observed, 60);

    /* Before elimination: A (F 20, S 0): Failure 1, Context 0.4, bound
       0.4114136549, Importance 0.5461463799 (test_scores_by_hand).  C (F 20,
       S 5): Failure 0.8, Wilson lower end of 20 of 25 0.6087, bound
       = 0.4 - sqrt(0.1913^2 + 0.0980^2) = 0.1851 < A's.  B (F 10, S 0):
       Wilson lower end of 10 of 10 0.7225, bound 0.6 - sqrt(0.2775^2 +
       0.0980^2) = 0.3057 and log 40 / log 10 = 1.60206: Importance
       2 / (3.2712 + 1.6021) = 0.4104 < A's.  */
    struct predicate_score scores[3];
    ck_assert_uint_eq(isolation_score_all(&isolation, &rule, scores), 0);
    ck_assert(scores[0].importance > scores[1].importance);
    ck_assert(scores[1].importance > scores[2].importance);
    assert_close(scores[0].importance, 0.54614637994803239, "A's Importance");

    /* Step 1 drops A's 20 failing runs (and no successful one).  C is left
       true in 5 successful runs only: Failure 0, not kept.  */
    unsigned long failing, successful;
    ck_assert(isolation_drop(&isolation, 0, &failing, &successful, &d));
    ck_assert_uint_eq(failing, 20);
    ck_assert_uint_eq(successful, 0);
    ck_assert_uint_eq(isolation.runs[1], 20);
    ck_assert_uint_eq(isolation.runs[0], 60);
    isolation_counts(&isolation, 2, &counts);
    ck_assert_uint_eq(counts.failing_true, 0);
    ck_assert_uint_eq(counts.failing_observed, 20);

    /* Step 2: B, now among 20 failing runs (log 20 / log 10).  */
    ck_assert_uint_eq(isolation_score_all(&isolation, &rule, scores), 1);
    ck_assert(!scores[2].kept);
    ck_assert(isolation_drop(&isolation, 1, &failing, &successful, &d));
    ck_assert_uint_eq(failing, 10);
    ck_assert_uint_eq(successful, 0);

    /* The 10 failing runs left are explained by nothing.  */
    ck_assert_uint_eq(isolation_score_all(&isolation, &rule, scores), SIZE_MAX);
    ck_assert_uint_eq(isolation.runs[1], 10);
    isolation_free(&isolation);
}
END_TEST

/* Exact ties in the engine: predicates 0 and 1 are true in the same runs
   (failing runs 0..9, observed everywhere), so their scores are equal.
   Without a tie order the lower number wins; with one (as rank makes it:
   a branch or return before a scalar pair), the order decides.  */
START_TEST(test_ties)
{
    struct isolation isolation;
    struct diag d;
    unsigned per_site[] = { 1, 1 };
    bool every_run[] = { false, false };
    struct score_rule rule = { Z95, INTERVAL_WILSON, 3 };
    ck_assert(isolation_init(&isolation, 2, per_site, every_run, &d));
    for (uint32_t run = 0; run < 50; run++) {
        uint32_t sites[] = { 0, 1 }, predicates[] = { 0, 1 };
        ck_assert(isolation_add_run(&isolation, run < 20, sites, 2, predicates, run < 10 ? 2 : 0,
                                    &d));
    }
    struct predicate_score scores[2];
    ck_assert_uint_eq(isolation_score_all(&isolation, &rule, scores), 0);
    ck_assert(scores[0].importance == scores[1].importance && scores[0].kept);
    uint32_t order[] = { 1, 0 };
    isolation.tie_order = order;
    ck_assert_uint_eq(isolation_score_all(&isolation, &rule, scores), 1);
    ck_assert(isolation_tie_before(&isolation, 1, 0) && !isolation_tie_before(&isolation, 0, 1));
    isolation_free(&isolation);
}
END_TEST

START_TEST(test_every_run_sites)
{
    /* A function entry (site 0) counts as observed in every run, whether
       sampled or not: Context is the failure rate of all runs, 40/100.  */
    struct isolation isolation;
    struct diag d;
    unsigned per_site[] = { 1, 1, 1 };
    bool every_run[] = { true, false, false };
    ck_assert(isolation_init(&isolation, 3, per_site, every_run, &d));
    for (uint32_t run = 0; run < 100; run++) {
        uint32_t predicates[] = { 0 };
        ck_assert(isolation_add_run(&isolation, run < 40, NULL, 0, predicates,
                                    run < 20 ? 1 : 0, &d));
    }
    struct predicate_counts counts;
    isolation_counts(&isolation, 0, &counts);
    ck_assert_uint_eq(counts.failing_observed, 40);
    ck_assert_uint_eq(counts.successful_observed, 60);
    ck_assert_uint_eq(counts.failing_true, 20);
    isolation_free(&isolation);
}
END_TEST

Suite *stats_suite(void)
{
    Suite *suite = suite_create("rank statistics");
    TCase *scores = tcase_create("scores");
    tcase_add_test(scores, test_critical_values);
    tcase_add_test(scores, test_wilson_defining_equation);
    tcase_add_test(scores, test_wilson_coverage);
    tcase_add_test(scores, test_increase_bound_coverage);
    tcase_add_test(scores, test_scores_by_hand);
    tcase_add_test(scores, test_edge_cases);
    tcase_add_test(scores, test_ordering);
    suite_add_tcase(suite, scores);
    TCase *engine = tcase_create("elimination");
    tcase_add_test(engine, test_elimination);
    tcase_add_test(engine, test_ties);
    tcase_add_test(engine, test_every_run_sites);
    suite_add_tcase(suite, engine);
    return suite;
}
