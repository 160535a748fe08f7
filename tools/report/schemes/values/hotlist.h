/* Hot-lists of values sites (merge kind HOT_LIST): a concise sample
   (Gibbons and Matias, SIGMOD 1998) of a site's sampled visits, as the
   runtime keeps it (runtime/schemes/values.c), read from a site's slots
   and combined over occurrences and runs, and the estimates and
   intervals sampler-report values gives (docs/values.md).  */
#ifndef SAMPLER_REPORT_HOTLIST_H
#define SAMPLER_REPORT_HOTLIST_H

#include <stdbool.h>
#include <stdint.h>

#include "input/site-table.h"

/* A site's slots: sampled visits, log2 of tau, the lock word, then
   (value, count) pairs.  */
enum { HOT_SLOT_SAMPLED, HOT_SLOT_TAU_LOG2, HOT_SLOT_LOCK, HOT_SLOT_ENTRIES };
#define HOT_MAX_TAU_LOG2 63

/* The capacity of a values site (its number of (value, count) pairs).  */
unsigned hot_list_capacity(const struct site *site);

struct hot_entry {
    uint64_t value;
    unsigned long long count;
};

/* A concise sample of a site's visits: each visit is in it (as a unit of
   its value's count) with probability 1/tau, independently.  */
struct hot_list {
    unsigned capacity;
    double tau;                    /* visits per unit: 2^j / the site's rate */
    double visits;                 /* estimated visits: sampled / rate, summed */
    unsigned long long sampled;    /* sampled visits, summed over runs */
    unsigned n_entries;
    struct hot_entry *entries;     /* capacity of them */
};

/* The generator of the tool's coin tosses (xoshiro256**), seeded with a
   fixed seed, so that a merge repeats.  */
struct hot_random {
    uint64_t s[4];
};
void hot_random_init(struct hot_random *random, uint64_t seed);
#define HOT_RANDOM_SEED UINT64_C(0x73616d706c6572)   /* "sampler" */

void hot_list_init(struct hot_list *list, unsigned capacity);
void hot_list_free(struct hot_list *list);

/* LIST from a site's slots in a report where the site's visits were
   sampled with probability 1 / VISITS_PER_SAMPLE (the sparsity, for a site
   of default weight).  Entries of count 0 are free; entries with the same
   value (a report written during an update) are added.  */
void hot_list_from_slots(struct hot_list *list, const unsigned long long *slots,
                         unsigned capacity, double visits_per_sample);

/* Adds FROM into INTO: the one with the smaller tau is thinned to the
   larger (each unit kept with probability tau_small / tau_large), counts
   of one value added, and while more than the capacity remain, tau doubles
   and every count is halved by coin tosses.  */
void hot_list_merge(struct hot_list *into, const struct hot_list *from,
                    struct hot_random *random);

/* Adds the slots FROM into the slots INTO of a site of CAPACITY entries,
   both of one run (one sparsity), as hot_list_merge does.  */
void hot_slots_merge(unsigned long long *into, const unsigned long long *from,
                     unsigned capacity, struct hot_random *random);

/* Sorts the entries by count, largest first (ties by value).  */
void hot_list_sort(struct hot_list *list);

/* Units in the list.  */
unsigned long long hot_list_size(const struct hot_list *list);

/* A value's estimated visits and share, with intervals of level
   CONFIDENCE: visits from the score interval for a Poisson mean on its
   count, scaled by tau; share from the Wilson (score) interval on its
   count out of the list's size.  With tau 1 every visit is in the list:
   both are exact, intervals without width.  */
struct hot_estimate {
    double visits, visits_low, visits_high;
    double share, share_low, share_high;
};
void hot_list_estimate(const struct hot_list *list, unsigned i, double confidence,
                       struct hot_estimate *estimate);

/* N units thinned to probability P: Binomial(N, P) by coin tosses up to
   2^20 units (random bits for P a power of 1/2, else one uniform per
   unit); beyond, N P with its fraction by a coin (the same mean, bounded
   time).  */
unsigned long long hot_thin(unsigned long long n, double p, struct hot_random *random);

#endif
