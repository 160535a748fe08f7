/* Geometric countdowns (Liblit et al., PLDI 2003): each thread draws from
   its own seeded generator into a bank of countdowns, and instrumented
   code takes one countdown per sample.  This file holds the thread's
   countdown, the generator and the draws, the banks, the sparsity in
   effect, and the start of a thread's sampling.  Thread numbers are in
   threads.c, the process's configuration and fork handling in process.c.

   Why banks: a sampled visit takes the next countdown with a load and an
   increment (sampler_countdown_next_preserving, inline in the sample
   functions); the floating point of the draws runs once per bank, through
   sampler_call_saving_vectors where the caller saves no registers.

   How to debug: SAMPLER_SEED makes a run repeatable, thread by thread;
   test-countdown checks the draws' distribution with fixed seeds.  */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>

#include "sampler.h"
#include "sampler-abi.h"
#include "sampler-internal.h"
#include "schemes.h"

SAMPLER_EXPORT __thread long __sampler_countdown
    __attribute__((tls_model("initial-exec"))) = 0;

__thread long sampler_held_countdown __attribute__((tls_model("initial-exec")));

/* The sparsity in effect, and how many times sampler_set_sparsity changed
   it: a stream drawn at another generation is redrawn.  */
static atomic_long current_sparsity;
atomic_uint sampler_sparsity_generation;

/* The countdown unit (sampler_countdown_unit_offer): 1, or that of the
   first unit built with rates.  */
static atomic_long countdown_unit = 1;
static atomic_bool countdown_unit_set;
static atomic_bool countdown_unit_warned;

/* The generator's state (see random64), never all zero.  A structure of
   its own, so that stream_refill keeps a copy in registers for a whole
   bank: kept in the stream, it would be loaded and stored at every draw,
   as the rare ways out of a draw call exp and log.  */
struct xoshiro {
    uint64_t s0, s1, s2, s3;
};

struct sampler_stream {
    struct sampler_bank bank;  /* first: see sampler_countdown_next_preserving */
    long sparsity;
    long mean;               /* sparsity times the countdown unit */
    double visits_per_unit;  /* -1 / log(1 - 1/mean); unused at mean 1 */
    struct xoshiro random;
};

/* The generator: xoshiro256** (Blackman and Vigna, "Scrambled linear
   pseudorandom number generators", 2021), 64 good bits in about ten
   instructions.  Seeded by splitmix64, as its authors advise.  */
/* One step of the generator X, its output into RESULT.  A macro, so that
   the SAMPLER_PRESERVING sampler_thread_random64 has it too: GCC does not
   inline across target options.  */
#define XOSHIRO_STEP(x, result)                                              \
    do {                                                                     \
        uint64_t product_ = (x)->s1 * 5;                                     \
        uint64_t t_ = (x)->s1 << 17;                                         \
        product_ = ((product_ << 7) | (product_ >> 57)) * 9;                 \
        (x)->s2 ^= (x)->s0;                                                  \
        (x)->s3 ^= (x)->s1;                                                  \
        (x)->s1 ^= (x)->s2;                                                  \
        (x)->s0 ^= (x)->s3;                                                  \
        (x)->s2 ^= t_;                                                       \
        (x)->s3 = ((x)->s3 << 45) | ((x)->s3 >> 19);                         \
        (result) = product_;                                                 \
    } while (0)

static inline uint64_t random64(struct xoshiro *x)
{
    uint64_t result;
    XOSHIRO_STEP(x, result);
    return result;
}

static uint64_t splitmix64(uint64_t *seed)
{
    *seed += UINT64_C(0x9e3779b97f4a7c15);
    uint64_t z = *seed;
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void random_seed(struct sampler_stream *stream, uint64_t seed)
{
    struct xoshiro *x = &stream->random;
    x->s0 = splitmix64(&seed);
    x->s1 = splitmix64(&seed);
    x->s2 = splitmix64(&seed);
    x->s3 = splitmix64(&seed);
}

/* Exponential draws by the ziggurat method (Marsaglia and Tsang, "The
   Ziggurat Method for Generating Random Variables", 2000): 256 layers of
   equal area under exp(-x); a draw picks a layer with 8 random bits and a
   point in it with 56 more, and is done when the point lies in the
   layer's rectangle, as it does 98.9% of the time, with one multiplication.
   Only the thin wedges and the tail take exp or log, where inversion
   would take a log for every countdown.  Here the layer and the point
   come from separate bits of one 64-bit number (the original takes both
   from one 32-bit word).  */
#define ZIGGURAT_LAYERS 256
#define ZIGGURAT_R 7.69711747013104972      /* where the tail starts */
#define ZIGGURAT_AREA 3.949659822581572e-3  /* of each layer */
#define TWO_TO_56 72057594037927936.0

static struct {
    uint64_t inside[ZIGGURAT_LAYERS];   /* point < inside[i]: in the rectangle */
    double width[ZIGGURAT_LAYERS];      /* x = point * width[i] */
    double height[ZIGGURAT_LAYERS];     /* exp(-x) at the layer's right edge */
} ziggurat;
static pthread_once_t ziggurat_once = PTHREAD_ONCE_INIT;

static void ziggurat_setup(void)
{
    double x = ZIGGURAT_R, previous = ZIGGURAT_R;
    double base = ZIGGURAT_AREA / exp(-x);   /* the base layer, tail included */

    ziggurat.inside[0] = (uint64_t)(x / base * TWO_TO_56);
    ziggurat.inside[1] = 0;
    ziggurat.width[0] = base / TWO_TO_56;
    ziggurat.width[ZIGGURAT_LAYERS - 1] = x / TWO_TO_56;
    ziggurat.height[0] = 1.0;
    ziggurat.height[ZIGGURAT_LAYERS - 1] = exp(-x);
    for (int i = ZIGGURAT_LAYERS - 2; i >= 1; i--) {
        x = -log(ZIGGURAT_AREA / x + exp(-x));
        ziggurat.inside[i + 1] = (uint64_t)(x / previous * TWO_TO_56);
        previous = x;
        ziggurat.height[i] = exp(-x);
        ziggurat.width[i] = x / TWO_TO_56;
    }
}

/* A uniform on (0, 1].  */
static double uniform_pos(struct xoshiro *random)
{
    return (double)((random64(random) >> 11) + 1) * 0x1p-53;
}

static double draw_exponential(struct xoshiro *random)
{
    for (;;) {
        uint64_t bits = random64(random);
        unsigned layer = (unsigned)(bits & (ZIGGURAT_LAYERS - 1));
        /* 56 bits: as signed, one instruction to convert.  */
        int64_t point = (int64_t)(bits >> 8);
        if ((uint64_t)point < ziggurat.inside[layer])
            return (double)point * ziggurat.width[layer];
        if (layer == 0)   /* the tail beyond R is R plus an exponential */
            return ZIGGURAT_R - log(uniform_pos(random));
        double x = (double)point * ziggurat.width[layer];
        double below = ziggurat.height[layer];
        if (below + uniform_pos(random) * (ziggurat.height[layer - 1] - below) < exp(-x))
            return x;
    }
}

/* For E exponential with mean 1, 1 + floor(E / -log(1 - p)) is geometric on
   {1, 2, ...} with P(k) = p (1 - p)^(k - 1) (the exponential's tail over each
   stretch of length -log(1 - p) is 1 - p times the previous one); log1p
   keeps log(1 - p) exact for tiny p.  Sparsity above 1 only
   (stream_refill).  */
static long draw_geometric(struct xoshiro *random, double visits_per_unit)
{
    double skipped = draw_exponential(random) * visits_per_unit;
#if LONG_MAX / 64 < SAMPLER_SPARSITY_MAX * SAMPLER_COUNTDOWN_UNIT_MAX
    /* Where long has 32 bits: stay below the "off" value.  (An exponential
       draw is below 45, R plus -log of the least uniform, 2^-53.)  */
    if (skipped >= (double)(SAMPLER_COUNTDOWN_OFF - 1))
        return SAMPLER_COUNTDOWN_OFF - 1;
#endif
    return 1 + (long)skipped;
}

static void stream_refill(struct sampler_stream *stream)
{
    /* At a mean of 1 every countdown is 1 and the generator is not used: a
       plain fill the compiler vectorises.  */
    if (stream->mean == 1)
        for (unsigned i = 0; i < SAMPLER_BANK_SIZE; i++)
            stream->bank.countdowns[i] = 1;
    else {
        struct xoshiro random = stream->random;
        double visits_per_unit = stream->visits_per_unit;
        for (unsigned i = 0; i < SAMPLER_BANK_SIZE; i++)
            stream->bank.countdowns[i] = draw_geometric(&random, visits_per_unit);
        stream->random = random;
    }
    stream->bank.next = 0;
}

static void stream_set_sparsity(struct sampler_stream *stream, long sparsity)
{
    stream->sparsity = sparsity;
    stream->mean = sparsity * atomic_load_explicit(&countdown_unit, memory_order_relaxed);
    /* Unused at a mean of 1, where log1p(-1) would be a pole error.  */
    stream->visits_per_unit = stream->mean > 1 ? -1.0 / log1p(-1.0 / (double)stream->mean) : 0;
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
    random_seed(stream, sampler_stream_seed(base, order));
    stream->bank.next = SAMPLER_BANK_SIZE;
    stream->bank.coins = 0;
}

struct sampler_stream *sampler_stream_new(long sparsity, uint64_t base,
                                          unsigned long order)
{
    struct sampler_stream *stream = malloc(sizeof *stream);
    if (stream == NULL)
        return NULL;
    pthread_once(&ziggurat_once, ziggurat_setup);
    stream_set_sparsity(stream, sparsity);
    stream->bank.generation = atomic_load_explicit(&sampler_sparsity_generation,
                                              memory_order_relaxed);
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

/* Its destructor frees a thread's stream when the thread exits.  */
static pthread_key_t stream_key;
static bool stream_key_ready;

/* Initial-exec like the countdown: no __tls_get_addr call on the way to the
   bank, and only 8 bytes of static TLS.  */
__thread struct sampler_stream *sampler_thread_stream
    __attribute__((tls_model("initial-exec")));

static void release_thread_stream(void *stream)
{
    sampler_schemes_thread_exit();
    sampler_thread_stream = NULL;
    sampler_stream_free(stream);
}

void sampler_countdown_configure(const struct sampler_config *config)
{
    atomic_store_explicit(&current_sparsity, config->sparsity,
                          memory_order_relaxed);
    if (config->sparsity != 0)
        stream_key_ready = pthread_key_create(&stream_key, release_thread_stream) == 0;
}

void sampler_countdown_fork_child(uint64_t seed)
{
    if (sampler_thread_stream != NULL)
        stream_reseed(sampler_thread_stream, seed, 0);
}

long sampler_current_sparsity(void)
{
    return atomic_load_explicit(&current_sparsity, memory_order_relaxed);
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
        unsigned long order = sampler_thread_order();
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

/* A thread whose stream could not be made tosses its coins with this.
   Initial-exec, as every TLS variable of preserving code: a dynamic model
   would call __tls_get_addr, whose changes to vector registers such code
   cannot save (GCC 16 refuses it).  */
static __thread uint64_t fallback_random_state
    __attribute__((tls_model("initial-exec")));

SAMPLER_PRESERVING uint64_t sampler_thread_random64(void)
{
    struct sampler_stream *stream = sampler_thread_stream;
    uint64_t result;

    if (__builtin_expect(stream == NULL, 0)) {
        /* splitmix64, written out for the same reason as XOSHIRO_STEP.  */
        uint64_t z = fallback_random_state += UINT64_C(0x9e3779b97f4a7c15);
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31);
    }
    XOSHIRO_STEP(&stream->random, result);
    return result;
}

SAMPLER_EXPORT SAMPLER_PRESERVING long __sampler_thread_start_preserving(void)
{
    /* Instrumented code calls this where it finds the countdown at 0 on
       its way into a slow copy.  A thread recording a subpath holds it at
       0 (sampler_held_countdown): it stays there, and no countdown is
       drawn.  */
    if (sampler_held_countdown != 0)
        return 0;
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
    /* The calling thread at once: instrumented code reads the countdown
       where it is.  */
    if (sampler_thread_stream != NULL) {
        long next = thread_stream_next(sampler_thread_stream);
        if (sampler_held_countdown != 0)
            sampler_held_countdown = next;
        else
            SAMPLER_COUNTDOWN = next;
    }
    return 0;
}

long sampler_countdown_unit(void)
{
    return atomic_load_explicit(&countdown_unit, memory_order_relaxed);
}

void sampler_countdown_unit_offer(unsigned unit, const char *source)
{
    bool expected = false;
    if (atomic_compare_exchange_strong(&countdown_unit_set, &expected, true)) {
        if (unit == 1)
            return;
        atomic_store_explicit(&countdown_unit, (long)unit, memory_order_relaxed);
        /* Every stream redraws its bank, as after sampler_set_sparsity;
           the calling thread (a constructor's, usually the main thread
           before main) takes a new countdown at once.  */
        atomic_fetch_add_explicit(&sampler_sparsity_generation, 1, memory_order_release);
        if (sampler_thread_stream != NULL && SAMPLER_COUNTDOWN != 0
            && SAMPLER_COUNTDOWN != SAMPLER_COUNTDOWN_OFF)
            SAMPLER_COUNTDOWN = thread_stream_next(sampler_thread_stream);
        return;
    }
    if ((long)unit != sampler_countdown_unit()
        && !atomic_exchange(&countdown_unit_warned, true)) {
        char quoted[SAMPLER_QUOTED_SIZE(SAMPLER_QUOTE_MAX)], message[512];
        sampler_quote(source != NULL ? source : "?", SAMPLER_QUOTE_MAX, quoted);
        snprintf(message, sizeof message,
                 "sampler: %s was built with countdown unit %u, but this process "
                 "counts in units of %ld: its sites are sampled at other rates than "
                 "trained (reports say which)", quoted, unit, sampler_countdown_unit());
        sampler_warn(message);
    }
}

/* Starts the main thread before main, so that its instrumented code samples
   from the first visit on without a trip through the slow path.  Constructors
   of instrumented objects that ran earlier have started it already.  With
   sampling off the countdown stays zero: instrumented functions then go
   to their unsampled clones (__sampler_off).  */
__attribute__((constructor)) static void start_main_thread(void)
{
    if (SAMPLER_COUNTDOWN == 0) {
        long first = start_thread();
        if (!__sampler_off)
            SAMPLER_COUNTDOWN = first;
    }
}
