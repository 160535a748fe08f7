/* scalar-pairs: an assigned value compared with each of the k values of
   its pairs, one site per pair.  By default the assignment is one visit
   on the countdown, and its sampled visit observes all k pairs
   (__sampler_assignment_pairs_*); with pairs-sites=pair each pair is a
   visit of its own, and the k are sampled as a group of k visits
   (__sampler_pairs_*).  */
#include "sample.h"
#include "schemes.h"

/* One sampled visit of an assignment: every pair compared, then the
   next countdown.  */
#define SAMPLE_ASSIGNMENT(type, counters, k, values)                         \
    do {                                                                     \
        UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving); \
        for (unsigned long i = 0; i < (k); i++)                              \
            bump(counters, 3 * i + THREE_WAY((type)(values)[0],              \
                                             (type)(values)[i + 1]));        \
        SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());         \
    } while (0)

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_assignment_pairs_signed(unsigned long long *counters, unsigned long k,
                                  const long long *values)
{
    SAMPLE_ASSIGNMENT(long long, counters, k, values);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_assignment_pairs_unsigned(unsigned long long *counters, unsigned long k,
                                    const unsigned long long *values)
{
    SAMPLE_ASSIGNMENT(unsigned long long, counters, k, values);
}

/* The visits of a group of k, from 0, that the countdown c (<= 0, left
   after all k) samples: visit k + c - 1 first, then each one the next
   countdown reaches (SAMPLE_PAIR: one visit, then on to the next sampled
   one).  Returns the countdown that follows the group.  The common case,
   one sampled visit in a started thread, is kept apart from the loop: a
   preserving function saves every register it touches, and the loop
   touches many.  */
#define SAMPLE_PAIR(type, counters, i, values)                               \
    do {                                                                     \
        bump(counters, 3 * (i) + THREE_WAY((type)(values)[0],                \
                                           (type)(values)[(i) + 1]));        \
        (i) += (unsigned long)sampler_countdown_next_preserving();           \
    } while (0)

#define SAMPLE_PAIRS_REST(type, counters, i, k, values)                      \
    do {                                                                     \
        (i) = (unsigned long)started_preserving((long)(i));                  \
        while ((i) < (k))                                                    \
            SAMPLE_PAIR(type, counters, i, values);                          \
        return (long)((i) - (k) + 1);                                        \
    } while (0)

#define SAMPLE_PAIRS(type, rest, counters, c, k, values)                     \
    do {                                                                     \
        unsigned long i = (unsigned long)((long)(k) + (c) - 1);              \
        if (__builtin_expect(sampler_thread_stream != NULL && i < (k), 1)) { \
            SAMPLE_PAIR(type, counters, i, values);                          \
            if (__builtin_expect(i >= (k), 1))                               \
                return (long)(i - (k) + 1);                                  \
        }                                                                    \
        return rest(counters, i, k, values);                                 \
    } while (0)

static SAMPLER_PRESERVING __attribute__((noinline)) long
pairs_signed_rest(unsigned long long *counters, unsigned long i,
                  unsigned long k, const long long *values)
{
    SAMPLE_PAIRS_REST(long long, counters, i, k, values);
}

static SAMPLER_PRESERVING __attribute__((noinline)) long
pairs_unsigned_rest(unsigned long long *counters, unsigned long i,
                    unsigned long k, const unsigned long long *values)
{
    SAMPLE_PAIRS_REST(unsigned long long, counters, i, k, values);
}

static inline __attribute__((always_inline)) SAMPLER_PRESERVING long
pairs_signed(unsigned long long *counters, long c, unsigned long k,
             const long long *values)
{
    SAMPLE_PAIRS(long long, pairs_signed_rest, counters, c, k, values);
}

static inline __attribute__((always_inline)) SAMPLER_PRESERVING long
pairs_unsigned(unsigned long long *counters, long c, unsigned long k,
               const unsigned long long *values)
{
    SAMPLE_PAIRS(unsigned long long, pairs_unsigned_rest, counters, c, k, values);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_pairs_signed(unsigned long long *counters, unsigned long k,
                       const long long *values)
{
    long c = SAMPLER_COUNTDOWN_SEEN();
    /* While the thread records a subpath: none of the k visits sampled.  */
    if (c > 0) {
        SAMPLER_SET_COUNTDOWN(c);
        return;
    }
    SAMPLER_SET_COUNTDOWN(pairs_signed(counters, c, k, values));
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_pairs_unsigned(unsigned long long *counters, unsigned long k,
                         const unsigned long long *values)
{
    long c = SAMPLER_COUNTDOWN_SEEN();
    /* While the thread records a subpath: none of the k visits sampled.  */
    if (c > 0) {
        SAMPLER_SET_COUNTDOWN(c);
        return;
    }
    SAMPLER_SET_COUNTDOWN(pairs_unsigned(counters, c, k, values));
}

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(SCALAR_PAIRS) = { 0 };
