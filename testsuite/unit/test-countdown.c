/* Countdown streams: the law of the draws (mean, chi-square against the
   geometric distribution, lag-1 correlation) and repeatability.  Every test
   uses fixed seeds, so a pass or a failure is itself reproducible.  */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <gsl/gsl_cdf.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

enum { DRAWS = 200000 };

/* Two-sided 99.9% normal quantile.  */
static const double Z_999 = 3.2905267314919255;

/* Index of the first of count values outside [low, high], or count.  Tests
   check whole arrays with one assertion: each Check assertion costs a
   write to the test runner.  */
static size_t first_outside(const long *values, size_t count, long low, long high)
{
    size_t i = 0;
    while (i < count && values[i] >= low && values[i] <= high)
        i++;
    return i;
}

static long *draw_countdowns(long sparsity, uint64_t seed, unsigned long order,
                             size_t count)
{
    struct sampler_stream *stream = sampler_stream_new(sparsity, seed, order);
    long *draws = malloc(count * sizeof *draws);

    ck_assert_ptr_nonnull(stream);
    ck_assert_ptr_nonnull(draws);
    for (size_t i = 0; i < count; i++)
        draws[i] = sampler_stream_next(stream);
    sampler_stream_free(stream);
    return draws;
}

/* Large sparsities matter: a 32-bit draw (gsl_ran_geometric's unsigned
   int) overflows at 1e9 and drags the mean down by about 6%.  */
static const long mean_sparsities[] = { 2, 100, 1000, 1000000000 };

START_TEST(test_mean_is_sparsity)
{
    long sparsity = mean_sparsities[_i];
    long *draws = draw_countdowns(sparsity, 20240601 + (uint64_t)_i, 0, DRAWS);
    double p = 1.0 / (double)sparsity;
    double sum = 0;

    ck_assert_uint_eq(first_outside(draws, DRAWS, 1, SAMPLER_COUNTDOWN_OFF - 1), DRAWS);
    for (size_t i = 0; i < DRAWS; i++)
        sum += (double)draws[i];
    /* CLT: the mean of n geometric draws has variance (1 - p) / (p^2 n).  */
    double mean = sum / DRAWS;
    double half_width = Z_999 * sqrt((1 - p) / (p * p) / DRAWS);
    ck_assert_msg(fabs(mean - (double)sparsity) <= half_width,
                  "sparsity %ld: mean %.6g outside %.6g +- %.6g",
                  sparsity, mean, (double)sparsity, half_width);
    free(draws);
}
END_TEST

enum { TARGET_BINS = 64 };

struct bins {
    size_t count;
    unsigned upper[TARGET_BINS];   /* last value of each bin; the last bin is open */
    double expected[TARGET_BINS];
    double observed[TARGET_BINS];
};

/* Bins of about equal probability, from the geometric quantiles, then merged
   from the left until each expects at least 5 draws.  */
static void make_geometric_bins(double p, size_t draws, struct bins *bins)
{
    unsigned edges[TARGET_BINS] = { 0 };
    size_t edge_count = 0;

    for (unsigned j = 1; j < TARGET_BINS; j++) {
        double quantile = (double)j / TARGET_BINS;
        double k = ceil(log1p(-quantile) / log1p(-p));
        unsigned edge = k < 1 ? 1 : (unsigned)k;
        if (edge_count == 0 || edge > edges[edge_count - 1])
            edges[edge_count++] = edge;
    }

    bins->count = 0;
    double pending = 0;
    double below = 0;   /* P(X <= previous edge) */
    for (size_t e = 0; e <= edge_count; e++) {
        double cumulative = e < edge_count ? gsl_cdf_geometric_P(edges[e], p) : 1.0;
        double mass = e < edge_count ? cumulative - below
                                     : gsl_cdf_geometric_Q(edges[edge_count - 1], p);
        below = cumulative;
        pending += mass * (double)draws;
        if (pending >= 5 || e == edge_count) {
            if (pending < 5 && bins->count > 0) {
                bins->expected[bins->count - 1] += pending;   /* tail too thin */
                bins->upper[bins->count - 1] = UINT32_MAX;
            } else {
                bins->expected[bins->count] = pending;
                bins->upper[bins->count] = e < edge_count ? edges[e] : UINT32_MAX;
                bins->count++;
            }
            pending = 0;
        }
    }
    memset(bins->observed, 0, sizeof bins->observed);
}

static const long chisq_sparsities[] = { 2, 3, 100, 1000, 100000 };

START_TEST(test_countdowns_are_geometric)
{
    long sparsity = chisq_sparsities[_i];
    double p = 1.0 / (double)sparsity;
    long *draws = draw_countdowns(sparsity, 777 + (uint64_t)_i, 3, DRAWS);
    struct bins bins;

    make_geometric_bins(p, DRAWS, &bins);
    ck_assert_uint_ge(bins.count, 5);
    ck_assert_uint_eq(first_outside(draws, DRAWS, 1, SAMPLER_COUNTDOWN_OFF - 1), DRAWS);
    for (size_t i = 0; i < DRAWS; i++) {
        size_t bin = 0;
        while (bin + 1 < bins.count && (unsigned long)draws[i] > bins.upper[bin])
            bin++;
        bins.observed[bin]++;
    }

    double chisq = 0;
    for (size_t b = 0; b < bins.count; b++) {
        ck_assert_double_ge(bins.expected[b], 5);
        double diff = bins.observed[b] - bins.expected[b];
        chisq += diff * diff / bins.expected[b];
    }
    double p_value = gsl_cdf_chisq_Q(chisq, (double)(bins.count - 1));
    ck_assert_msg(p_value >= 0.001,
                  "sparsity %ld: chi-square %.2f on %zu bins, p = %.3g",
                  sparsity, chisq, bins.count, p_value);
    free(draws);
}
END_TEST

START_TEST(test_consecutive_countdowns_are_uncorrelated)
{
    long *draws = draw_countdowns(100, 31337, 0, DRAWS);
    double mean = 0, variance = 0, covariance = 0;

    for (size_t i = 0; i < DRAWS; i++)
        mean += (double)draws[i];
    mean /= DRAWS;
    for (size_t i = 0; i < DRAWS; i++) {
        double d = (double)draws[i] - mean;
        variance += d * d;
        if (i + 1 < DRAWS)
            covariance += d * ((double)draws[i + 1] - mean);
    }
    /* Under independence the lag-1 correlation is about N(0, 1/n).  */
    double correlation = covariance / variance;
    ck_assert_msg(fabs(correlation) <= Z_999 / sqrt(DRAWS),
                  "lag-1 correlation %.5f", correlation);
    free(draws);
}
END_TEST

START_TEST(test_sparsity_one_samples_every_visit)
{
    long *draws = draw_countdowns(1, 5, 0, 5 * SAMPLER_BANK_SIZE);

    ck_assert_uint_eq(first_outside(draws, 5 * SAMPLER_BANK_SIZE, 1, 1), 5 * SAMPLER_BANK_SIZE);
    free(draws);
}
END_TEST

enum { LONG_RUN = 5 * SAMPLER_BANK_SIZE + 17 };   /* several refills */

START_TEST(test_same_seed_same_sequence)
{
    long *first = draw_countdowns(100, 42, 1, LONG_RUN);
    long *second = draw_countdowns(100, 42, 1, LONG_RUN);

    ck_assert_mem_eq(first, second, LONG_RUN * sizeof first[0]);
    free(first);
    free(second);
}
END_TEST

static size_t count_equal(const long *a, const long *b, size_t count)
{
    size_t equal = 0;
    for (size_t i = 0; i < count; i++)
        equal += a[i] == b[i];
    return equal;
}

START_TEST(test_different_seeds_or_threads_differ)
{
    long *reference = draw_countdowns(100, 42, 0, LONG_RUN);
    long *other_seed = draw_countdowns(100, 43, 0, LONG_RUN);
    long *other_thread = draw_countdowns(100, 42, 1, LONG_RUN);

    /* Independent streams agree on a draw with probability about 1/200 at
       sparsity 100; far fewer than 5% must agree.  */
    ck_assert_uint_lt(count_equal(reference, other_seed, LONG_RUN), LONG_RUN / 20);
    ck_assert_uint_lt(count_equal(reference, other_thread, LONG_RUN), LONG_RUN / 20);
    free(reference);
    free(other_seed);
    free(other_thread);
}
END_TEST

START_TEST(test_refill_draws_new_values)
{
    long *draws = draw_countdowns(100, 9, 0, 3 * SAMPLER_BANK_SIZE);

    ck_assert_uint_lt(count_equal(draws, draws + SAMPLER_BANK_SIZE, SAMPLER_BANK_SIZE),
                      SAMPLER_BANK_SIZE / 20);
    ck_assert_uint_lt(count_equal(draws + SAMPLER_BANK_SIZE, draws + 2 * SAMPLER_BANK_SIZE,
                                  SAMPLER_BANK_SIZE),
                      SAMPLER_BANK_SIZE / 20);
    free(draws);
}
END_TEST

Suite *countdown_suite(void)
{
    Suite *suite = suite_create("countdown");

    TCase *law = tcase_create("law");
    tcase_set_timeout(law, 60);
    tcase_add_loop_test(law, test_mean_is_sparsity, 0,
                        sizeof mean_sparsities / sizeof mean_sparsities[0]);
    tcase_add_loop_test(law, test_countdowns_are_geometric, 0,
                        sizeof chisq_sparsities / sizeof chisq_sparsities[0]);
    tcase_add_test(law, test_consecutive_countdowns_are_uncorrelated);
    tcase_add_test(law, test_sparsity_one_samples_every_visit);
    suite_add_tcase(suite, law);

    TCase *repeat = tcase_create("repeatability");
    tcase_add_test(repeat, test_same_seed_same_sequence);
    tcase_add_test(repeat, test_different_seeds_or_threads_differ);
    tcase_add_test(repeat, test_refill_draws_new_values);
    suite_add_tcase(suite, repeat);
    return suite;
}
