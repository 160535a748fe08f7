/* The statistics of sampler-report rank (tools/report/stats.c) and its
   elimination engine (isolate.c), on counts and runs made by hand, with
   the expected numbers derived in the comments (z = 1.959963984540054, the
   two-sided critical value at 95%).  */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

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

START_TEST(test_scores_by_hand)
{
    /* 100 runs, 40 failing.  P observed in all 40 failing runs and 40 of
       the successful ones; true in all 40 failing and 10 successful.
         Failure  = 40 / (40 + 10) = 0.8
         Context  = 40 / (40 + 40) = 0.5
         Increase = 0.3
         variance = 0.8 * 0.2 / 50 + 0.5 * 0.5 / 80 = 0.0032 + 0.003125 = 0.006325
         bound    = 0.3 - 1.959963984540054 * sqrt(0.006325)
                  = 0.3 - 1.959963984540054 * 0.0795298686...
                  = 0.3 - 0.1558756781... = 0.1441243218...
         Importance = 2 / (1 / 0.1441243218 + log 40 / log 40)
                    = 2 / (6.938455... + 1) = 0.2519382187...  */
    struct predicate_counts counts = { 40, 10, 40, 40 };
    struct predicate_score score;
    score_predicate(&counts, 40, Z95, &score);
    assert_close(score.failure, 0.8, "Failure");
    assert_close(score.context, 0.5, "Context");
    assert_close(score.increase, 0.3, "Increase");
    assert_close(score.increase_bound, 0.14412432184304594, "bound");
    ck_assert(score.kept);
    assert_close(score.importance, 0.2519382187608407, "Importance");

    /* The same predicate true in 20 of 40 failing runs and no successful
       one, observed in 40 failing and 60 successful:
         Failure = 1, Context = 40 / 100 = 0.4, Increase = 0.6
         bound = 0.6 - z * sqrt(0 + 0.4 * 0.6 / 100) = 0.6 - z * 0.0489898
               = 0.6 - 0.0960182335... = 0.5039817664...
         log 40 / log 20 = 3.6888794541 / 2.9957322736 = 1.2313782131...
         Importance = 2 / (1 / 0.5039817665 + 1.2313782132) = 0.6219723588...  */
    counts = (struct predicate_counts) { 20, 0, 40, 60 };
    score_predicate(&counts, 40, Z95, &score);
    assert_close(score.increase_bound, 0.5039817664728938, "bound (all failing)");
    assert_close(score.importance, 0.621972358888784, "Importance (all failing)");
}
END_TEST

START_TEST(test_edge_cases)
{
    struct predicate_counts counts;
    struct predicate_score score;
    /* True in one failing run of many: log 1 = 0, so Importance is 0 even
       though the bound is above 0 (Failure 1, Context 10/1000 = 0.01,
       bound = 0.99 - z * sqrt(0.01 * 0.99 / 1000) = 0.99 - 0.0061669 > 0).  */
    counts = (struct predicate_counts) { 1, 0, 10, 990 };
    score_predicate(&counts, 10, Z95, &score);
    ck_assert(score.kept);
    ck_assert(score.importance == 0);
    /* Only one failing run, and P true in it: log F / log NumF is taken as
       1: Failure 1, Context 1 / 200, bound = 0.995 - z * sqrt(0.005 *
       0.995 / 200) = 0.995 - 0.0097759 = 0.9852240; Importance
       = 2 / (1 / 0.9852240 + 1) = 0.9925563.  */
    counts = (struct predicate_counts) { 1, 0, 1, 199 };
    score_predicate(&counts, 1, Z95, &score);
    ck_assert(score.kept);
    assert_close(score.importance, 2 / (1 / score.increase_bound + 1), "Importance, NumF 1");
    ck_assert_msg(fabs(score.increase_bound - 0.985224) < 1e-6, "%g", score.increase_bound);
    /* Never true, never observed, or true more often than observed: not
       kept, and no division by zero.  */
    struct predicate_counts bad[] = {
        { 0, 0, 10, 10 }, { 0, 0, 0, 0 }, { 5, 0, 4, 10 }, { 1, 2, 1, 1 }, { 3, 0, 3, 0 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        score_predicate(&bad[i], 3, Z95, &score);
        ck_assert_msg(!score.kept && score.importance == 0, "case %zu", i);
        ck_assert_msg(!isnan(score.increase_bound), "case %zu", i);
    }
    /* Increase 0 (P true in every observed run, the ones that failed no
       more than others): not kept.  */
    counts = (struct predicate_counts) { 30, 70, 30, 70 };
    score_predicate(&counts, 30, Z95, &score);
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
    ck_assert(isolation_init(&isolation, 3, per_site, every_run, &d));
    add_runs(&isolation);
    struct predicate_counts counts;
    isolation_counts(&isolation, 2, &counts);
    ck_assert_uint_eq(counts.failing_true, 20);
    ck_assert_uint_eq(counts.successful_true, 5);
    ck_assert_uint_eq(counts.failing_observed, 40);
    ck_assert_uint_eq(counts.successful_observed, 60);

    /* Before elimination: A (F 20, S 0): Failure 1, Context 0.4, bound
       0.5039817665, Importance 0.6219723589 (test_scores_by_hand).  C (F 20,
       S 5): Failure 0.8, bound = 0.4 - z * sqrt(0.16 / 25 + 0.24 / 100)
       = 0.4 - z * 0.0938083 = 0.2161398 < A's.  B (F 10, S 0): bound
       = 0.6 - 0.0960182 = 0.5039818, as A's, but log 40 / log 10 = 1.60206
       makes Importance 2 / (1.984199 + 1.60206) = 0.5577 < A's.  */
    struct predicate_score scores[3];
    ck_assert_uint_eq(isolation_score_all(&isolation, Z95, scores), 0);
    ck_assert(scores[0].importance > scores[1].importance);
    ck_assert(scores[1].importance > scores[2].importance);
    assert_close(scores[0].importance, 0.621972358888784, "A's Importance");

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
    ck_assert_uint_eq(isolation_score_all(&isolation, Z95, scores), 1);
    ck_assert(!scores[2].kept);
    ck_assert(isolation_drop(&isolation, 1, &failing, &successful, &d));
    ck_assert_uint_eq(failing, 10);
    ck_assert_uint_eq(successful, 0);

    /* The 10 failing runs left are explained by nothing.  */
    ck_assert_uint_eq(isolation_score_all(&isolation, Z95, scores), SIZE_MAX);
    ck_assert_uint_eq(isolation.runs[1], 10);
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
    tcase_add_test(scores, test_scores_by_hand);
    tcase_add_test(scores, test_edge_cases);
    tcase_add_test(scores, test_ordering);
    suite_add_tcase(suite, scores);
    TCase *engine = tcase_create("elimination");
    tcase_add_test(engine, test_elimination);
    tcase_add_test(engine, test_every_run_sites);
    suite_add_tcase(suite, engine);
    return suite;
}
