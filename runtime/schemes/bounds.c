/* bounds: the count, least and greatest value of an assignment's values
   (merge kind MIN_MAX).

   Bounds slots start at zero, and zero is also a possible minimum, so the
   first observation of a site cannot be merged into min and max like the
   others: it claims the site by moving the count from 0 to BOUNDS_STARTING,
   stores its value in both, and publishes count 1.  Later observations
   lower and raise min and max with CAS loops and add to the count.  An
   observation that finds the site claimed waits for the claim to finish,
   but only so long: if the claiming thread never finishes (a signal
   handler on the same thread observing the same site, or one that never
   returns), the waiting observation is dropped rather than hang.

   Bounds take floating-point values, or run code that may use the vector
   registers: their sample functions are ordinary calls.  */
#include <math.h>
#include <sched.h>
#include <string.h>

#include "sample.h"
#include "schemes.h"

typedef _Atomic unsigned long long atomic_slot;

#define BOUNDS_STARTING (~0ULL)
/* Yields before an observation gives up on an unfinished claim.  */
#define CLAIM_WAIT_LIMIT 100000

static inline atomic_slot *slot_at(unsigned long long *slots, unsigned index)
{
    return (atomic_slot *)&slots[index];
}

/* Orders on the slots' bits: "candidate replaces the current minimum"
   and "candidate replaces the current maximum".  */
typedef bool bits_order(unsigned long long candidate, unsigned long long current);

static inline void improve(atomic_slot *slot, unsigned long long bits,
                           bits_order *replaces)
{
    unsigned long long current = atomic_load_explicit(slot, memory_order_relaxed);

    while (replaces(bits, current)
           && !atomic_compare_exchange_weak_explicit(slot, &current, bits,
                                                     memory_order_relaxed,
                                                     memory_order_relaxed))
        ;
}

static inline void observe_bounds(unsigned long long *slots,
                                  unsigned long long bits,
                                  bits_order *lowers, bits_order *raises)
{
    atomic_slot *count = slot_at(slots, 0);
    unsigned long long seen = atomic_load_explicit(count, memory_order_acquire);
    unsigned waits = 0;

    while (seen == 0 || seen == BOUNDS_STARTING) {
        if (seen == 0) {
            if (atomic_compare_exchange_weak_explicit(count, &seen, BOUNDS_STARTING,
                                                      memory_order_acquire,
                                                      memory_order_acquire)) {
                atomic_store_explicit(slot_at(slots, 1), bits, memory_order_relaxed);
                atomic_store_explicit(slot_at(slots, 2), bits, memory_order_relaxed);
                atomic_store_explicit(count, 1, memory_order_release);
                return;
            }
            continue;   /* seen has the count that beat us */
        }
        if (++waits > CLAIM_WAIT_LIMIT)
            return;
        sched_yield();
        seen = atomic_load_explicit(count, memory_order_acquire);
    }
    improve(slot_at(slots, 1), bits, lowers);
    improve(slot_at(slots, 2), bits, raises);
    bump(slots, 0);
}

static bool signed_lowers(unsigned long long candidate, unsigned long long current)
{
    return (long long)candidate < (long long)current;
}

static bool signed_raises(unsigned long long candidate, unsigned long long current)
{
    return (long long)candidate > (long long)current;
}

static bool unsigned_lowers(unsigned long long candidate, unsigned long long current)
{
    return candidate < current;
}

static bool unsigned_raises(unsigned long long candidate, unsigned long long current)
{
    return candidate > current;
}

static double double_of(unsigned long long bits)
{
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* NaNs are counted but are neither minimum nor maximum, unless nothing
   else was seen (then the first NaN stays).  -0 is below +0.  */
static bool double_lowers(unsigned long long candidate, unsigned long long current)
{
    double x = double_of(candidate), y = double_of(current);

    if (isnan(x))
        return false;
    if (isnan(y) || x < y)
        return true;
    return x == 0 && y == 0 && signbit(x) && !signbit(y);
}

static bool double_raises(unsigned long long candidate, unsigned long long current)
{
    double x = double_of(candidate), y = double_of(current);

    if (isnan(x))
        return false;
    if (isnan(y) || x > y)
        return true;
    return x == 0 && y == 0 && !signbit(x) && signbit(y);
}

SAMPLER_EXPORT void __sampler_observe_signed(unsigned long long *slots, long long value)
{
    observe_bounds(slots, (unsigned long long)value, signed_lowers, signed_raises);
}

SAMPLER_EXPORT void __sampler_observe_unsigned(unsigned long long *slots,
                                               unsigned long long value)
{
    observe_bounds(slots, value, unsigned_lowers, unsigned_raises);
}

SAMPLER_EXPORT void __sampler_observe_double(unsigned long long *slots, double value)
{
    unsigned long long bits;

    memcpy(&bits, &value, sizeof bits);
    observe_bounds(slots, bits, double_lowers, double_raises);
}

SAMPLER_EXPORT void __sampler_bounds_signed(unsigned long long *slots,
                                            long long value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started);
    __sampler_observe_signed(slots, value);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next());
}

SAMPLER_EXPORT void __sampler_bounds_unsigned(unsigned long long *slots,
                                              unsigned long long value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started);
    __sampler_observe_unsigned(slots, value);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next());
}

SAMPLER_EXPORT void __sampler_bounds_double(unsigned long long *slots, double value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started);
    __sampler_observe_double(slots, value);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next());
}

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(BOUNDS) = { 0 };
