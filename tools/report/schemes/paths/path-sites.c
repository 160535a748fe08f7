/* The sites of the paths scheme: a function's Ball-Larus path profile
   (merge kind PATH_TABLE; pathtable.h).  A function's paths are no
   predicates of their own: they differ from run to run, and rank needs a
   fixed set.  `sampler-report paths' shows them (paths.c, docs/paths.md).  */
#include "schemes/paths/pathtable.h"
#include "schemes/registry.h"

/* The slots are 2 + 2K: sampled, lost, then K (path + 1, count) pairs.  */
static bool path_table_read_site(const struct record_reader *reader, struct site *site,
                                 struct diag *d)
{
    if (site->n_counters < PATH_SLOT_PAIRS + 2
        || (site->n_counters - PATH_SLOT_PAIRS) % 2 != 0)
        return record_fail(reader, d,
                           "%s site %u has %u counters; a table of K paths has "
                           "2 + 2K, K >= 1",
                           scheme_name(site->scheme), site->index, site->n_counters);
    return true;
}

static void combine_path_tables(const struct site *site, unsigned long long *total,
                                const unsigned long long *from)
{
    path_slots_merge(total, from, path_table_capacity(site));
}

static bool path_table_observed(const struct site *site, const unsigned long long *values)
{
    (void) site;
    return values[PATH_SLOT_SAMPLED] != 0;
}

/* The sampled visits and the slots counting them are taken as ADD's: the
   sum of every slot, every slot.  */
const struct merge_kind_report MERGE_KIND_REPORT(PATH_TABLE) = {
    .read_site = path_table_read_site,
    .combine = combine_path_tables,
    .observed = path_table_observed,
    .samples = counters_sum,
    .slot_is_value = no_slot_is_value,
    .slot_counts_visits = every_slot_counts_visits,
};

const struct scheme_report SCHEME_REPORT(PATHS) = { .profile = true };
