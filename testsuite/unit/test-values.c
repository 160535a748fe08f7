/* Hot-lists of the values scheme: the runtime's update
   (__sampler_observe_value) and sampler-report's reading, merging and
   intervals (tools/report/schemes/values/hotlist.c), with fixed seeds.

   - exact: K at least the number of distinct values, every visit
     observed: the counts are the stream's, tau stays 1;
   - unbiased thinning: with tau raised many times, count * tau averaged
     over 200 seeds is within 4 standard errors of the true count, also
     for counts large enough to be halved without a coin per unit;
   - coverage: a Zipf stream sampled at sparsity 100; the 95% intervals
     of the top values' visits and shares hold the truth about 95% of the
     time over 200 seeds;
   - merge: two halves merged agree with the whole stream in one list
     (mean difference over 200 seeds within 4 standard errors of 0), and
     the merged intervals cover the truth;
   - threads: four threads updating one list lose nothing;
   - own lock: a visit that finds the list locked by its own thread (a
     signal handler that interrupted an update) is counted in slot 0 and
     leaves the list alone, while the process has one thread (the lock
     taken by a plain store) and once it has had two (compare-and-swap);
   - coins: a toss of 2^-j is heads that often, after heads or tails.  */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <gsl/gsl_rng.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

#include "hotlist.h"
#include "hot-list.h"

enum { MAX_CAPACITY = 64 };

struct slots {
    unsigned long long s[HOT_SLOT_ENTRIES + 2 * MAX_CAPACITY];
};

/* Gives the calling thread a stream of seed SEED for its coin tosses.  */
static void use_stream(uint64_t seed)
{
    if (sampler_thread_stream)
        sampler_stream_free(sampler_thread_stream);
    sampler_thread_stream = sampler_stream_new(1, seed, 0);
    ck_assert_ptr_nonnull(sampler_thread_stream);
}

static void drop_stream(void)
{
    sampler_stream_free(sampler_thread_stream);
    sampler_thread_stream = NULL;
}

static unsigned long long count_of(const struct slots *slots, unsigned capacity,
                                   unsigned long long value)
{
    unsigned long long count = 0;
    for (unsigned i = 0; i < capacity; i++)
        if (slots->s[HOT_SLOT_ENTRIES + 2 * i + 1] != 0
            && slots->s[HOT_SLOT_ENTRIES + 2 * i] == value)
            count += slots->s[HOT_SLOT_ENTRIES + 2 * i + 1];
    return count;
}

/* The stream 3 x5, -1 x2, 42, 0xdeadbeef x3, interleaved; K = 4 and 8.  */
START_TEST(test_exact)
{
    static const long long stream[] = { 3, -1, 3, 42, 0xdeadbeef, 3, 0xdeadbeef, 3, -1,
                                        0xdeadbeef, 3 };
    unsigned capacity = _i == 0 ? 4 : 8;
    struct slots slots = { { 0 } };

    use_stream(1);
    for (size_t i = 0; i < sizeof stream / sizeof stream[0]; i++)
        __sampler_observe_value(slots.s, (unsigned long long)stream[i], capacity);
    ck_assert_uint_eq(slots.s[HOT_SLOT_SAMPLED], 11);
    ck_assert_uint_eq(slots.s[HOT_SLOT_TAU_LOG2], 0);
    ck_assert_uint_eq(slots.s[HOT_SLOT_LOCK], 0);
    ck_assert_uint_eq(count_of(&slots, capacity, 3), 5);
    ck_assert_uint_eq(count_of(&slots, capacity, (unsigned long long)-1LL), 2);
    ck_assert_uint_eq(count_of(&slots, capacity, 42), 1);
    ck_assert_uint_eq(count_of(&slots, capacity, 0xdeadbeef), 3);
    drop_stream();
}
END_TEST

/* A Zipf stream over N_DISTINCT values, value v (1-based) with weight
   1/v^1.1, N_VISITS visits in a fixed shuffled order.  */
enum { N_DISTINCT = 1000, N_VISITS = 200000 };
static unsigned long long *zipf_stream;
static unsigned long long zipf_truth[N_DISTINCT + 1];

static void make_zipf(void)
{
    if (zipf_stream)
        return;
    double weights[N_DISTINCT + 1], total = 0;
    for (unsigned v = 1; v <= N_DISTINCT; v++)
        total += weights[v] = pow(v, -1.1);
    zipf_stream = malloc(N_VISITS * sizeof *zipf_stream);
    size_t n = 0;
    for (unsigned v = 1; v <= N_DISTINCT; v++) {
        unsigned long long k = (unsigned long long)floor(weights[v] / total * N_VISITS);
        for (unsigned long long i = 0; i < k && n < N_VISITS; i++)
            zipf_stream[n++] = v;
    }
    while (n < N_VISITS)
        zipf_stream[n++] = N_DISTINCT;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 12345);
    for (size_t i = N_VISITS - 1; i > 0; i--) {
        size_t j = gsl_rng_uniform_int(rng, i + 1);
        unsigned long long t = zipf_stream[i];
        zipf_stream[i] = zipf_stream[j];
        zipf_stream[j] = t;
    }
    gsl_rng_free(rng);
    memset(zipf_truth, 0, sizeof zipf_truth);
    for (size_t i = 0; i < N_VISITS; i++)
        zipf_truth[zipf_stream[i]]++;
}

/* Visits FROM to TO of the Zipf stream into SLOTS, each sampled with
   probability 1/SPARSITY by RNG (the countdown's choice).  */
static void feed(struct slots *slots, unsigned capacity, size_t from, size_t to,
                 unsigned sparsity, gsl_rng *rng)
{
    for (size_t i = from; i < to; i++)
        if (sparsity == 1 || gsl_rng_uniform_int(rng, sparsity) == 0)
            __sampler_observe_value(slots->s, zipf_stream[i], capacity);
}

static double mean_of(const double *x, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += x[i];
    return sum / n;
}

static double standard_error(const double *x, int n)
{
    double mean = mean_of(x, n), sum = 0;
    for (int i = 0; i < n; i++)
        sum += (x[i] - mean) * (x[i] - mean);
    return sqrt(sum / (n - 1) / n);
}

enum { N_SEEDS = 200 };
static const unsigned long long watched[] = { 1, 2, 3, 10 };
enum { N_WATCHED = sizeof watched / sizeof watched[0] };

/* Every visit observed (sparsity 1), K = 16: tau climbs to about 2^11,
   and count * tau is unbiased for each watched value.  */
START_TEST(test_thinning_unbiased)
{
    make_zipf();
    static double estimates[N_WATCHED][N_SEEDS];
    unsigned max_j = 0;
    for (int seed = 0; seed < N_SEEDS; seed++) {
        struct slots slots = { { 0 } };
        use_stream(1000 + (uint64_t)seed);
        feed(&slots, 16, 0, N_VISITS, 1, NULL);
        ck_assert_uint_eq(slots.s[HOT_SLOT_SAMPLED], N_VISITS);
        unsigned j = (unsigned)slots.s[HOT_SLOT_TAU_LOG2];
        if (j > max_j)
            max_j = j;
        for (int w = 0; w < N_WATCHED; w++)
            estimates[w][seed] = ldexp((double)count_of(&slots, 16, watched[w]), (int)j);
        drop_stream();
    }
    ck_assert_uint_ge(max_j, 8);
    for (int w = 0; w < N_WATCHED; w++) {
        double mean = mean_of(estimates[w], N_SEEDS);
        double se = standard_error(estimates[w], N_SEEDS);
        ck_assert_msg(fabs(mean - (double)zipf_truth[watched[w]]) <= 4 * se,
                      "value %llu: mean estimate %g, truth %llu, standard error %g",
                      watched[w], mean, zipf_truth[watched[w]], se);
    }
}
END_TEST

/* Counts above 4096 are halved without a coin per unit: 16 values seen
   10000 times each, then new values until tau has doubled a few times;
   count * tau stays unbiased for the first value.  */
START_TEST(test_large_counts_unbiased)
{
    static double estimates[N_SEEDS];
    for (int seed = 0; seed < N_SEEDS; seed++) {
        struct slots slots = { { 0 } };
        use_stream(20000 + (uint64_t)seed);
        for (int round = 0; round < 10000; round++)
            for (unsigned long long v = 0; v < 16; v++)
                __sampler_observe_value(slots.s, v, 16);
        for (unsigned long long v = 100; slots.s[HOT_SLOT_TAU_LOG2] < 4; v++)
            __sampler_observe_value(slots.s, v, 16);
        estimates[seed] = ldexp((double)count_of(&slots, 16, 0),
                                (int)slots.s[HOT_SLOT_TAU_LOG2]);
        drop_stream();
    }
    double mean = mean_of(estimates, N_SEEDS), se = standard_error(estimates, N_SEEDS);
    ck_assert_msg(fabs(mean - 10000) <= 4 * se + 1e-9,
                  "mean estimate %g of 10000, standard error %g", mean, se);
}
END_TEST

/* How often each interval held the truth.  */
struct coverage {
    int visits_in, share_in, n;
};

static void cover(struct coverage *c, const struct hot_list *list, unsigned long long value,
                  double true_visits, double true_share)
{
    struct hot_estimate e;
    /* A value not in the list has count 0: its interval still says
       something (visits below 3.7 tau).  */
    unsigned i = 0;
    while (i < list->n_entries && list->entries[i].value != value)
        i++;
    if (i == list->n_entries) {
        struct hot_list with_zero = *list;
        struct hot_entry entries[MAX_CAPACITY + 1];
        memcpy(entries, list->entries, list->n_entries * sizeof *entries);
        entries[list->n_entries].value = value;
        entries[list->n_entries].count = 0;
        with_zero.entries = entries;
        with_zero.n_entries = list->n_entries + 1;
        hot_list_estimate(&with_zero, list->n_entries, 0.95, &e);
    } else {
        hot_list_estimate(list, i, 0.95, &e);
    }
    c->visits_in += e.visits_low <= true_visits && true_visits <= e.visits_high;
    c->share_in += e.share_low <= true_share && true_share <= e.share_high;
    c->n++;
}

/* Coverage within 4 standard errors of nominal 0.95.  */
static void assert_coverage(const struct coverage *c, const char *what)
{
    double tolerance = 4 * sqrt(0.95 * 0.05 / c->n);
    double visits = (double)c->visits_in / c->n, share = (double)c->share_in / c->n;
    ck_assert_msg(fabs(visits - 0.95) <= tolerance,
                  "%s: visits intervals cover %.3f of %d", what, visits, c->n);
    ck_assert_msg(fabs(share - 0.95) <= tolerance,
                  "%s: share intervals cover %.3f of %d", what, share, c->n);
}

/* The Zipf stream at sparsity 100, K = 16.  */
START_TEST(test_zipf_coverage)
{
    make_zipf();
    struct coverage coverage = { 0 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (int seed = 0; seed < N_SEEDS; seed++) {
        struct slots slots = { { 0 } };
        struct hot_list list;
        use_stream(5000 + (uint64_t)seed);
        gsl_rng_set(rng, 7000 + (unsigned long)seed);
        feed(&slots, 16, 0, N_VISITS, 100, rng);
        hot_list_init(&list, 16);
        hot_list_from_slots(&list, slots.s, 16, 100);
        for (int w = 0; w < N_WATCHED; w++)
            cover(&coverage, &list, watched[w], (double)zipf_truth[watched[w]],
                  (double)zipf_truth[watched[w]] / N_VISITS);
        hot_list_free(&list);
        drop_stream();
    }
    gsl_rng_free(rng);
    assert_coverage(&coverage, "zipf at sparsity 100");
}
END_TEST

/* Two halves of the stream in two lists (two runs at sparsity 100),
   merged, against the whole stream in one.  */
START_TEST(test_merge)
{
    make_zipf();
    static double difference[N_WATCHED][N_SEEDS];
    struct coverage coverage = { 0 };
    struct hot_random random;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    hot_random_init(&random, HOT_RANDOM_SEED);
    for (int seed = 0; seed < N_SEEDS; seed++) {
        struct slots first = { { 0 } }, second = { { 0 } }, whole = { { 0 } };
        struct hot_list merged, other, single;
        use_stream(9000 + (uint64_t)seed);
        gsl_rng_set(rng, 11000 + (unsigned long)seed);
        feed(&first, 16, 0, N_VISITS / 2, 100, rng);
        feed(&second, 16, N_VISITS / 2, N_VISITS, 100, rng);
        feed(&whole, 16, 0, N_VISITS, 100, rng);
        hot_list_init(&merged, 16);
        hot_list_init(&other, 16);
        hot_list_init(&single, 16);
        hot_list_from_slots(&merged, first.s, 16, 100);
        hot_list_from_slots(&other, second.s, 16, 100);
        hot_list_from_slots(&single, whole.s, 16, 100);
        hot_list_merge(&merged, &other, &random);
        ck_assert_uint_le(merged.n_entries, 16);
        ck_assert_uint_eq(merged.sampled, first.s[HOT_SLOT_SAMPLED] + second.s[HOT_SLOT_SAMPLED]);
        for (int w = 0; w < N_WATCHED; w++) {
            double estimate[2] = { 0, 0 };
            const struct hot_list *lists[2] = { &merged, &single };
            for (int l = 0; l < 2; l++)
                for (unsigned i = 0; i < lists[l]->n_entries; i++)
                    if (lists[l]->entries[i].value == watched[w])
                        estimate[l] = (double)lists[l]->entries[i].count * lists[l]->tau;
            difference[w][seed] = estimate[0] - estimate[1];
            cover(&coverage, &merged, watched[w], (double)zipf_truth[watched[w]],
                  (double)zipf_truth[watched[w]] / N_VISITS);
        }
        hot_list_free(&merged);
        hot_list_free(&other);
        hot_list_free(&single);
        drop_stream();
    }
    gsl_rng_free(rng);
    for (int w = 0; w < N_WATCHED; w++) {
        double mean = mean_of(difference[w], N_SEEDS);
        double se = standard_error(difference[w], N_SEEDS);
        ck_assert_msg(fabs(mean) <= 4 * se,
                      "value %llu: merged minus single %g on average, standard error %g",
                      watched[w], mean, se);
    }
    assert_coverage(&coverage, "merged halves");
}
END_TEST

/* The slots of two occurrences of a unit in one run (hot_slots_merge):
   the exact lists of two small streams add up exactly.  */
START_TEST(test_slots_merge_exact)
{
    struct slots a = { { 0 } }, b = { { 0 } };
    struct hot_random random;
    hot_random_init(&random, HOT_RANDOM_SEED);
    use_stream(3);
    for (int i = 0; i < 30; i++)
        __sampler_observe_value(a.s, (unsigned long long)(i % 3), 8);
    for (int i = 0; i < 20; i++)
        __sampler_observe_value(b.s, (unsigned long long)(i % 4), 8);
    hot_slots_merge(a.s, b.s, 8, &random);
    ck_assert_uint_eq(a.s[HOT_SLOT_SAMPLED], 50);
    ck_assert_uint_eq(a.s[HOT_SLOT_TAU_LOG2], 0);
    ck_assert_uint_eq(count_of(&a, 8, 0), 15);
    ck_assert_uint_eq(count_of(&a, 8, 1), 15);
    ck_assert_uint_eq(count_of(&a, 8, 2), 15);
    ck_assert_uint_eq(count_of(&a, 8, 3), 5);
    drop_stream();
}
END_TEST

/* sampler_thread_coin, called as the hot-lists call it.  */
static SAMPLER_PRESERVING __attribute__((noinline)) bool toss(unsigned j)
{
    return sampler_thread_coin(j);
}

/* Whether HEADS of N tosses is within 4 standard deviations of N * P.  */
static bool binomial_near(unsigned long heads, unsigned long n, double p)
{
    return fabs((double)heads - n * p) <= 4 * sqrt(n * p * (1 - p));
}

/* The coins: heads with probability 2^-j for j of 1 to 63 in any order,
   and each toss independent of the one before, whose outcome decides how
   many bits it used up: every toss's heads, counted apart after a heads
   and after a tails, are within 4 standard deviations of 2^-j.  */
START_TEST(test_coins)
{
    static const unsigned js[] = { 1, 3, 7, 2, 12, 1, 5, 63, 2, 1 };
    enum { N_JS = sizeof js / sizeof js[0], ROUNDS = 200000 };
    /* [k][o]: tosses of js[k] after an outcome o of the toss before, and
       their heads.  */
    unsigned long tosses[N_JS][2] = { { 0 } }, heads[N_JS][2] = { { 0 } };

    use_stream(7);
    bool previous = false;
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < N_JS; k++) {
            bool h = toss(js[k]);
            tosses[k][previous]++;
            heads[k][previous] += h;
            previous = h;
        }
    for (int k = 0; k < N_JS; k++)
        for (int o = 0; o < 2; o++)
            ck_assert_msg(binomial_near(heads[k][o], tosses[k][o], ldexp(1, -(int)js[k])),
                          "coin 2^-%u after %s: %lu heads in %lu", js[k],
                          o ? "heads" : "tails", heads[k][o], tosses[k][o]);
    drop_stream();
}
END_TEST

enum { N_THREADS = 4, PER_THREAD = 100000 };
static struct slots shared_slots;

static void *observer(void *arg)
{
    use_stream((uint64_t)(uintptr_t)arg);
    for (int i = 0; i < PER_THREAD; i++)
        __sampler_observe_value(shared_slots.s, (unsigned long long)(i % 8), 8);
    drop_stream();
    return NULL;
}

/* Four threads, eight values, K = 8: nothing is thinned, so every update
   must show.  */
START_TEST(test_threads)
{
    pthread_t threads[N_THREADS];
    memset(&shared_slots, 0, sizeof shared_slots);
    for (uintptr_t t = 0; t < N_THREADS; t++)
        ck_assert_int_eq(pthread_create(&threads[t], NULL, observer, (void *)(t + 1)), 0);
    for (int t = 0; t < N_THREADS; t++)
        pthread_join(threads[t], NULL);
    ck_assert_uint_eq(shared_slots.s[HOT_SLOT_SAMPLED], N_THREADS * PER_THREAD);
    ck_assert_uint_eq(shared_slots.s[HOT_SLOT_TAU_LOG2], 0);
    ck_assert_uint_eq(shared_slots.s[HOT_SLOT_LOCK], 0);
    for (unsigned long long v = 0; v < 8; v++)
        ck_assert_uint_eq(count_of(&shared_slots, 8, v), N_THREADS * PER_THREAD / 8);
}
END_TEST

static void *no_work(void *unused)
{
    return unused;
}

/* _i 0: the process has one thread (Check runs each test in a child of
   its own); 1: a thread has been started, so __libc_single_threaded is
   false from then on.  */
START_TEST(test_own_lock)
{
    struct slots slots = { { 0 } };
    const unsigned long long me = HOT_THREAD_TAG;

    if (_i == 1) {
        pthread_t thread;
        ck_assert_int_eq(pthread_create(&thread, NULL, no_work, NULL), 0);
        ck_assert_int_eq(pthread_join(thread, NULL), 0);
    }
#ifdef SAMPLER_SINGLE_THREADED_BUMP
    ck_assert_int_eq(__libc_single_threaded, _i == 0);
#endif
    use_stream(1);
    slots.s[HOT_SLOT_LOCK] = me;
    __sampler_observe_value(slots.s, 5, 4);
    ck_assert_uint_eq(slots.s[HOT_SLOT_SAMPLED], 1);
    ck_assert_uint_eq(count_of(&slots, 4, 5), 0);
    ck_assert_uint_eq(slots.s[HOT_SLOT_LOCK], me);
    slots.s[HOT_SLOT_LOCK] = 0;
    __sampler_observe_value(slots.s, 5, 4);
    __sampler_observe_value(slots.s, 5, 4);
    ck_assert_uint_eq(slots.s[HOT_SLOT_SAMPLED], 3);
    ck_assert_uint_eq(count_of(&slots, 4, 5), 2);
    ck_assert_uint_eq(slots.s[HOT_SLOT_LOCK], 0);
    drop_stream();
}
END_TEST

Suite *values_suite(void)
{
    Suite *suite = suite_create("values");
    TCase *exact = tcase_create("exact");
    tcase_add_loop_test(exact, test_exact, 0, 2);
    tcase_add_test(exact, test_slots_merge_exact);
    tcase_add_test(exact, test_threads);
    tcase_add_loop_test(exact, test_own_lock, 0, 2);
    suite_add_tcase(suite, exact);
    TCase *statistics = tcase_create("statistics");
    tcase_set_timeout(statistics, 300);
    tcase_add_test(statistics, test_coins);
    tcase_add_test(statistics, test_thinning_unbiased);
    tcase_add_test(statistics, test_large_counts_unbiased);
    tcase_add_test(statistics, test_zipf_coverage);
    tcase_add_test(statistics, test_merge);
    suite_add_tcase(suite, statistics);
    return suite;
}
