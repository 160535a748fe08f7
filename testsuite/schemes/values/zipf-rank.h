/* Zipf ranks as a function of a visit's index: visit i has rank r
   (1..RANKS) with probability proportional to r's weight, the choice made
   from a hash of i (splitmix64's finalizer), so that any range of visits
   can be replayed and two ranges make the stream of their union.  Shared
   by testsuite/values/zipf.c and bench/hotlist-cost.c.  */
#ifndef ZIPF_RANK_H
#define ZIPF_RANK_H

#include <stdint.h>

static inline uint64_t zipf_mix(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The rank of visit I, where CUMULATIVE[r] is the sum of the weights of
   ranks 1..r (CUMULATIVE[0] = 0, CUMULATIVE[RANKS] > 0).  */
static inline int zipf_rank(const uint64_t *cumulative, int ranks, uint64_t i)
{
    uint64_t point = zipf_mix(i) % cumulative[ranks];
    int low = 1, high = ranks;
    while (low < high) {
        int middle = (low + high) / 2;
        if (point < cumulative[middle])
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

#endif
