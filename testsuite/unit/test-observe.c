/* The observe functions of the ABI: bounds (count, min, max) of signed,
   unsigned and double values, float kinds, and exact results under
   concurrent observation.  In-process: they need no configuration.  */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

static unsigned long long bits_of_double(double value)
{
    unsigned long long bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

struct signed_case {
    long long values[6];
    size_t count;
    long long min, max;
};

static const struct signed_case signed_cases[] = {
    { { 5 }, 1, 5, 5 },
    { { 0, 7 }, 2, 0, 7 },
    { { 7, 0 }, 2, 0, 7 },
    { { 5, -3, 7, 0 }, 4, -3, 7 },
    { { -1, -1, -1 }, 3, -1, -1 },
    { { 3, LLONG_MIN, LLONG_MAX, 0 }, 4, LLONG_MIN, LLONG_MAX },
    { { -5, -9, -2 }, 3, -9, -2 },
};

START_TEST(test_signed_bounds)
{
    const struct signed_case *c = &signed_cases[_i];
    unsigned long long slots[3] = { 0, 0, 0 };

    for (size_t i = 0; i < c->count; i++)
        __sampler_observe_signed(slots, c->values[i]);
    ck_assert_uint_eq(slots[0], c->count);
    ck_assert_uint_eq(slots[1], (unsigned long long)c->min);
    ck_assert_uint_eq(slots[2], (unsigned long long)c->max);
}
END_TEST

struct unsigned_case {
    unsigned long long values[4];
    size_t count;
    unsigned long long min, max;
};

static const struct unsigned_case unsigned_cases[] = {
    { { 10, 3, ULLONG_MAX }, 3, 3, ULLONG_MAX },
    { { 0, 0 }, 2, 0, 0 },
    { { 42, 0 }, 2, 0, 42 },
    { { 1ULL << 63, 1 }, 2, 1, 1ULL << 63 },
};

START_TEST(test_unsigned_bounds)
{
    const struct unsigned_case *c = &unsigned_cases[_i];
    unsigned long long slots[3] = { 0, 0, 0 };

    for (size_t i = 0; i < c->count; i++)
        __sampler_observe_unsigned(slots, c->values[i]);
    ck_assert_uint_eq(slots[0], c->count);
    ck_assert_uint_eq(slots[1], c->min);
    ck_assert_uint_eq(slots[2], c->max);
}
END_TEST

struct double_case {
    double values[5];
    size_t count;
    double min, max;    /* compared bit for bit */
};

static const struct double_case double_cases[] = {
    { { 1.5, -2.0, 0.25 }, 3, -2.0, 1.5 },
    { { 3.0 }, 1, 3.0, 3.0 },
    /* NaNs are counted, but are not bounds...  */
    { { 1.5, NAN, -2.0 }, 3, -2.0, 1.5 },
    { { NAN, 4.0, 2.0 }, 3, 2.0, 4.0 },
    /* ...unless nothing else was seen.  */
    { { NAN, NAN }, 2, NAN, NAN },
    { { 0.0, -0.0 }, 2, -0.0, 0.0 },
    { { -0.0, 0.0 }, 2, -0.0, 0.0 },
    { { 1.0, -INFINITY, INFINITY }, 3, -INFINITY, INFINITY },
    { { DBL_TRUE_MIN, -DBL_TRUE_MIN }, 2, -DBL_TRUE_MIN, DBL_TRUE_MIN },
    { { -DBL_MAX, DBL_MAX }, 2, -DBL_MAX, DBL_MAX },
};

START_TEST(test_double_bounds)
{
    const struct double_case *c = &double_cases[_i];
    unsigned long long slots[3] = { 0, 0, 0 };

    for (size_t i = 0; i < c->count; i++)
        __sampler_observe_double(slots, c->values[i]);
    ck_assert_uint_eq(slots[0], c->count);
    if (isnan(c->min)) {
        double min, max;
        memcpy(&min, &slots[1], sizeof min);
        memcpy(&max, &slots[2], sizeof max);
        ck_assert(isnan(min) && isnan(max));
    } else {
        ck_assert_uint_eq(slots[1], bits_of_double(c->min));
        ck_assert_uint_eq(slots[2], bits_of_double(c->max));
    }
}
END_TEST

struct kind_case {
    long double value;
    enum sampler_float_kind kind;
    int source_type;    /* the value's type in the program */
};
#define LD SAMPLER_FLOAT_TYPE_LONG_DOUBLE

static const struct kind_case kind_cases[] = {
    { NAN, SAMPLER_FLOAT_NAN, LD },
    { -NAN, SAMPLER_FLOAT_NAN, LD },
    { -INFINITY, SAMPLER_FLOAT_NEG_INF, LD },
    { -1.0L, SAMPLER_FLOAT_NEG_NORMAL, LD },
    { -LDBL_MAX, SAMPLER_FLOAT_NEG_NORMAL, LD },
    { -LDBL_MIN, SAMPLER_FLOAT_NEG_NORMAL, LD },
    { -LDBL_MIN / 2, SAMPLER_FLOAT_NEG_SUBNORMAL, LD },
    { -LDBL_TRUE_MIN, SAMPLER_FLOAT_NEG_SUBNORMAL, LD },
    { -0.0L, SAMPLER_FLOAT_NEG_ZERO, LD },
    { 0.0L, SAMPLER_FLOAT_POS_ZERO, LD },
    { LDBL_TRUE_MIN, SAMPLER_FLOAT_POS_SUBNORMAL, LD },
    { LDBL_MIN / 2, SAMPLER_FLOAT_POS_SUBNORMAL, LD },
    { LDBL_MIN, SAMPLER_FLOAT_POS_NORMAL, LD },
    { 3.25L, SAMPLER_FLOAT_POS_NORMAL, LD },
    { LDBL_MAX, SAMPLER_FLOAT_POS_NORMAL, LD },
    { INFINITY, SAMPLER_FLOAT_POS_INF, LD },
    /* Subnormal as a float or double, though normal as a long double.  */
    { FLT_MIN / 2, SAMPLER_FLOAT_POS_SUBNORMAL, SAMPLER_FLOAT_TYPE_FLOAT },
    { -FLT_TRUE_MIN, SAMPLER_FLOAT_NEG_SUBNORMAL, SAMPLER_FLOAT_TYPE_FLOAT },
    { FLT_MIN, SAMPLER_FLOAT_POS_NORMAL, SAMPLER_FLOAT_TYPE_FLOAT },
    { DBL_MIN / 4, SAMPLER_FLOAT_POS_SUBNORMAL, SAMPLER_FLOAT_TYPE_DOUBLE },
    { DBL_MIN, SAMPLER_FLOAT_POS_NORMAL, SAMPLER_FLOAT_TYPE_DOUBLE },
    { FLT_MIN / 2, SAMPLER_FLOAT_POS_NORMAL, SAMPLER_FLOAT_TYPE_DOUBLE },
};

START_TEST(test_float_kind)
{
    const struct kind_case *c = &kind_cases[_i];
    unsigned long long counters[SAMPLER_FLOAT_KINDS] = { 0 };
    unsigned long long expected[SAMPLER_FLOAT_KINDS] = { 0 };

    __sampler_observe_float_kind(counters, c->value, c->source_type);
    __sampler_observe_float_kind(counters, c->value, c->source_type);
    expected[c->kind] = 2;
    ck_assert_mem_eq(counters, expected, sizeof counters);
}
END_TEST

/* ---- Concurrency -------------------------------------------------------- */

enum { THREADS = 8, OBSERVATIONS = 200000 };

struct stress {
    unsigned long long *slots;
    pthread_barrier_t *start;
    long long first;    /* this thread observes first, first - 1, ... */
    long observations;
};

static void *observe_many(void *argument)
{
    struct stress *stress = argument;

    pthread_barrier_wait(stress->start);
    for (long i = 0; i < stress->observations; i++)
        __sampler_observe_signed(stress->slots, stress->first - 3 * (long long)i);
    return NULL;
}

/* Runs THREADS threads that start together, thread t observing
   observations values from t * spacing - offset downwards by 3.  */
static void run_threads(unsigned long long slots[3], long observations,
                        long long spacing, long long offset)
{
    pthread_t threads[THREADS];
    struct stress stresses[THREADS];
    pthread_barrier_t start;

    ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREADS), 0);
    for (int t = 0; t < THREADS; t++) {
        stresses[t] = (struct stress){ .slots = slots, .start = &start,
                                       .first = t * spacing - offset,
                                       .observations = observations };
        ck_assert_int_eq(pthread_create(&threads[t], NULL, observe_many, &stresses[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    pthread_barrier_destroy(&start);
}

START_TEST(test_concurrent_observations_are_exact)
{
    unsigned long long slots[3] = { 0, 0, 0 };
    const long long spacing = 1000003, offset = 4000000;

    run_threads(slots, OBSERVATIONS, spacing, offset);
    ck_assert_uint_eq(slots[0], (unsigned long long)THREADS * OBSERVATIONS);
    /* Thread 0 goes lowest, thread THREADS - 1 starts highest.  */
    ck_assert_int_eq((long long)slots[1], -offset - 3LL * (OBSERVATIONS - 1));
    ck_assert_int_eq((long long)slots[2], (THREADS - 1) * spacing - offset);
}
END_TEST

/* The first observation of a site is special (zero is a possible bound):
   threads that race for it must all still land in count, min and max.  A
   race needs the threads on different cores at the same instant, so they
   are as many as the cores (at least 2), stay alive, and are released
   together by a spin barrier before each round's fresh slots.  On a busy
   machine the barrier waits for the scheduler, so the rounds stop after
   RACE_SECONDS (the test then needs at least RACE_MIN_ROUNDS of them).  */
enum { RACE_ROUNDS = 1000000, RACE_MIN_ROUNDS = 1000, RACE_SPINS = 1000, RACE_SECONDS = 15 };

struct race {
    unsigned long long (*slots)[3];
    unsigned threads;
    atomic_uint arrived;
    atomic_uint generation;
    atomic_uint rounds;         /* How many the threads run. */
    struct timespec deadline;
};

static bool past(const struct timespec *deadline)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->tv_sec
           || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

struct racer {
    struct race *race;
    unsigned index;
};

/* The last thread to arrive before ROUND releases the others, after
   cutting the rounds short when time is up: all then see the same count.  */
static void spin_barrier(struct race *race, unsigned round)
{
    unsigned generation = atomic_load(&race->generation);

    if (atomic_fetch_add(&race->arrived, 1) + 1 == race->threads) {
        if (round % 1024 == 0 && round < atomic_load(&race->rounds) && past(&race->deadline))
            atomic_store(&race->rounds, round);
        atomic_store(&race->arrived, 0);
        atomic_fetch_add(&race->generation, 1);
        return;
    }
    /* Yield now and then, in case the cores are fewer than they say.  */
    for (unsigned spins = 0; atomic_load(&race->generation) == generation; spins++)
        if (spins % RACE_SPINS == RACE_SPINS - 1)
            sched_yield();
}

/* Even rounds all positive, odd rounds all negative: a bound left at the
   slots' initial 0 shows either way.  */
static long long race_value(unsigned round, unsigned index)
{
    return round % 2 == 0 ? 10 + (long long)index : -10 - (long long)index;
}

static void *race_rounds(void *argument)
{
    struct racer *racer = argument;
    struct race *race = racer->race;

    for (unsigned round = 0;; round++) {
        spin_barrier(race, round);
        if (round >= atomic_load(&race->rounds))
            break;
        __sampler_observe_signed(race->slots[round], race_value(round, racer->index));
    }
    return NULL;
}

START_TEST(test_first_observations_race)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    struct race race = { .threads = cores < 2 ? 2 : cores > THREADS ? THREADS : (unsigned)cores };
    pthread_t threads[THREADS];
    struct racer racers[THREADS];

    race.slots = calloc(RACE_ROUNDS, sizeof race.slots[0]);
    ck_assert_ptr_nonnull(race.slots);
    atomic_init(&race.arrived, 0);
    atomic_init(&race.generation, 0);
    atomic_init(&race.rounds, RACE_ROUNDS);
    clock_gettime(CLOCK_MONOTONIC, &race.deadline);
    race.deadline.tv_sec += RACE_SECONDS;
    for (unsigned t = 0; t < race.threads; t++) {
        racers[t] = (struct racer){ .race = &race, .index = t };
        ck_assert_int_eq(pthread_create(&threads[t], NULL, race_rounds, &racers[t]), 0);
    }
    for (unsigned t = 0; t < race.threads; t++)
        pthread_join(threads[t], NULL);

    unsigned rounds = atomic_load(&race.rounds), rounds_wrong = 0;
    ck_assert_uint_ge(rounds, RACE_MIN_ROUNDS);
    for (unsigned round = 0; round < rounds; round++) {
        long long first = race_value(round, 0), last = race_value(round, race.threads - 1);
        long long min = first < last ? first : last, max = first < last ? last : first;
        rounds_wrong += race.slots[round][0] != race.threads
                        || (long long)race.slots[round][1] != min
                        || (long long)race.slots[round][2] != max;
    }
    free(race.slots);
    ck_assert_uint_eq(rounds_wrong, 0);
}
END_TEST

Suite *observe_suite(void)
{
    Suite *suite = suite_create("observe");

    TCase *bounds = tcase_create("bounds");
    tcase_add_loop_test(bounds, test_signed_bounds, 0,
                        sizeof signed_cases / sizeof signed_cases[0]);
    tcase_add_loop_test(bounds, test_unsigned_bounds, 0,
                        sizeof unsigned_cases / sizeof unsigned_cases[0]);
    tcase_add_loop_test(bounds, test_double_bounds, 0,
                        sizeof double_cases / sizeof double_cases[0]);
    suite_add_tcase(suite, bounds);

    TCase *kinds = tcase_create("float kinds");
    tcase_add_loop_test(kinds, test_float_kind, 0, sizeof kind_cases / sizeof kind_cases[0]);
    suite_add_tcase(suite, kinds);

    TCase *threads = tcase_create("threads");
    tcase_set_timeout(threads, 60);
    tcase_add_test(threads, test_concurrent_observations_are_exact);
    tcase_add_test(threads, test_first_observations_race);
    suite_add_tcase(suite, threads);
    return suite;
}
