/* Geometric countdowns (seed 000): each thread draws from its own seeded
   generator into a bank, and instrumented code takes one countdown per
   sample.  The process is configured once, on first use.  */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <gsl/gsl_rng.h>

#include "sampler.h"
#include "sampler-abi.h"
#include "sampler-internal.h"

SAMPLER_EXPORT __thread long __sampler_countdown
    __attribute__((tls_model("initial-exec"))) = 0;

struct sampler_stream {
    unsigned next;        /* index of the next unused countdown in bank */
    long sparsity;
    double log_keep;      /* log(1 - 1/sparsity) < 0; unused at sparsity 1 */
    gsl_rng rng;          /* its state lives in rng_state */
    long bank[SAMPLER_BANK_SIZE];
    max_align_t rng_state[];
};

/* Inversion: for u uniform on (0,1), 1 + floor(log u / log(1 - p)) is
   geometric on {1, 2, ...} with P(k) = p (1 - p)^(k - 1).  It is what
   gsl_ran_geometric computes, but that returns unsigned int, which
   overflows for sparsities above about 2e8 (a 32-bit uniform goes down to
   2^-32, so draws reach 22 * sparsity); log1p keeps log(1 - p) exact for
   tiny p.  */
static long draw_geometric(struct sampler_stream *stream)
{
    if (stream->sparsity == 1)
        return 1;
    double skipped = log(gsl_rng_uniform_pos(&stream->rng)) / stream->log_keep;
    /* Only reachable where long has 32 bits: stay below the "off" value.  */
    if (skipped >= (double)(SAMPLER_COUNTDOWN_OFF - 1))
        return SAMPLER_COUNTDOWN_OFF - 1;
    return 1 + (long)skipped;
}

static void stream_refill(struct sampler_stream *stream)
{
    for (unsigned i = 0; i < SAMPLER_BANK_SIZE; i++)
        stream->bank[i] = draw_geometric(stream);
    stream->next = 0;
}

static inline long stream_next(struct sampler_stream *stream)
{
    if (__builtin_expect(stream->next == SAMPLER_BANK_SIZE, 0))
        stream_refill(stream);
    return stream->bank[stream->next++];
}

/* Restarts the stream from the given seed; the bank is drawn on next use.  */
static void stream_reseed(struct sampler_stream *stream, uint64_t base,
                          unsigned long order)
{
    gsl_rng_set(&stream->rng, sampler_stream_seed(base, order));
    stream->next = SAMPLER_BANK_SIZE;
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
    stream->sparsity = sparsity;
    /* Unused at sparsity 1, where log1p(-1) would be a pole error.  */
    stream->log_keep = sparsity > 1 ? log1p(-1.0 / (double)sparsity) : -INFINITY;
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
/* Start order of the next thread: makes seeded runs repeatable.  */
static atomic_ulong threads_started;
/* Its destructor frees a thread's stream when the thread exits.  */
static pthread_key_t stream_key;
static bool stream_key_ready;

/* Initial-exec like the countdown: no __tls_get_addr call on the way to the
   bank, and only 8 bytes of static TLS.  */
static __thread struct sampler_stream *thread_stream
    __attribute__((tls_model("initial-exec")));
/* The order the parent reserved for the child of the fork in progress.  */
static __thread unsigned long fork_order;

static void release_thread_stream(void *stream)
{
    thread_stream = NULL;
    sampler_stream_free(stream);
}

static void before_fork(void)
{
    fork_order = atomic_fetch_add_explicit(&threads_started, 1,
                                           memory_order_relaxed);
}

/* Without a new stream, parent and child would sample the same visits from
   now on.  The child also gets a base seed of its own, so that none of its
   later threads repeats a stream of the parent's.  The new base depends only
   on the seed and on the order of thread starts and forks, so seeded runs
   stay repeatable.  */
static void after_fork_in_child(void)
{
    process_config.seed = sampler_mix64(process_config.seed
                                        ^ sampler_mix64(fork_order));
    atomic_store_explicit(&threads_started, 1, memory_order_relaxed);
    if (thread_stream != NULL)
        stream_reseed(thread_stream, process_config.seed, 0);
}

static void configure_process(void)
{
    int saved_errno = errno;   /* see start_thread */

    sampler_config_from_environment(&process_config);
    if (process_config.sparsity != 0) {
        stream_key_ready = pthread_key_create(&stream_key, release_thread_stream) == 0;
        (void)pthread_atfork(before_fork, NULL, after_fork_in_child);
        sampler_report_arm();
    }
    errno = saved_errno;
}

const struct sampler_config *sampler_config_get(void)
{
    pthread_once(&process_once, configure_process);
    return &process_config;
}

static long start_thread(void)
{
    const struct sampler_config *config = sampler_config_get();

    if (config->sparsity == 0)
        return SAMPLER_COUNTDOWN_OFF;
    if (thread_stream == NULL) {
        /* Instrumented code may sample between a call and its errno check;
           malloc and pthread calls must not change what it sees.  */
        int saved_errno = errno;
        unsigned long order = atomic_fetch_add_explicit(&threads_started, 1,
                                                        memory_order_relaxed);
        struct sampler_stream *stream =
            sampler_stream_new(config->sparsity, config->seed, order);
        if (stream != NULL && stream_key_ready)
            (void)pthread_setspecific(stream_key, stream);
        errno = saved_errno;
        if (stream == NULL)
            return SAMPLER_COUNTDOWN_OFF;   /* out of memory: not sampled */
        thread_stream = stream;
    }
    return stream_next(thread_stream);
}

SAMPLER_EXPORT long __sampler_thread_start(void)
{
    return start_thread();
}

long sampler_countdown_next(void)
{
    struct sampler_stream *stream = thread_stream;

    if (__builtin_expect(stream == NULL, 0))
        return start_thread();
    return stream_next(stream);
}

SAMPLER_EXPORT long __sampler_next_countdown(void)
{
    return sampler_countdown_next();
}

#if defined(__x86_64__)
SAMPLER_PRESERVING __attribute__((noinline)) static long refill_preserving(void)
{
    return sampler_call_saving_vectors(sampler_countdown_next);
}

SAMPLER_PRESERVING static long thread_start_preserving(void)
{
    return sampler_call_saving_vectors(start_thread);
}
#else
static long refill_preserving(void)
{
    return sampler_countdown_next();
}

static long thread_start_preserving(void)
{
    return start_thread();
}
#endif

/* Takes the countdown from the bank; drawing a new bank takes floating
   point.  */
SAMPLER_PRESERVING long sampler_countdown_next_preserving(void)
{
    struct sampler_stream *stream = thread_stream;

    if (__builtin_expect(stream != NULL && stream->next < SAMPLER_BANK_SIZE, 1))
        return stream->bank[stream->next++];
    return refill_preserving();
}

SAMPLER_EXPORT SAMPLER_PRESERVING long __sampler_thread_start_preserving(void)
{
    return thread_start_preserving();
}

SAMPLER_EXPORT long sampler_sparsity(void)
{
    return sampler_config_get()->sparsity;
}

/* Starts the main thread before main, so that its instrumented code samples
   from the first visit on without a trip through the slow path.  Constructors
   of instrumented objects that ran earlier have started it already.  */
__attribute__((constructor)) static void start_main_thread(void)
{
    if (__sampler_countdown == 0)
        __sampler_countdown = start_thread();
}
