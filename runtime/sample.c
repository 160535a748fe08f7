/* Sampled visits: what the slow copy of instrumented code calls when its
   countdown runs out at a site.  Each function observes the site, bumping
   its counters with relaxed atomic adds (any thread may sample the same
   site), and sets the thread's next countdown itself, so that the call
   site only decrements, tests and, rarely, calls.  Keeping the
   observation and the countdown's update out of line keeps the slow copy
   small: bzip2's slow copies stored each call's result and loaded a
   group's countdown before its call, 9% of its text.

   The integer ones are SAMPLER_PRESERVING (see sampler-internal.h): on
   x86-64 the plugin calls them from asm statements that clobber nothing
   but the countdown.  */
#include <stdatomic.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "sampler-abi.h"
#include "sampler-internal.h"

/* A macro, not a function: the preserving functions are compiled for
   other target options, and GCC does not inline across those.  */
#define bump(counters, index)                                                \
    atomic_fetch_add_explicit((_Atomic unsigned long long *)&(counters)[index], \
                              1, memory_order_relaxed)

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

/* started_preserving out of line, for the single sites: inline, its call
   made each of them save twelve registers at every sampled visit.  */
static SAMPLER_PRESERVING __attribute__((noinline)) long
started_out_of_line_preserving(long c)
{
    return started_preserving(c);
}

/* For the single sites, which instrumented code calls at a countdown of
   0: in a thread that had not started, the countdown left after the
   visit, when that is not the sampled one.  */
#define UNLESS_FIRST_VISIT_OF_THREAD(start)                                  \
    do {                                                                     \
        if (__builtin_expect(sampler_thread_stream == NULL, 0)) {            \
            long left = start(SAMPLER_COUNTDOWN);                            \
            if (left > 0) {                                                  \
                SAMPLER_COUNTDOWN = left;                                    \
                return;                                                      \
            }                                                                \
        }                                                                    \
    } while (0)

SAMPLER_EXPORT SAMPLER_PRESERVING void __sampler_count(unsigned long long *counters,
                                                       unsigned long index)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started_out_of_line_preserving);
    bump(counters, index);
    SAMPLER_COUNTDOWN = sampler_countdown_next_preserving();
}

/* A branch's outcome is a truth value, but one computed from uninitialized
   operands may arrive as any bits: whatever they are, one of the two
   counters.  */
SAMPLER_EXPORT SAMPLER_PRESERVING void __sampler_branch(unsigned long long *counters,
                                                        unsigned long outcome)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started_out_of_line_preserving);
    bump(counters, outcome != 0);
    SAMPLER_COUNTDOWN = sampler_countdown_next_preserving();
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_sign_signed(unsigned long long *counters, long long value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started_out_of_line_preserving);
    bump(counters, THREE_WAY(value, 0));
    SAMPLER_COUNTDOWN = sampler_countdown_next_preserving();
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_sign_unsigned(unsigned long long *counters, unsigned long long value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started_out_of_line_preserving);
    bump(counters, value != 0 ? 2 : 1);
    SAMPLER_COUNTDOWN = sampler_countdown_next_preserving();
}

/* The visits of a group of k, from 0, that the countdown c (<= 0, left
   after all k) samples: visit k + c - 1 first, then each one the next
   countdown reaches (SAMPLE_PAIR: one visit, then on to the next sampled
   one).  Returns the countdown that follows the group.  The common case,
   one sampled visit in a started thread, is kept apart from the loop: a
   preserving function saves every register it touches, and the loop
   touched thirteen (bzip2 at sparsity 1000: 67 instructions a group,
   53 without).  */
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
    SAMPLER_COUNTDOWN = pairs_signed(counters, SAMPLER_COUNTDOWN, k, values);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_pairs_unsigned(unsigned long long *counters, unsigned long k,
                         const unsigned long long *values)
{
    SAMPLER_COUNTDOWN = pairs_unsigned(counters, SAMPLER_COUNTDOWN, k, values);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void __sampler_skip(void)
{
    long c = started_preserving(SAMPLER_COUNTDOWN);
    while (c <= 0)
        c += sampler_countdown_next_preserving();
    SAMPLER_COUNTDOWN = c;
}

/* These take floating-point values, or run code that may use the vector
   registers: ordinary calls.  */
SAMPLER_EXPORT void __sampler_bounds_signed(unsigned long long *slots,
                                            long long value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started);
    __sampler_observe_signed(slots, value);
    SAMPLER_COUNTDOWN = sampler_countdown_next();
}

SAMPLER_EXPORT void __sampler_bounds_unsigned(unsigned long long *slots,
                                              unsigned long long value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started);
    __sampler_observe_unsigned(slots, value);
    SAMPLER_COUNTDOWN = sampler_countdown_next();
}

SAMPLER_EXPORT void __sampler_bounds_double(unsigned long long *slots, double value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started);
    __sampler_observe_double(slots, value);
    SAMPLER_COUNTDOWN = sampler_countdown_next();
}

SAMPLER_EXPORT void __sampler_float_kind(unsigned long long *counters,
                                         long double value, int source_type)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started);
    __sampler_observe_float_kind(counters, value, source_type);
    SAMPLER_COUNTDOWN = sampler_countdown_next();
}

#if defined(__x86_64__)
/* How sampler_call_saving_vectors saves the state: 0 not known yet, 1
   fxsave (x87 and SSE), 2 xsave (also AVX and AVX-512, when the system
   has enabled them).  */
int sampler_vector_save_kind __attribute__((visibility("hidden")));

SAMPLER_PRESERVING __attribute__((used)) static void find_vector_save_kind(void)
{
    unsigned eax, ebx, ecx, edx;

    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_OSXSAVE))
        sampler_vector_save_kind = 2;
    else
        sampler_vector_save_kind = 1;
}

/* The save area: 4096 bytes, 64-aligned, is more than xsave needs for
   x87, SSE, AVX and AVX-512 (mask 0xe7); the header (bytes 512 to 575)
   must be zero before xsave.  */
__asm__(
    "	.text\n"
    "	.p2align 4\n"
    "	.globl sampler_call_saving_vectors\n"
    "	.hidden sampler_call_saving_vectors\n"
    "	.type sampler_call_saving_vectors, @function\n"
    "sampler_call_saving_vectors:\n"
    "	.cfi_startproc\n"
    "	pushq %rbp\n"
    "	.cfi_def_cfa_offset 16\n"
    "	.cfi_offset %rbp, -16\n"
    "	movq %rsp, %rbp\n"
    "	.cfi_def_cfa_register %rbp\n"
    "	pushq %rbx\n"
    "	.cfi_offset %rbx, -24\n"
    "	pushq %r12\n"
    "	.cfi_offset %r12, -32\n"
    "	movq %rdi, %rbx\n"
    "	subq $4160, %rsp\n"
    "	andq $-64, %rsp\n"
    "	cmpl $0, sampler_vector_save_kind(%rip)\n"
    "	jne 1f\n"
    "	call find_vector_save_kind\n"
    "1:	movl sampler_vector_save_kind(%rip), %r12d\n"
    "	cmpl $2, %r12d\n"
    "	jne 2f\n"
    "	xorl %eax, %eax\n"
    "	movq %rax, 512(%rsp)\n"
    "	movq %rax, 520(%rsp)\n"
    "	movq %rax, 528(%rsp)\n"
    "	movq %rax, 536(%rsp)\n"
    "	movq %rax, 544(%rsp)\n"
    "	movq %rax, 552(%rsp)\n"
    "	movq %rax, 560(%rsp)\n"
    "	movq %rax, 568(%rsp)\n"
    "	movl $0xe7, %eax\n"
    "	xorl %edx, %edx\n"
    "	xsave64 (%rsp)\n"
    "	jmp 3f\n"
    "2:	fxsave64 (%rsp)\n"
    "3:	call *%rbx\n"
    "	movq %rax, %rbx\n"
    "	cmpl $2, %r12d\n"
    "	jne 4f\n"
    "	movl $0xe7, %eax\n"
    "	xorl %edx, %edx\n"
    "	xrstor64 (%rsp)\n"
    "	jmp 5f\n"
    "4:	fxrstor64 (%rsp)\n"
    "5:	movq %rbx, %rax\n"
    "	leaq -16(%rbp), %rsp\n"
    "	popq %r12\n"
    "	popq %rbx\n"
    "	popq %rbp\n"
    "	.cfi_def_cfa %rsp, 8\n"
    "	ret\n"
    "	.cfi_endproc\n"
    "	.size sampler_call_saving_vectors, .-sampler_call_saving_vectors\n");
#endif
