/* The process goes from one thread to many and back to one: main calls
   check() ROUNDS times alone, then THREADS threads call it ROUNDS times
   each while main calls it ROUNDS times more, then main joins them and
   calls it ROUNDS times more.

   going-threaded ROUNDS  prints "ran N", how many of the calls ran.

   The runtime bumps a counter with a plain add while the process has one
   thread, and atomically from the creation of the first thread on: at
   sparsity 1 every call runs and the report counts every one of the
   (3 + THREADS) x ROUNDS calls, none lost to a race on the shared site.  */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <sampler.h>

enum { THREADS = 8 };

static long rounds;
static atomic_ulong ran;
/* The threads and main start their calls together, so that on a machine
   with more than one core they add to the site's counter at once.  */
static pthread_barrier_t start;

void check(void) SAMPLER_SAMPLED;
void check(void)
{
    atomic_fetch_add_explicit(&ran, 1, memory_order_relaxed);
}

static void *calls(void *unused)
{
    (void)unused;
    for (long i = 0; i < rounds; i++)
        check();
    return NULL;
}

static void *calls_together(void *unused)
{
    pthread_barrier_wait(&start);
    return calls(unused);
}

int main(int argc, char **argv)
{
    pthread_t threads[THREADS];

    rounds = argc > 1 ? atol(argv[1]) : 10000;
    calls(NULL);
    if (pthread_barrier_init(&start, NULL, THREADS + 1) != 0)
        return 3;
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&threads[t], NULL, calls_together, NULL) != 0)
            return 4;
    calls_together(NULL);
    for (int t = 0; t < THREADS; t++)
        if (pthread_join(threads[t], NULL) != 0)
            return 5;
    calls(NULL);
    printf("ran %lu\n", (unsigned long)atomic_load(&ran));
    return 0;
}
