/* 16 threads hammer the same sites: a sampled check and the branches of
   work(), visited ROUNDS times by each thread.

   threads ROUNDS  prints "thread I samples S" for each thread I: how many
                   of its ROUNDS calls of check() ran (the check counts
                   them per thread).  The report's counts are the totals.

   Each thread's samples come from its own random stream, chosen by the
   order in which main created it: with a seed they repeat from run to
   run, however the threads are scheduled.  The odd threads run a loop
   that calls setjmp, which the plugin does not clone (each site counts
   itself off the countdown): their first visit starts their stream.  */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include <sampler.h>

enum { THREADS = 16 };

static long rounds;
static unsigned long samples[THREADS];

void check(int thread) SAMPLER_SAMPLED;
void check(int thread)
{
    samples[thread]++;   /* only thread `thread' writes here */
}

static unsigned long work(unsigned long value)
{
    if (value % 3 == 0)
        return value / 3;
    return value * 2 + 1;
}

static void *run(void *data)
{
    int thread = (int)(long)data;
    unsigned long value = (unsigned long)thread + 1;

    for (long i = 0; i < rounds; i++) {
        check(thread);
        value = work(value);
    }
    return (void *)value;
}

static void *run_not_cloned(void *data)
{
    int thread = (int)(long)data;
    volatile unsigned long value = (unsigned long)thread + 1;
    jmp_buf env;

    if (setjmp(env) != 0)
        return NULL;
    for (long i = 0; i < rounds; i++) {
        check(thread);
        value = value % 3 == 0 ? value / 3 : value * 2 + 1;
    }
    return (void *)value;
}

int main(int argc, char **argv)
{
    pthread_t threads[THREADS];

    rounds = argc > 1 ? atol(argv[1]) : 10000;
    for (long t = 0; t < THREADS; t++)
        if (pthread_create(&threads[t], NULL, t % 2 ? run_not_cloned : run,
                           (void *)t) != 0)
            return 4;
    for (int t = 0; t < THREADS; t++)
        if (pthread_join(threads[t], NULL) != 0)
            return 5;
    for (int t = 0; t < THREADS; t++)
        printf("thread %d samples %lu\n", t, samples[t]);
    return 0;
}
