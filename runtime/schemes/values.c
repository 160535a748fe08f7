/* values: a hot-list of the values a site sees (merge kind HOT_LIST), a
   concise sample (Gibbons and Matias, SIGMOD 1998) as value profiles keep
   them (Burrows et al., ASPLOS 2000).  docs/values.md has the algorithm
   and its analysis.

   A site's slots, for its capacity K (3 + 2K of them):

     [0]  sampled    every sampled visit, exactly (an atomic add)
     [1]  tau-log2   j: the threshold tau is 2^j (0 <= j <= 63)
     [2]  lock       0, or the owner's tag while a thread updates the list
     [3 + 2i], [4 + 2i]   entry i: a value and its count (count 0: free)

   A sampled value enters the list with probability 1/tau: if it is there
   its count grows by one, else it takes a free entry with count 1.  The
   lookup compares values only: a free entry (count 0) keeps the value it
   had, and the first entry holding a value counts it, free or not.  A
   value is stored only where no entry holds it, so no value is in two
   entries, and the lookup of a value in the list stops at its entry
   (the list starts as K free entries holding 0: the first of them counts
   0).  With
   no free entry, the new value is a (K+1)-th entry of count 1, tau
   doubles and every unit of every count is kept with probability 1/2 (a
   binomial draw per entry), until some entry has left or the new value
   has: each unit of a value's visits is then in the list with probability
   1/tau, independently, which is what makes count * tau an unbiased
   estimate of its sampled visits.  (Counts above HALVED_BY_COINS_MAX are
   halved exactly but for the odd unit: the same mean, less variance, and
   a bounded cost.)

   Updates of the list take the site's lock (never the fast path: only a
   sampled visit gets here).  A visit that finds its own thread holding
   the lock (a signal handler interrupting an update of the same site)
   is counted in slot 0 and leaves the list alone rather than deadlock.
   The slots are plain memory the report writes as they are; a report
   written during an update (a crash) holds the list as it was then,
   every entry a value and a count.  Zeroing the counters (fork's child,
   sampler_reset) empties the list and frees the lock.

   Coin tosses come from the thread's own generator, the one its
   countdowns come from.  Everything here is integer code, callable from
   the preserving sample function.  */
#include "sample.h"

enum { HOT_SAMPLED, HOT_TAU_LOG2, HOT_LOCK, HOT_ENTRIES };
#define HOT_MAX_TAU_LOG2 63

typedef _Atomic unsigned long long atomic_slot;

#define SLOT(slots, i) ((atomic_slot *)&(slots)[i])
#define LOAD(slots, i) atomic_load_explicit(SLOT(slots, i), memory_order_relaxed)
#define STORE(slots, i, v) atomic_store_explicit(SLOT(slots, i), (v), memory_order_relaxed)

/* The calling thread's tag in the lock word: the address of one of its
   thread-local variables, never 0.  */
#define THREAD_TAG ((unsigned long long)(uintptr_t)&sampler_thread_stream)

/* Bits set in X (no popcnt instruction assumed; no library call).  */
static inline SAMPLER_PRESERVING unsigned bits_set(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

#define coin sampler_thread_coin

/* Counts above this are halved exactly, but for a coin for an odd unit.  */
#define HALVED_BY_COINS_MAX 4096

/* N units thinned by one half: up to HALVED_BY_COINS_MAX, each kept by a
   fair coin (binomial, 64 coins per random word); above, N / 2 and a coin
   for the odd unit, which has the same mean and keeps a thinning of a
   long-lived list from taking millions of coins under the lock.  */
static inline SAMPLER_PRESERVING unsigned long long halved(unsigned long long n)
{
    unsigned long long kept = 0;

    if (n > HALVED_BY_COINS_MAX)
        return n / 2 + ((n & 1) && coin(1));
    for (; n >= 64; n -= 64)
        kept += bits_set(sampler_thread_random64());
    if (n > 0)
        kept += bits_set(sampler_thread_random64() & ((UINT64_C(1) << n) - 1));
    return kept;
}

/* Takes the site's lock; false if the calling thread holds it already.  */
static inline SAMPLER_PRESERVING bool lock_site(unsigned long long *slots)
{
    unsigned long long me = THREAD_TAG;

    for (;;) {
        unsigned long long owner = 0;
        if (atomic_compare_exchange_weak_explicit(SLOT(slots, HOT_LOCK), &owner, me,
                                                  memory_order_acquire,
                                                  memory_order_relaxed))
            return true;
        if (owner == me)
            return false;
#if defined(__x86_64__) || defined(__i386__)
        __asm__ volatile("pause");
#endif
    }
}

static inline SAMPLER_PRESERVING void unlock_site(unsigned long long *slots)
{
    atomic_store_explicit(SLOT(slots, HOT_LOCK), 0, memory_order_release);
}

/* The list is full and VALUE is to enter: raise tau and thin until there
   is room or VALUE's unit is gone.  Under the lock.  */
static SAMPLER_PRESERVING void make_room(unsigned long long *slots, unsigned long capacity,
                                         unsigned long long value, unsigned j)
{
    unsigned long long pending = 1;
    long free_entry = -1;

    while (pending > 0 && free_entry < 0 && j < HOT_MAX_TAU_LOG2) {
        j++;
        for (unsigned long i = 0; i < capacity; i++) {
            unsigned long long count = LOAD(slots, HOT_ENTRIES + 2 * i + 1);
            unsigned long long kept = halved(count);
            STORE(slots, HOT_ENTRIES + 2 * i + 1, kept);
            if (kept == 0)
                free_entry = (long)i;
        }
        pending = halved(pending);
        STORE(slots, HOT_TAU_LOG2, j);
    }
    if (pending > 0 && free_entry >= 0) {
        STORE(slots, HOT_ENTRIES + 2 * free_entry, value);
        STORE(slots, HOT_ENTRIES + 2 * free_entry + 1, pending);
    }
}

/* Under the lock: VALUE, in no entry, takes a free one, or makes room.
   Out of line, as the rarer case (a value seen for the first time since
   it last left), so that the common ones save fewer registers: a
   preserving function saves every register it uses, and a call to
   another preserving one clobbers none.  */
static __attribute__((noinline)) SAMPLER_PRESERVING void
insert_value(unsigned long long *slots, unsigned long long value, unsigned long capacity,
             unsigned j)
{
    long free_entry = -1;
    for (unsigned long i = 0; i < capacity && free_entry < 0; i++)
        if (LOAD(slots, HOT_ENTRIES + 2 * i + 1) == 0)
            free_entry = (long)i;
    if (free_entry >= 0) {
        STORE(slots, HOT_ENTRIES + 2 * free_entry, value);
        STORE(slots, HOT_ENTRIES + 2 * free_entry + 1, 1);
    } else {
        make_room(slots, capacity, value, j);
    }
}

/* A coin of 2^-J out of line, for the rare toss of a visit that found tau
   raised by another thread between its toss and the lock.  */
static __attribute__((noinline)) SAMPLER_PRESERVING bool coin_out_of_line(unsigned j)
{
    return coin(j);
}

/* Records one sampled visit of a site with CAPACITY entries that saw
   VALUE.  The first toss is inline: a call out of line would make the
   visits whose coin did not come up save as many registers as the
   others.  */
static inline __attribute__((always_inline)) SAMPLER_PRESERVING void
observe_value(unsigned long long *slots, unsigned long long value, unsigned long capacity)
{
    bump(slots, HOT_SAMPLED);
    unsigned j = (unsigned)LOAD(slots, HOT_TAU_LOG2);
    if (j > 0 && !coin(j))
        return;
    if (!lock_site(slots))
        return;
    /* Tau may have grown since the toss: toss for the difference.  */
    unsigned now = (unsigned)LOAD(slots, HOT_TAU_LOG2);
    if (__builtin_expect(now > j, 0) && !coin_out_of_line(now - j)) {
        unlock_site(slots);
        return;
    }
    /* An entry whose count thinning brought to 0 keeps its value, and
       takes it back with count 1: the first entry holding a value is the
       only one that can count it (see the top).  */
    unsigned long long *entry = &slots[HOT_ENTRIES], *end = entry + 2 * capacity;
    for (; entry != end; entry += 2) {
        if (LOAD(entry, 0) == value) {
            STORE(entry, 1, LOAD(entry, 1) + 1);
            unlock_site(slots);
            return;
        }
    }
    insert_value(slots, value, capacity, now);
    unlock_site(slots);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_observe_value(unsigned long long *slots, unsigned long long value,
                        unsigned long capacity)
{
    observe_value(slots, value, capacity);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_value(unsigned long long *slots, unsigned long long value, unsigned long capacity)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    observe_value(slots, value, capacity);
    SAMPLER_COUNTDOWN = sampler_countdown_next_preserving();
}

_Atomic bool sampler_indirect_targets_seen;

/* A call through a function pointer: its target into the hot-list, and
   reports from now on list the loaded objects that name it.  */
SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_indirect_call(unsigned long long *slots, unsigned long long target,
                        unsigned long capacity)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    if (!atomic_load_explicit(&sampler_indirect_targets_seen, memory_order_relaxed))
        atomic_store_explicit(&sampler_indirect_targets_seen, true, memory_order_relaxed);
    observe_value(slots, target, capacity);
    SAMPLER_COUNTDOWN = sampler_countdown_next_preserving();
}
