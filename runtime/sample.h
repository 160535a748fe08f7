/* What the sample functions of every scheme share (sample.c and the
   files of runtime/schemes): instrumented code in the slow copy calls them
   when the countdown runs out at a site (see sampler-abi.h).  Each
   observes the site, bumping its counters (atomically once the process has
   more than one thread, as any thread may sample the same site), and sets
   the thread's next countdown itself, so that the call site only
   decrements, tests and, rarely, calls.

   The integer ones are SAMPLER_PRESERVING (sampler-abi.h): on x86-64 the
   plugin calls them from asm statements that clobber nothing but the
   countdown.  Their declarations, from the registry (sampler-abi.def and
   schemes.def), give their definitions the attribute; the definitions
   say it again, for the reader.  */
#ifndef SAMPLER_SAMPLE_H
#define SAMPLER_SAMPLE_H

#include <stdatomic.h>

#include "sampler-abi.h"
#include "sampler-internal.h"

/* The ABI's slots are plain unsigned long long; they are accessed as the
   atomic type of the same size and alignment, which GCC guarantees is
   lock-free and represented the same.  */
_Static_assert(sizeof(_Atomic unsigned long long) == sizeof(unsigned long long)
               && _Alignof(_Atomic unsigned long long) == _Alignof(unsigned long long),
               "counters must be usable as atomics in place");

/* Adds 1 to counter INDEX.  While the process has one thread (glibc's
   __libc_single_threaded, which it clears before the first thread starts
   and never sets again), no other thread can add to the counter: a plain
   add does, one instruction, so that a signal handler sampling on the
   same thread cannot split it.  Otherwise, or without the flag, a relaxed
   atomic add.  A macro, not a function: the preserving functions are
   compiled for other target options, and GCC does not inline across
   those.  */
#define bump_atomic(counters, index)                                         \
    atomic_fetch_add_explicit((_Atomic unsigned long long *)&(counters)[index], \
                              1, memory_order_relaxed)

#if defined(__x86_64__) && defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define SAMPLER_SINGLE_THREADED_BUMP 1
#endif
#endif

#ifdef SAMPLER_SINGLE_THREADED_BUMP
#define bump(counters, index)                                                \
    do {                                                                     \
        unsigned long long *bumped_ = &(counters)[index];                    \
        if (__builtin_expect(__libc_single_threaded, 1))                     \
            __asm__("addq $1, %0" : "+m"(*bumped_));                         \
        else                                                                 \
            atomic_fetch_add_explicit((_Atomic unsigned long long *)bumped_, \
                                      1, memory_order_relaxed);              \
    } while (0)
#else
#define bump(counters, index) bump_atomic(counters, index)
#endif

/* 0, 1, 2 for <, ==, >.  */
#define THREE_WAY(a, b) ((unsigned long)(((a) > (b)) - ((a) < (b)) + 1))

/* Instrumented code counts a thread's visits off its countdown from the
   start, so in a thread that has not started sampling yet they count off
   the initial 0 and the first of them calls here: the countdown C it was
   left with is then relative to 0, and the thread's first countdown is
   drawn now and added, which gives the countdown as it would have been.
   The thread starts at its first visit, as it would with a test at every
   entry into the slow path, without the test.  */
static inline __attribute__((always_inline)) SAMPLER_PRESERVING long
started_preserving(long c)
{
    if (__builtin_expect(sampler_thread_stream == NULL, 0))
        c += __sampler_thread_start_preserving();
    return c;
}

static inline long started(long c)
{
    if (__builtin_expect(sampler_thread_stream == NULL, 0))
        c += __sampler_thread_start();
    return c;
}

/* started_preserving out of line (sample.c), for the single sites: inline,
   its call would make each of them save twelve registers at every sampled
   visit.  */
SAMPLER_PRESERVING __attribute__((noinline)) long
sampler_started_out_of_line_preserving(long c);

/* For the single sites, which instrumented code calls at a countdown of
   0: in a thread that had not started, the countdown left after the
   visit, when that is not the sampled one.  In a thread recording a
   subpath (sampler_held_countdown, runtime/schemes/subpaths/), every
   visit calls, at a countdown of -k: the visit counts off the held
   countdown, and returns unless that runs out.  A sample function that
   gets past this sets the next countdown with SAMPLER_SET_COUNTDOWN.  */
#define UNLESS_FIRST_VISIT_OF_THREAD(start)                                  \
    do {                                                                     \
        if (__builtin_expect(sampler_held_countdown != 0, 0)) {              \
            long left = sampler_held_countdown + SAMPLER_COUNTDOWN;          \
            if (left > 0) {                                                  \
                sampler_held_countdown = left;                               \
                SAMPLER_COUNTDOWN = 0;                                       \
                return;                                                      \
            }                                                                \
            SAMPLER_COUNTDOWN = left;                                        \
        } else if (__builtin_expect(sampler_thread_stream == NULL, 0)) {     \
            long left = start(SAMPLER_COUNTDOWN);                            \
            if (left > 0) {                                                  \
                SAMPLER_COUNTDOWN = left;                                    \
                return;                                                      \
            }                                                                \
        }                                                                    \
    } while (0)

/* The countdown a sample function sees: the held one, while the thread
   records a subpath, less the visits instrumented code took off the
   countdown it sees (held at 0).  */
#define SAMPLER_COUNTDOWN_SEEN() (SAMPLER_COUNTDOWN + sampler_held_countdown)

/* Sets the thread's next countdown C (>= 1) at the end of a sample
   function: the held one while the thread records a subpath, the one
   instrumented code sees otherwise.  */
#define SAMPLER_SET_COUNTDOWN(c)                                             \
    do {                                                                     \
        long next_ = (c);                                                    \
        if (__builtin_expect(sampler_held_countdown != 0, 0)) {              \
            sampler_held_countdown = next_;                                  \
            SAMPLER_COUNTDOWN = 0;                                           \
        } else {                                                             \
            SAMPLER_COUNTDOWN = next_;                                       \
        }                                                                    \
    } while (0)

#endif
