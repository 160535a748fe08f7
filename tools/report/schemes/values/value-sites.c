/* The sites of the values, sizes and indirect-calls schemes: hot-lists of
   the values a site saw (merge kind HOT_LIST; hotlist.h), of assignments
   and call results, of the sizes given to memory and allocation calls, of
   the targets of calls through pointers.  A site's values are no
   predicates: they differ from run to run, and rank needs a fixed set
   (docs/values.md).  `sampler-report values' shows them (values.c).  */
#include "schemes/registry.h"
#include "schemes/values/hotlist.h"

/* "x (signed)", "f (...) (unsigned)", "p (pointer)": signed values read
   as signed, the others as unsigned.  The slots are 3 + 2K: sampled,
   tau-log2, lock, then K (value, count) pairs.  */
static bool hot_list_read_site(const struct record_reader *reader, struct site *site,
                               struct diag *d)
{
    static const struct kind_suffix kinds[] = {
        { "(signed)", BOUND_SIGNED },
        { "(unsigned)", BOUND_UNSIGNED },
        { "(pointer)", BOUND_UNSIGNED },
    };
    if (site->n_counters < HOT_SLOT_ENTRIES + 2
        || (site->n_counters - HOT_SLOT_ENTRIES) % 2 != 0)
        return record_fail(reader, d,
                           "%s site %u has %u counters; a hot-list of K values has "
                           "3 + 2K, K >= 1",
                           scheme_name(site->scheme), site->index, site->n_counters);
    return read_kind_suffix(reader, site, kinds, sizeof kinds / sizeof kinds[0], d);
}

static void combine_hot_lists(const struct site *site, unsigned long long *total,
                              const unsigned long long *from)
{
    /* Thinning by a fixed seed, so that a merge repeats.  */
    static struct hot_random random;
    static bool seeded;
    if (!seeded) {
        hot_random_init(&random, HOT_RANDOM_SEED);
        seeded = true;
    }
    hot_slots_merge(total, from, hot_list_capacity(site), &random);
}

static bool hot_list_observed(const struct site *site, const unsigned long long *values)
{
    (void) site;
    return values[HOT_SLOT_SAMPLED] != 0;
}

static double hot_list_samples(const struct site *site, const unsigned long long *values)
{
    (void) site;
    return (double) values[HOT_SLOT_SAMPLED];
}

static bool hot_slot_is_value(const struct site *site, unsigned c)
{
    (void) site;
    return c >= HOT_SLOT_ENTRIES && (c - HOT_SLOT_ENTRIES) % 2 == 0;
}

/* The entries' counts are units of the concise sample, not visits.  */
static bool hot_slot_counts_visits(const struct site *site, unsigned c)
{
    (void) site;
    return c == HOT_SLOT_SAMPLED;
}

const struct merge_kind_report MERGE_KIND_REPORT(HOT_LIST) = {
    .read_site = hot_list_read_site,
    .combine = combine_hot_lists,
    .observed = hot_list_observed,
    .samples = hot_list_samples,
    .slot_is_value = hot_slot_is_value,
    .slot_counts_visits = hot_slot_counts_visits,
};

const struct scheme_report SCHEME_REPORT(VALUES) = { .profile = true };
const struct scheme_report SCHEME_REPORT(SIZES) = { .profile = true };
/* `sampler-report values' shows indirect-calls' targets by function name.  */
const struct scheme_report SCHEME_REPORT(INDIRECT_CALLS) = {
    .profile = true,
    .values_are_functions = true,
};
