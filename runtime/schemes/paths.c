/* paths: the count of each sampled Ball-Larus path of a function's regions
   (Ball and Larus, MICRO 1996; plugin/schemes/paths.cc numbers them).

   A function's slots, for its capacity K (2 + 2K of them):

     [0]  sampled    every sampled traversal (an atomic add)
     [1]  lost       sampled traversals whose path found no pair
     [2 + 2i], [3 + 2i]   pair i: path number + 1 (0: free) and its count

   A function with at most K paths counts path P in pair P (an array: the
   plugin says so with IN_ARRAY).  Otherwise the pairs are a hash table:
   path P starts at a pair its number hashes to and goes on, wrapping, to
   the pair that holds P + 1 or the first free one, which it claims with a
   compare-and-swap; with every pair taken by other paths, the traversal
   counts as lost.  A pair, once claimed, keeps its path, so no path is in
   two pairs, and a report written at any moment reads every pair as a
   path and a count.  Integer code only: the sample function is
   preserving.  */
#include "sample.h"
#include "schemes.h"

typedef _Atomic unsigned long long atomic_slot;

#define SLOT(slots, i) ((atomic_slot *)&(slots)[i])

enum { PATHS_SAMPLED, PATHS_LOST, PATHS_PAIRS };

/* The pair of KEY (a path + 1) among pairs FIRST .. END-1, a hash table,
   claimed if it has none yet; END when every one is another path's.  */
static SAMPLER_PRESERVING unsigned long hash_pair(unsigned long long *slots,
                                                  unsigned long long key,
                                                  unsigned long first, unsigned long end)
{
    unsigned long size = end - first;
    unsigned long start =
        (unsigned long)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) % size;
    for (unsigned long probe = 0; probe < size; probe++) {
        unsigned long at = first + (start + probe) % size;
        atomic_slot *slot = SLOT(slots, PATHS_PAIRS + 2 * at);
        unsigned long long held = atomic_load_explicit(slot, memory_order_relaxed);
        if (held == 0) {
            unsigned long long expected = 0;
            if (atomic_compare_exchange_strong_explicit(slot, &expected, key,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed))
                held = key;
            else
                held = expected;
        }
        if (held == key)
            return at;
    }
    return end;
}

static SAMPLER_PRESERVING void observe_path(unsigned long long *slots,
                                            unsigned long long path,
                                            unsigned long capacity,
                                            unsigned long in_array)
{
    bump(slots, PATHS_SAMPLED);
    unsigned long long key = path + 1;
    unsigned long pair = capacity;
    if (capacity == 0 || key == 0) {
        /* No pair can hold it.  */
    } else if (in_array) {
        if (path < capacity) {
            pair = (unsigned long)path;
            atomic_store_explicit(SLOT(slots, PATHS_PAIRS + 2 * pair), key,
                                  memory_order_relaxed);
        }
    } else {
        pair = hash_pair(slots, key, 0, capacity);
    }
    if (pair < capacity)
        bump(slots, PATHS_PAIRS + 2 * pair + 1);
    else
        bump(slots, PATHS_LOST);
}

/* Preferential numbering (Vaswani, Nori and Chilimbi, POPL 2007): TABLE
   is { capacity, range, then per number below range the Ball-Larus number
   + 1 of the interesting path numbered so, or 0 }.  A traversal whose
   preferential number PREFERRED is one of those and whose Ball-Larus
   number PATH is that path's counts in pair PREFERRED; any other (an
   uninteresting path, which may share an interesting one's preferential
   number) in the pairs from range on, a hash table by its Ball-Larus
   number.  Every pair holds a Ball-Larus number + 1, as without.  */
static SAMPLER_PRESERVING void observe_preferred_path(unsigned long long *slots,
                                                      unsigned long long preferred,
                                                      unsigned long long path,
                                                      const unsigned long long *table)
{
    unsigned long capacity = (unsigned long)table[0], range = (unsigned long)table[1];
    unsigned long long key = path + 1;
    unsigned long pair = capacity;
    bump(slots, PATHS_SAMPLED);
    if (preferred < range && table[2 + preferred] == key) {
        pair = (unsigned long)preferred;
        atomic_store_explicit(SLOT(slots, PATHS_PAIRS + 2 * pair), key, memory_order_relaxed);
    } else if (range < capacity && key != 0) {
        pair = hash_pair(slots, key, range, capacity);
    }
    if (pair < capacity)
        bump(slots, PATHS_PAIRS + 2 * pair + 1);
    else
        bump(slots, PATHS_LOST);
}

SAMPLER_EXPORT void __sampler_observe_preferred_path(unsigned long long *slots,
                                                     unsigned long long preferred,
                                                     unsigned long long path,
                                                     const unsigned long long *table)
{
    observe_preferred_path(slots, preferred, path, table);
}

SAMPLER_EXPORT void __sampler_observe_path(unsigned long long *slots, unsigned long long path,
                                           unsigned long capacity, unsigned long in_array)
{
    observe_path(slots, path, capacity, in_array);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void __sampler_path(unsigned long long *slots,
                                                      unsigned long long path,
                                                      unsigned long capacity,
                                                      unsigned long in_array)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    observe_path(slots, path, capacity, in_array);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

SAMPLER_EXPORT SAMPLER_PRESERVING void __sampler_path_preferred(unsigned long long *slots,
                                                                unsigned long long preferred,
                                                                unsigned long long path,
                                                                const unsigned long long *table)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    observe_preferred_path(slots, preferred, path, table);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(PATHS) = { 0 };
