/* The process: its configuration, read once on first use, and the fork
   handlers that carry the runtime's state into a child.

   What: configure_process reads the environment (config.c), sets the
   sparsity (countdown.c) and __sampler_off, and, when sampling is on,
   installs the fork handlers, the report at exit, the fatal-signal
   handlers and the interim-report thread.  The fork handlers of the whole
   runtime are here, in one place, so that their order is plain.

   Why the child gets a new seed: without a new stream, parent and child
   would sample the same visits from then on.

   How to debug: testsuite/runtime/forkexec.c and test-process cover fork
   and the reports of parent and child.  */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "sampler-abi.h"
#include "sampler-internal.h"
#include "schemes.h"

SAMPLER_EXPORT int __sampler_off;

/* Process state, written once by configure_process (and by the fork child
   handler, when the child has a single thread).  */
static struct sampler_config process_config;
static pthread_once_t process_once = PTHREAD_ONCE_INIT;
static atomic_bool process_ready;
static atomic_long process_pid;

/* The locks of registration, dispositions and reports are held across
   fork, so that the child finds them consistent.  */
static void fork_prepare(void)
{
    sampler_threads_fork_prepare();
    sampler_units_lock();
    sampler_signals_fork_prepare();
    sampler_report_fork_prepare();
}

static void fork_parent(void)
{
    sampler_report_fork_parent();
    sampler_signals_fork_parent();
    sampler_units_unlock();
}

/* The child gets a base seed of its own, so that none of its later
   threads repeats a stream of the parent's, and its thread's stream is
   reseeded from it.  The new base depends only on the seed and on the
   order of thread creations and forks, so seeded runs stay repeatable.
   The child counts from zero: its parent reports what was counted before
   the fork.  */
static void fork_child(void)
{
    long parent = sampler_process_pid();

    atomic_store_explicit(&process_pid, (long)getpid(), memory_order_relaxed);
    unsigned long fork_order = sampler_threads_fork_child();
    process_config.seed = sampler_mix64(process_config.seed
                                        ^ sampler_mix64(fork_order));
    sampler_countdown_fork_child(process_config.seed);
    sampler_report_fork_child(parent);
    sampler_signals_fork_child();
    sampler_units_unlock();
    sampler_units_zero();
    sampler_schemes_fork_child();
    sampler_interval_start(&process_config);
}

static void configure_process(void)
{
    /* Instrumented code may sample between a call and its errno check.  */
    int saved_errno = errno;

    sampler_config_from_environment(&process_config);
    sampler_countdown_configure(&process_config);
    atomic_store_explicit(&process_pid, (long)getpid(), memory_order_relaxed);
    __sampler_off = process_config.sparsity == 0;
    if (process_config.sparsity != 0) {
        (void)pthread_atfork(fork_prepare, fork_parent, fork_child);
        sampler_report_arm();
        sampler_signals_arm();
        sampler_interval_start(&process_config);
    }
    atomic_store_explicit(&process_ready, true, memory_order_release);
    errno = saved_errno;
}

const struct sampler_config *sampler_config_get(void)
{
    pthread_once(&process_once, configure_process);
    return &process_config;
}

const struct sampler_config *sampler_config_if_ready(void)
{
    return atomic_load_explicit(&process_ready, memory_order_acquire)
           ? &process_config : NULL;
}

long sampler_process_pid(void)
{
    return atomic_load_explicit(&process_pid, memory_order_relaxed);
}
