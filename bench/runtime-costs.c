/* The runtime's own costs, measured in one process linked with the static
   libsampler (run with SAMPLER_SPARSITY set; see the Makefile):

   - heap per sampling thread: malloc'd bytes (mallinfo2, one arena)
     before and after THREADS threads created as instrumented code creates
     them have each taken their first countdown, per thread (their
     alternate signal stacks are mmapped, and not counted here);
   - heap per registered unit: the same around registering UNITS units,
     and around unregistering them (the copies kept of unloaded units);
   - time to write a report of 100,000 sites: a unit of 100,000 sites with
     three nonzero counters each (the `bounds' shape, the widest lines a
     report has), written with sampler_dump() to SAMPLER_FILE, median and
     range of ROUNDS writes, and the report's size.

   Prints one "name value unit" line per figure.  */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sampler.h"
#include "sampler-abi.h"

enum { THREADS = 64, UNITS = 1000, SITES = 100000, COUNTERS_PER_SITE = 3, ROUNDS = 11 };

static size_t heap_in_use(void)
{
    return mallinfo2().uordblks;
}

static pthread_barrier_t all_started;

static void *sample_once(void *unused)
{
    (void)unused;
    SAMPLER_COUNTDOWN = __sampler_thread_start();
    pthread_barrier_wait(&all_started);   /* every thread alive at once */
    pthread_barrier_wait(&all_started);
    return NULL;
}

int __sampler_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             void *(*start)(void *), void *arg);

static double seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    /* One arena, so that mallinfo2 sees what the threads allocate.  */
    mallopt(M_ARENA_MAX, 1);
    if (sampler_sparsity() == 0) {
        fprintf(stderr, "runtime-costs: run with SAMPLER_SPARSITY set\n");
        return 2;
    }

    /* Threads: heap before any of them starts, and once all have sampled
       (they wait at the barrier, so none has freed its stream yet).  */
    pthread_t threads[THREADS];
    pthread_barrier_init(&all_started, NULL, THREADS + 1);
    size_t before = heap_in_use();
    for (int i = 0; i < THREADS; i++)
        if (__sampler_pthread_create(&threads[i], NULL, sample_once, NULL) != 0)
            return 1;
    pthread_barrier_wait(&all_started);
    size_t after = heap_in_use();
    pthread_barrier_wait(&all_started);
    for (int i = 0; i < THREADS; i++)
        pthread_join(threads[i], NULL);
    printf("heap-per-sampling-thread %.0f bytes\n", (double)(after - before) / THREADS);

    /* Units: descriptors made here, registered one by one.  */
    static const unsigned one_site[] = { 0, 1 };
    static unsigned long long unit_counters[UNITS];
    struct __sampler_unit *units = calloc(UNITS, sizeof *units);
    char (*signatures)[33] = calloc(UNITS, 33);
    if (units == NULL || signatures == NULL)
        return 1;
    for (int i = 0; i < UNITS; i++) {
        snprintf(signatures[i], 33, "%032x", i + 1);
        units[i] = (struct __sampler_unit) {
            .version = SAMPLER_ABI_VERSION, .n_sites = 1, .n_counters = 1,
            .signature = signatures[i], .source = "unit.c",
            .site_offsets = one_site, .counters = &unit_counters[i],
        };
    }
    before = heap_in_use();
    for (int i = 0; i < UNITS; i++)
        __sampler_register_unit(&units[i]);
    after = heap_in_use();
    printf("heap-per-unit %.1f bytes\n", (double)(after - before) / UNITS);
    /* Unregistered, as by dlclose: the runtime keeps a copy of each.  */
    before = heap_in_use();
    for (int i = 0; i < UNITS; i++)
        __sampler_unregister_unit(&units[i]);
    after = heap_in_use();
    printf("heap-per-unloaded-unit %.1f bytes (1 site, 1 counter)\n",
           (double)(after - before) / UNITS);

    /* A report of 100,000 sites.  */
    unsigned *offsets = malloc((SITES + 1) * sizeof *offsets);
    unsigned long long *counters = malloc((size_t)SITES * COUNTERS_PER_SITE * sizeof *counters);
    if (offsets == NULL || counters == NULL)
        return 1;
    for (unsigned i = 0; i <= SITES; i++)
        offsets[i] = i * COUNTERS_PER_SITE;
    for (unsigned i = 0; i < SITES; i++) {
        counters[3 * i] = 1000 + i;                       /* count */
        counters[3 * i + 1] = 18446744073709551615ULL - i; /* min: a negative value */
        counters[3 * i + 2] = 4620130267728707584ULL + i;  /* max: double bits */
    }
    static struct __sampler_unit big = {
        .version = SAMPLER_ABI_VERSION, .n_sites = SITES, .n_counters = SITES * COUNTERS_PER_SITE,
        .signature = "b16b16b16b16b16b16b16b16b16b16b1", .source = "big.c",
    };
    big.site_offsets = offsets;
    big.counters = counters;
    __sampler_register_unit(&big);

    double times[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        double start = seconds();
        if (sampler_dump() != 0)
            return 3;
        times[round] = seconds() - start;
    }
    qsort(times, ROUNDS, sizeof times[0], by_value);
    printf("report-100000-sites-median %.2f ms\n", times[ROUNDS / 2] * 1e3);
    printf("report-100000-sites-min %.2f ms\n", times[0] * 1e3);
    printf("report-100000-sites-max %.2f ms\n", times[ROUNDS - 1] * 1e3);
    const char *file = getenv("SAMPLER_FILE");
    struct stat status;
    if (file != NULL && stat(file, &status) == 0)
        printf("report-100000-sites-size %lld bytes\n", (long long)status.st_size);
    return 0;
}
