/* Thread numbers, and the threads that instrumented code creates.

   What: each thread's stream of countdowns is seeded from the run's seed
   and the thread's number (sampler_stream_seed), so that a seeded run
   samples the same visits in every thread each time.  The main thread is
   number 0.  Threads that instrumented code creates (pthread_create,
   redirected by the plugin to __sampler_pthread_create) are numbered 1,
   2, ... in creation order, which the program decides; threads created
   elsewhere (by uninstrumented libraries) are numbered from
   SAMPLER_LAZY_ORDER_BASE in the order they first sample, which the
   scheduler decides, so that they cannot shift the numbers of the others.
   A fork takes a number of the creation order too (process.c).

   How to debug: testsuite/runtime/threads.c checks that seeded runs with
   threads repeat.  */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "sampler-internal.h"

/* Numbers of the next thread created by instrumented code, and of the
   next one that starts sampling without (see the top of the file).  */
static atomic_ulong threads_created = 1;
static atomic_ulong threads_lazy;
/* The number __sampler_pthread_create gave the thread, plus one; 0: none.  */
static __thread unsigned long created_order
    __attribute__((tls_model("initial-exec")));
/* The number the parent reserved for the child of the fork in progress.  */
static __thread unsigned long fork_order;

unsigned long sampler_thread_order(void)
{
    if (created_order != 0)
        return created_order - 1;
    if (gettid() == getpid())
        return 0;   /* the main thread */
    return SAMPLER_LAZY_ORDER_BASE
           + atomic_fetch_add_explicit(&threads_lazy, 1, memory_order_relaxed);
}

void sampler_threads_fork_prepare(void)
{
    fork_order = atomic_fetch_add_explicit(&threads_created, 1,
                                           memory_order_relaxed);
}

unsigned long sampler_threads_fork_child(void)
{
    atomic_store_explicit(&threads_created, 1, memory_order_relaxed);
    atomic_store_explicit(&threads_lazy, 0, memory_order_relaxed);
    return fork_order;
}

struct thread_launch {
    void *(*start)(void *);
    void *arg;
    unsigned long order;
};

static void *launch_thread(void *data)
{
    struct thread_launch launch = *(struct thread_launch *)data;
    void *result;

    free(data);
    created_order = launch.order + 1;
    void *altstack = sampler_signals_thread_begin();
    pthread_cleanup_push(sampler_signals_thread_end, altstack);
    result = launch.start(launch.arg);
    pthread_cleanup_pop(1);
    return result;
}

SAMPLER_EXPORT int __sampler_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                            void *(*start)(void *), void *arg)
{
    if (sampler_config_get()->sparsity == 0)
        return pthread_create(thread, attr, start, arg);
    int saved_errno = errno;
    struct thread_launch *launch = malloc(sizeof *launch);
    errno = saved_errno;
    if (launch == NULL)
        return pthread_create(thread, attr, start, arg);
    launch->start = start;
    launch->arg = arg;
    launch->order = atomic_fetch_add_explicit(&threads_created, 1, memory_order_relaxed);
    int result = pthread_create(thread, attr, launch_thread, launch);
    if (result != 0)
        free(launch);
    return result;
}
