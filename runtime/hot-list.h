/* Concise samples (Gibbons and Matias, SIGMOD 1998): the hot-list that
   the values scheme keeps per site (runtime/schemes/values.c) and the
   subpaths scheme per thread (runtime/schemes/subpaths/).  One
   implementation: docs/values.md has the algorithm and its analysis.

   A list of capacity K is 3 + 2K slots:

     [0]  sampled    every observation offered to it, exactly (an atomic add)
     [1]  tau-log2   j: the threshold tau is 2^j (0 <= j <= 63)
     [2]  lock       0, or the owner's tag while a thread updates the list
     [3 + 2i], [4 + 2i]   entry i: a value and its count (count 0: free)

   An observed value enters the list with probability 1/tau: if it is
   there its count grows by one, else it takes a free entry with count 1.
   A value's entries are searched in one fixed order, from its home entry
   (a hash of the value) on round the list, so that a value usually sits
   at its home and is found at the first comparison.  The lookup compares
   values only: a free entry (count 0) keeps the value it had, and the
   first entry in the value's order holding it counts it, free or not.  A
   value is stored only where no entry holds it, so no value is in two
   entries, and the lookup of a value in the list stops at its entry (the
   list starts as K free entries holding 0: the first of them in 0's order
   counts 0).  A new value takes the first free entry in its order.
   With no free entry, the new value is a (K+1)-th entry of count 1, tau
   doubles and every unit of every count is kept with probability 1/2 (a
   binomial draw per entry), until some entry has left or the new value
   has: each unit of a value's observations is then in the list with
   probability 1/tau, independently, which is what makes count * tau an
   unbiased estimate of its observations.  (Counts above
   HALVED_BY_COINS_MAX are halved exactly but for the odd unit: the same
   mean, less variance, and a bounded cost.)

   A list may keep more per entry than its slots (subpaths: the blocks of
   the subpath whose hash is the value).  Its CLAIM hook is then asked,
   under the lock, whenever an entry takes a value with count 0 -> 1; a
   claim that fails (no room for the blocks) is handled as a full list.

   Updates of the list take its lock (never the fast path: only a sampled
   visit gets here).  A visit that finds its own thread holding the lock
   (a signal handler interrupting an update of the same list) is counted
   in slot 0 and leaves the list alone rather than deadlock.  The slots
   are plain memory the report writes as they are; a report written
   during an update (a crash) holds the list as it was then, every entry a
   value and a count.  Zeroing the slots (fork's child, sampler_reset)
   empties the list and frees the lock.

   Coin tosses come from the thread's own generator, the one its
   countdowns come from.  Everything here is integer code, callable from
   the preserving sample functions.  */
#ifndef SAMPLER_HOTLIST_H
#define SAMPLER_HOTLIST_H

#include "sample.h"

enum { HOT_SAMPLED, HOT_TAU_LOG2, HOT_LOCK, HOT_ENTRIES };
#define HOT_MAX_TAU_LOG2 63

typedef _Atomic unsigned long long hot_atomic_slot;

#define HOT_SLOT(slots, i) ((hot_atomic_slot *)&(slots)[i])
#define HOT_LOAD(slots, i) \
    atomic_load_explicit(HOT_SLOT(slots, i), memory_order_relaxed)
#define HOT_STORE(slots, i, v) \
    atomic_store_explicit(HOT_SLOT(slots, i), (v), memory_order_relaxed)
#define HOT_VALUE(i) (HOT_ENTRIES + 2 * (i))
#define HOT_COUNT(i) (HOT_ENTRIES + 2 * (i) + 1)

/* The calling thread's tag in the lock word, never 0: its thread pointer
   (one instruction on x86-64), or the address of one of its thread-local
   variables.  */
#if defined(__x86_64__)
#define HOT_THREAD_TAG ((unsigned long long)(uintptr_t)__builtin_thread_pointer())
#else
#define HOT_THREAD_TAG ((unsigned long long)(uintptr_t)&sampler_thread_stream)
#endif

/* Counts above this are halved exactly, but for a coin for an odd unit.  */
#define HALVED_BY_COINS_MAX 4096

/* Called under the lock when entry ENTRY is to take a value with count 1;
   false: it cannot now (the list is then thinned as a full one).  */
typedef bool (*hot_claim_hook)(void *context, unsigned long entry);

/* Bits set in X (no popcnt instruction assumed; no library call).  */
static inline SAMPLER_PRESERVING unsigned hot_bits_set(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* N units thinned by one half: up to HALVED_BY_COINS_MAX, each kept by a
   fair coin (binomial, 64 coins per random word); above, N / 2 and a coin
   for the odd unit, which has the same mean and keeps a thinning of a
   long-lived list from taking millions of coins under the lock.  */
static inline SAMPLER_PRESERVING unsigned long long hot_halved(unsigned long long n)
{
    unsigned long long kept = 0;

    if (n > HALVED_BY_COINS_MAX)
        return n / 2 + ((n & 1) && sampler_thread_coin(1));
    for (; n >= 64; n -= 64)
        kept += hot_bits_set(sampler_thread_random64());
    if (n > 0)
        kept += hot_bits_set(sampler_thread_random64() & ((UINT64_C(1) << n) - 1));
    return kept;
}

/* Takes the list's lock; false if the calling thread holds it already.
   While the process has one thread (see bump in sample.h), no other
   thread can hold the lock or take it meanwhile: only a signal handler on
   this thread can, and it releases it before the interrupted code goes
   on.  So a plain load and store take it then, without a locked
   compare-and-swap, which would wait for the pending stores (slot 0's,
   to a line that is seldom in cache) before the list's loads could
   start.  */
static inline SAMPLER_PRESERVING bool hot_lock(unsigned long long *slots)
{
    unsigned long long me = HOT_THREAD_TAG;

#ifdef SAMPLER_SINGLE_THREADED_BUMP
    if (__builtin_expect(__libc_single_threaded, 1)) {
        if (HOT_LOAD(slots, HOT_LOCK) == me)
            return false;
        HOT_STORE(slots, HOT_LOCK, me);
        /* The list's accesses stay after the store, for a handler.  */
        atomic_signal_fence(memory_order_seq_cst);
        return true;
    }
#endif
    for (;;) {
        unsigned long long owner = 0;
        if (atomic_compare_exchange_weak_explicit(HOT_SLOT(slots, HOT_LOCK), &owner, me,
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

static inline SAMPLER_PRESERVING void hot_unlock(unsigned long long *slots)
{
    atomic_store_explicit(HOT_SLOT(slots, HOT_LOCK), 0, memory_order_release);
}

/* The entry where the search for VALUE starts in a list of CAPACITY
   entries: Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4), the high bits of
   VALUE times 2^64 / golden ratio, scaled to [0, CAPACITY).  Values that
   differ in any bits (small integers, aligned pointers) spread out.  */
static inline SAMPLER_PRESERVING unsigned long
hot_home(unsigned long long value, unsigned long capacity)
{
    unsigned long long high = (value * UINT64_C(0x9e3779b97f4a7c15)) >> 32;
    return (unsigned long)((high * capacity) >> 32);
}

/* A coin of 2^-J out of line, for the rare toss of a visit that found tau
   raised by another thread between its toss and the lock.  */
static __attribute__((noinline, unused)) SAMPLER_PRESERVING bool hot_coin_out_of_line(unsigned j)
{
    return sampler_thread_coin(j);
}

/* VALUE, held by no entry with a count (HOLDER: the free entry that holds
   it, or -1), is to enter a list whose tau is 2^J: into HOLDER, or the
   first free entry, if CLAIM lets it; else tau doubles and every count is
   thinned, the value's own unit too, until it enters or its unit is gone
   (or tau is at its greatest: then it is dropped).  The free entry is the
   first in the value's order from its home HOME.  Under the lock.
   Returns the entry it entered, or -1.  Out of line, as the rarer case (a
   value seen for the first time since it last left), so that the common
   ones save fewer registers: a preserving function saves every register
   it uses, and a call to another preserving one clobbers none.  */
static __attribute__((noinline, unused)) SAMPLER_PRESERVING long
hot_enter(unsigned long long *slots, unsigned long long value, unsigned long capacity,
          unsigned long home, long holder, unsigned j, hot_claim_hook claim,
          void *context)
{
    unsigned long long pending = 1;

    for (;;) {
        long entry = holder;
        for (unsigned long n = 0, i = home; n < capacity && entry < 0; n++) {
            if (HOT_LOAD(slots, HOT_COUNT(i)) == 0)
                entry = (long)i;
            if (++i == capacity)
                i = 0;
        }
        if (entry >= 0 && (claim == NULL || claim(context, (unsigned long)entry))) {
            HOT_STORE(slots, HOT_VALUE(entry), value);
            HOT_STORE(slots, HOT_COUNT(entry), pending);
            return entry;
        }
        if (j >= HOT_MAX_TAU_LOG2)
            return -1;
        j++;
        for (unsigned long i = 0; i < capacity; i++)
            HOT_STORE(slots, HOT_COUNT(i), hot_halved(HOT_LOAD(slots, HOT_COUNT(i))));
        pending = hot_halved(pending);
        HOT_STORE(slots, HOT_TAU_LOG2, j);
        if (pending == 0)
            return -1;
    }
}

/* Offers one observation of VALUE to a list of CAPACITY entries.  Returns
   the entry that counted it, or -1 (its coin did not come up, or it was
   dropped, or the list was busy in this thread).  *ENTERED says whether
   the entry took the value with count 1.  CLAIM, if not NULL, is asked
   before an entry takes the value; without it, a free entry that holds
   VALUE counts it as one with a count does, without a call.  SAME, if not
   NULL, is asked before an entry that holds VALUE with a count counts it:
   false (a hash collision, for subpaths) drops the observation.  One
   function, inline: a call out of line would make the visits whose coin
   did not come up save as many registers as the others.  */
static inline __attribute__((always_inline)) SAMPLER_PRESERVING long
hot_observe(unsigned long long *slots, unsigned long capacity, unsigned long long value,
            hot_claim_hook claim, hot_claim_hook same, void *context, bool *entered)
{
    *entered = false;
    bump(slots, HOT_SAMPLED);
    unsigned j = (unsigned)HOT_LOAD(slots, HOT_TAU_LOG2);
    if (j > 0 && !sampler_thread_coin(j))
        return -1;
    if (!hot_lock(slots))
        return -1;
    /* Tau may have grown since the toss: toss for the difference.  */
    unsigned now = (unsigned)HOT_LOAD(slots, HOT_TAU_LOG2);
    if (__builtin_expect(now > j, 0) && !hot_coin_out_of_line(now - j)) {
        hot_unlock(slots);
        return -1;
    }
    unsigned long home = hot_home(value, capacity);
    long holder = -1;
    unsigned long i = home;
    do {
        if (HOT_LOAD(slots, HOT_VALUE(i)) == value) {
            unsigned long long count = HOT_LOAD(slots, HOT_COUNT(i));
            if (claim == NULL || count > 0) {
                if (same != NULL && count > 0 && !same(context, i)) {
                    hot_unlock(slots);
                    return -1;
                }
                HOT_STORE(slots, HOT_COUNT(i), count + 1);
                *entered = count == 0;
                hot_unlock(slots);
                return (long)i;
            }
            holder = (long)i;
            break;
        }
        if (++i == capacity)
            i = 0;
    } while (i != home);
    long entry = hot_enter(slots, value, capacity, home, holder, now, claim, context);
    *entered = entry >= 0;
    hot_unlock(slots);
    return entry;
}

#endif
