#include "schemes/values/hotlist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "support/util.h"

unsigned hot_list_capacity(const struct site *site)
{
    return (site->n_counters - HOT_SLOT_ENTRIES) / 2;
}

static uint64_t splitmix64(uint64_t *seed)
{
    uint64_t z = *seed += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void hot_random_init(struct hot_random *random, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        random->s[i] = splitmix64(&seed);
}

static uint64_t rotate_left(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t random64(struct hot_random *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotate_left(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotate_left(s[3], 45);
    return result;
}

static double uniform(struct hot_random *r)
{
    return (double)(random64(r) >> 11) * 0x1p-53;
}

unsigned long long hot_thin(unsigned long long n, double p, struct hot_random *random)
{
    if (p >= 1)
        return n;
    if (p <= 0 || n == 0)
        return 0;
    int exponent;
    double mantissa = frexp(p, &exponent);
    if (mantissa == 0.5 && exponent > -64 && n <= (1u << 20)) {
        /* P = 2^-d: a unit stays when d random bits are all 1.  */
        unsigned d = (unsigned)(1 - exponent);
        unsigned long long kept = 0;
        while (n > 0) {
            unsigned chunk = n < 64 ? (unsigned)n : 64;
            uint64_t bits = chunk == 64 ? ~UINT64_C(0) : (UINT64_C(1) << chunk) - 1;
            for (unsigned i = 0; i < d && bits; i++)
                bits &= random64(random);
            kept += (unsigned long long)__builtin_popcountll(bits);
            n -= chunk;
        }
        return kept;
    }
    if (n <= (1u << 20)) {
        unsigned long long kept = 0;
        for (unsigned long long i = 0; i < n; i++)
            kept += uniform(random) < p;
        return kept;
    }
    /* Many units: the mean n p, its fraction by a coin.  Unbiased, and
       bounded in time whatever a report says.  */
    double mean = (double)n * p;
    double whole = floor(mean);
    unsigned long long kept = (unsigned long long)whole + (uniform(random) < mean - whole);
    return kept > n ? n : kept;
}

void hot_list_init(struct hot_list *list, unsigned capacity)
{
    memset(list, 0, sizeof *list);
    list->capacity = capacity;
    list->tau = 1;
    list->entries = xcalloc(capacity ? capacity : 1, sizeof *list->entries);
}

void hot_list_free(struct hot_list *list)
{
    free(list->entries);
    memset(list, 0, sizeof *list);
}

/* Adds COUNT units of VALUE (an entry of its own, or added to VALUE's),
   into an array of room for CAPACITY + EXTRA.  */
static void add_units(struct hot_entry *entries, unsigned *n_entries, uint64_t value,
                      unsigned long long count)
{
    if (count == 0)
        return;
    for (unsigned i = 0; i < *n_entries; i++) {
        if (entries[i].value == value) {
            entries[i].count = saturating_add(entries[i].count, count);
            return;
        }
    }
    entries[*n_entries].value = value;
    entries[*n_entries].count = count;
    ++*n_entries;
}

/* Halves every count by coin tosses and drops the emptied entries.  */
static void halve(struct hot_entry *entries, unsigned *n_entries, struct hot_random *random)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < *n_entries; i++) {
        unsigned long long count = hot_thin(entries[i].count, 0.5, random);
        if (count > 0) {
            entries[kept].value = entries[i].value;
            entries[kept].count = count;
            kept++;
        }
    }
    *n_entries = kept;
}

void hot_list_from_slots(struct hot_list *list, const unsigned long long *slots,
                         unsigned capacity, double visits_per_sample)
{
    unsigned long long j = slots[HOT_SLOT_TAU_LOG2];
    if (j > HOT_MAX_TAU_LOG2)
        j = HOT_MAX_TAU_LOG2;
    list->n_entries = 0;
    list->tau = ldexp(visits_per_sample, (int)j);
    list->sampled = slots[HOT_SLOT_SAMPLED];
    list->visits = (double)slots[HOT_SLOT_SAMPLED] * visits_per_sample;
    for (unsigned i = 0; i < capacity; i++)
        add_units(list->entries, &list->n_entries, slots[HOT_SLOT_ENTRIES + 2 * i],
                  slots[HOT_SLOT_ENTRIES + 2 * i + 1]);
}

void hot_list_merge(struct hot_list *into, const struct hot_list *from,
                    struct hot_random *random)
{
    unsigned room = into->capacity + from->n_entries;
    struct hot_entry *merged = xcalloc(room ? room : 1, sizeof *merged);
    unsigned n = 0;
    double tau = into->tau > from->tau ? into->tau : from->tau;
    for (unsigned i = 0; i < into->n_entries; i++)
        add_units(merged, &n, into->entries[i].value,
                  hot_thin(into->entries[i].count, into->tau / tau, random));
    for (unsigned i = 0; i < from->n_entries; i++)
        add_units(merged, &n, from->entries[i].value,
                  hot_thin(from->entries[i].count, from->tau / tau, random));
    while (n > into->capacity) {
        tau *= 2;
        halve(merged, &n, random);
    }
    memcpy(into->entries, merged, n * sizeof *merged);
    free(merged);
    into->n_entries = n;
    into->tau = tau;
    into->visits += from->visits;
    into->sampled = saturating_add(into->sampled, from->sampled);
}

void hot_slots_merge(unsigned long long *into, const unsigned long long *from,
                     unsigned capacity, struct hot_random *random)
{
    struct hot_list a, b;
    hot_list_init(&a, capacity);
    hot_list_init(&b, capacity);
    hot_list_from_slots(&a, into, capacity, 1);
    hot_list_from_slots(&b, from, capacity, 1);
    hot_list_merge(&a, &b, random);
    memset(into, 0, (HOT_SLOT_ENTRIES + 2 * (size_t)capacity) * sizeof *into);
    into[HOT_SLOT_SAMPLED] = a.sampled;
    int j;
    frexp(a.tau, &j);
    into[HOT_SLOT_TAU_LOG2] = (unsigned long long)(j - 1);
    for (unsigned i = 0; i < a.n_entries; i++) {
        into[HOT_SLOT_ENTRIES + 2 * i] = a.entries[i].value;
        into[HOT_SLOT_ENTRIES + 2 * i + 1] = a.entries[i].count;
    }
    hot_list_free(&a);
    hot_list_free(&b);
}

static int by_count(const void *pa, const void *pb)
{
    const struct hot_entry *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->value < b->value ? -1 : a->value > b->value;
}

void hot_list_sort(struct hot_list *list)
{
    qsort(list->entries, list->n_entries, sizeof *list->entries, by_count);
}

unsigned long long hot_list_size(const struct hot_list *list)
{
    unsigned long long size = 0;
    for (unsigned i = 0; i < list->n_entries; i++)
        size = saturating_add(size, list->entries[i].count);
    return size;
}

void hot_list_estimate(const struct hot_list *list, unsigned i, double confidence,
                       struct hot_estimate *e)
{
    double alpha = 1 - confidence;
    double c = (double)list->entries[i].count;
    double n = (double)hot_list_size(list);
    e->visits = c * list->tau;
    double z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2);
    if (list->tau == 1) {
        e->visits_low = e->visits_high = e->visits;
    } else {
        /* The score interval for a Poisson mean: the means m with
           |c - m| <= z sqrt(m).  */
        double centre = c + z * z / 2, half = z * sqrt(c + z * z / 4);
        e->visits_low = (centre - half > 0 ? centre - half : 0) * list->tau;
        e->visits_high = (centre + half) * list->tau;
    }
    if (n <= 0) {
        e->share = e->share_low = 0;
        e->share_high = 1;
        return;
    }
    double p = c / n;
    if (list->tau == 1) {
        /* Every visit is in the list: the share is exact.  */
        e->share = e->share_low = e->share_high = p;
        return;
    }
    double denominator = 1 + z * z / n;
    double centre = (p + z * z / (2 * n)) / denominator;
    double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator;
    e->share = p;
    e->share_low = centre - half < 0 ? 0 : centre - half;
    e->share_high = centre + half > 1 ? 1 : centre + half;
}
