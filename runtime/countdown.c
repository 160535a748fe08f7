/* Geometric countdowns (seed 000): each thread draws from its own seeded
   generator into a bank, and instrumented code takes one countdown per
   sample.  The process is configured once, on first use; this file also
   holds the process-wide state that fork must carry over: thread numbering,
   the sparsity in effect, and the fork handlers of the whole runtime.

   Thread numbers make seeded runs repeatable.  The main thread is number 0.
   Threads that instrumented code creates (pthread_create, redirected by the
   plugin to __sampler_pthread_create) are numbered 1, 2, ... in creation
   order, which the program decides; threads created elsewhere (by
   uninstrumented libraries) are numbered from SAMPLER_LAZY_ORDER_BASE in the order
   they first sample, which the scheduler decides, so that they cannot
   shift the numbers of the others.  */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "sampler.h"
#include "sampler-abi.h"
#include "sampler-internal.h"

SAMPLER_EXPORT __thread long __sampler_countdown
    __attribute__((tls_model("initial-exec"))) = 0;


/* The sparsity in effect, and how many times sampler_set_sparsity changed
   it: a stream drawn at another generation is redrawn.  */
static atomic_long current_sparsity;
atomic_uint sampler_sparsity_generation;

struct sampler_stream {
    struct sampler_bank bank;  /* first: see sampler_countdown_next_preserving */
    long sparsity;
    double log_keep;      /* log(1 - 1/sparsity) < 0; unused at sparsity 1 */
    gsl_rng rng;          /* its state lives in rng_state */
    max_align_t rng_state[];
};

/* Inversion: for u uniform on (0,1), 1 + floor(log u / log(1 - p)) is
   geometric on {1, 2, ...} with P(k) = p (1 - p)^(k - 1).  It is what
   gsl_ran_geometric computes, but that returns unsigned int, which
   overflows for sparsities above about 2e8 (a 32-bit uniform goes down to
   2^-32, so draws reach 22 * sparsity); log1p keeps log(1 - p) exact for
   tiny p.  Sparsity above 1 only (stream_refill).  */
static long draw_geometric(struct sampler_stream *stream)
{
    double skipped = log(gsl_rng_uniform_pos(&stream->rng)) / stream->log_keep;
    /* Only reachable where long has 32 bits: stay below the "off" value.  */
    if (skipped >= (double)(SAMPLER_COUNTDOWN_OFF - 1))
        return SAMPLER_COUNTDOWN_OFF - 1;
    return 1 + (long)skipped;
}

static void stream_refill(struct sampler_stream *stream)
{
    /* At sparsity 1 every countdown is 1 and the generator is not used: a
       plain fill the compiler vectorises (drawing them cost bzip2 9% more
       instructions at sparsity 1).  */
    if (stream->sparsity == 1)
        for (unsigned i = 0; i < SAMPLER_BANK_SIZE; i++)
            stream->bank.countdowns[i] = 1;
    else
        for (unsigned i = 0; i < SAMPLER_BANK_SIZE; i++)
            stream->bank.countdowns[i] = draw_geometric(stream);
    stream->bank.next = 0;
}

static void stream_set_sparsity(struct sampler_stream *stream, long sparsity)
{
    stream->sparsity = sparsity;
    /* Unused at sparsity 1, where log1p(-1) would be a pole error.  */
    stream->log_keep = sparsity > 1 ? log1p(-1.0 / (double)sparsity) : -INFINITY;
}

/* After sampler_set_sparsity: the bank's countdowns were drawn at the old
   sparsity.  */
static void stream_follow_sparsity(struct sampler_stream *stream)
{
    unsigned generation = atomic_load_explicit(&sampler_sparsity_generation,
                                               memory_order_acquire);
    stream_set_sparsity(stream, atomic_load_explicit(&current_sparsity,
                                                     memory_order_relaxed));
    stream->bank.generation = generation;
    stream_refill(stream);
}

static inline long stream_next(struct sampler_stream *stream)
{
    if (__builtin_expect(stream->bank.next == SAMPLER_BANK_SIZE, 0))
        stream_refill(stream);
    return stream->bank.countdowns[stream->bank.next++];
}

/* The next countdown of the calling thread's stream, at the sparsity in
   effect.  */
static inline long thread_stream_next(struct sampler_stream *stream)
{
    if (__builtin_expect(stream->bank.generation
                         != atomic_load_explicit(&sampler_sparsity_generation,
                                                 memory_order_relaxed), 0))
        stream_follow_sparsity(stream);
    return stream_next(stream);
}

/* Restarts the stream from the given seed; the bank is drawn on next use.  */
static void stream_reseed(struct sampler_stream *stream, uint64_t base,
                          unsigned long order)
{
    gsl_rng_set(&stream->rng, sampler_stream_seed(base, order));
    stream->bank.next = SAMPLER_BANK_SIZE;
}

struct sampler_stream *sampler_stream_new(long sparsity, uint64_t base,
                                          unsigned long order)
{
    const gsl_rng_type *type = gsl_rng_mt19937;

    /* One allocation for the stream and its generator's state, and no
       gsl_rng_alloc: GSL's default error handler aborts when out of memory,
       and a sampled program must not die because of sampling.  */
    struct sampler_stream *stream = malloc(sizeof *stream + type->size);
    if (stream == NULL)
        return NULL;
    stream_set_sparsity(stream, sparsity);
    stream->bank.generation = atomic_load_explicit(&sampler_sparsity_generation,
                                              memory_order_relaxed);
    stream->rng.type = type;
    stream->rng.state = stream->rng_state;
    stream_reseed(stream, base, order);
    return stream;
}

long sampler_stream_next(struct sampler_stream *stream)
{
    return stream_next(stream);
}

void sampler_stream_free(struct sampler_stream *stream)
{
    free(stream);
}

/* Process state, written once by configure_process (and by the fork child
   handler, when the child has a single thread).  */
static struct sampler_config process_config;
static pthread_once_t process_once = PTHREAD_ONCE_INIT;
static atomic_bool process_ready;
static atomic_long process_pid;
/* Numbers of the next thread created by instrumented code, and of the
   next one that starts sampling without (see the top of the file).  */
static atomic_ulong threads_created = 1;
static atomic_ulong threads_lazy;
/* Its destructor frees a thread's stream when the thread exits.  */
static pthread_key_t stream_key;
static bool stream_key_ready;

/* Initial-exec like the countdown: no __tls_get_addr call on the way to the
   bank, and only 8 bytes of static TLS.  */
__thread struct sampler_stream *sampler_thread_stream
    __attribute__((tls_model("initial-exec")));
/* The number __sampler_pthread_create gave the thread, plus one; 0: none.  */
static __thread unsigned long created_order
    __attribute__((tls_model("initial-exec")));
/* The number the parent reserved for the child of the fork in progress.  */
static __thread unsigned long fork_order;

static void release_thread_stream(void *stream)
{
    sampler_thread_stream = NULL;
    sampler_stream_free(stream);
}

/* The whole runtime's fork handlers, in one place so that their order is
   plain: the locks of registration, dispositions and reports are held
   across fork, so that the child finds them consistent.  */
static void fork_prepare(void)
{
    fork_order = atomic_fetch_add_explicit(&threads_created, 1,
                                           memory_order_relaxed);
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

/* Without a new stream, parent and child would sample the same visits from
   now on.  The child also gets a base seed of its own, so that none of its
   later threads repeats a stream of the parent's.  The new base depends only
   on the seed and on the order of thread creations and forks, so seeded
   runs stay repeatable.  The child counts from zero: its parent reports
   what was counted before the fork.  */
static void fork_child(void)
{
    long parent = sampler_process_pid();

    atomic_store_explicit(&process_pid, (long)getpid(), memory_order_relaxed);
    process_config.seed = sampler_mix64(process_config.seed
                                        ^ sampler_mix64(fork_order));
    atomic_store_explicit(&threads_created, 1, memory_order_relaxed);
    atomic_store_explicit(&threads_lazy, 0, memory_order_relaxed);
    if (sampler_thread_stream != NULL)
        stream_reseed(sampler_thread_stream, process_config.seed, 0);
    sampler_report_fork_child(parent);
    sampler_signals_fork_child();
    sampler_units_unlock();
    sampler_units_zero();
    sampler_interval_start(&process_config);
}

static void configure_process(void)
{
    int saved_errno = errno;   /* see start_thread */

    sampler_config_from_environment(&process_config);
    atomic_store_explicit(&current_sparsity, process_config.sparsity,
                          memory_order_relaxed);
    atomic_store_explicit(&process_pid, (long)getpid(), memory_order_relaxed);
    if (process_config.sparsity != 0) {
        stream_key_ready = pthread_key_create(&stream_key, release_thread_stream) == 0;
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

long sampler_current_sparsity(void)
{
    return atomic_load_explicit(&current_sparsity, memory_order_relaxed);
}

long sampler_process_pid(void)
{
    return atomic_load_explicit(&process_pid, memory_order_relaxed);
}

static long start_thread(void)
{
    const struct sampler_config *config = sampler_config_get();

    if (config->sparsity == 0)
        return SAMPLER_COUNTDOWN_OFF;
    if (sampler_thread_stream == NULL) {
        /* Instrumented code may sample between a call and its errno check;
           malloc and pthread calls must not change what it sees.  */
        int saved_errno = errno;
        unsigned long order;
        if (created_order != 0)
            order = created_order - 1;
        else if (gettid() == getpid())
            order = 0;   /* the main thread */
        else
            order = SAMPLER_LAZY_ORDER_BASE
                    + atomic_fetch_add_explicit(&threads_lazy, 1, memory_order_relaxed);
        /* The generation first: a sparsity read after it is at least as
           new.  */
        unsigned generation = atomic_load_explicit(&sampler_sparsity_generation,
                                                   memory_order_acquire);
        struct sampler_stream *stream =
            sampler_stream_new(sampler_current_sparsity(), config->seed, order);
        if (stream != NULL)
            stream->bank.generation = generation;
        if (stream != NULL && stream_key_ready)
            (void)pthread_setspecific(stream_key, stream);
        errno = saved_errno;
        if (stream == NULL)
            return SAMPLER_COUNTDOWN_OFF;   /* out of memory: not sampled */
        sampler_thread_stream = stream;
    }
    return thread_stream_next(sampler_thread_stream);
}

SAMPLER_EXPORT long __sampler_thread_start(void)
{
    return start_thread();
}

long sampler_countdown_next(void)
{
    struct sampler_stream *stream = sampler_thread_stream;

    if (__builtin_expect(stream == NULL, 0))
        return start_thread();
    return thread_stream_next(stream);
}

SAMPLER_EXPORT long __sampler_next_countdown(void)
{
    return sampler_countdown_next();
}

#if defined(__x86_64__)
SAMPLER_PRESERVING long sampler_countdown_refill_preserving(void)
{
    return sampler_call_saving_vectors(sampler_countdown_next);
}

SAMPLER_PRESERVING static long thread_start_preserving(void)
{
    return sampler_call_saving_vectors(start_thread);
}
#else
long sampler_countdown_refill_preserving(void)
{
    return sampler_countdown_next();
}

static long thread_start_preserving(void)
{
    return start_thread();
}
#endif

SAMPLER_EXPORT SAMPLER_PRESERVING long __sampler_thread_start_preserving(void)
{
    return thread_start_preserving();
}

SAMPLER_EXPORT long sampler_sparsity(void)
{
    (void)sampler_config_get();
    return sampler_current_sparsity();
}

SAMPLER_EXPORT int sampler_set_sparsity(long sparsity)
{
    if (sampler_config_get()->sparsity == 0) {
        errno = EPERM;
        return -1;
    }
    if (sparsity < 1 || sparsity > SAMPLER_SPARSITY_MAX) {
        errno = EINVAL;
        return -1;
    }
    atomic_store_explicit(&current_sparsity, sparsity, memory_order_relaxed);
    atomic_fetch_add_explicit(&sampler_sparsity_generation, 1, memory_order_release);
    /* The calling thread at once: instrumented code imports the countdown
       after calling here.  */
    if (sampler_thread_stream != NULL)
        __sampler_countdown = thread_stream_next(sampler_thread_stream);
    return 0;
}

/* ---- Threads created by instrumented code ------------------------------- */

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

/* Starts the main thread before main, so that its instrumented code samples
   from the first visit on without a trip through the slow path.  Constructors
   of instrumented objects that ran earlier have started it already.  */
__attribute__((constructor)) static void start_main_thread(void)
{
    if (__sampler_countdown == 0)
        __sampler_countdown = start_thread();
}
