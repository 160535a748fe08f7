#include "combining/unit-totals.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schemes/values/hotlist.h"
#include "schemes/paths/pathtable.h"
#include "schemes/registry.h"
#include "support/util.h"

/* The runtime writes this count for a MIN_MAX site (bounds) whose first
   observation was under way when the report was written: it means 0.  */
#define BOUND_COUNT_IN_PROGRESS UINT64_MAX

void unit_totals_init(struct unit_totals *totals, const struct unit_table *table)
{
    totals->table = table;
    totals->values = xcalloc(table->n_counters, sizeof *totals->values);
    totals->observed = xcalloc(table->n_sites, sizeof *totals->observed);
}

void unit_totals_free(struct unit_totals *totals)
{
    free(totals->values);
    free(totals->observed);
    memset(totals, 0, sizeof *totals);
}

static unsigned long long saturating_add(unsigned long long a, unsigned long long b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static double bits_to_double(uint64_t bits)
{
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static int64_t bits_to_signed(uint64_t bits)
{
    int64_t value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* Whether A is below B.  For doubles, as the runtime orders them: -0 is
   below +0, and a NaN (kept only when nothing else was seen) loses to any
   number.  */
static bool bound_below(enum bound_kind kind, uint64_t a, uint64_t b)
{
    switch (kind) {
    case BOUND_SIGNED:
        return bits_to_signed(a) < bits_to_signed(b);
    case BOUND_DOUBLE: {
        double x = bits_to_double(a), y = bits_to_double(b);
        if (isnan(x) || isnan(y))
            return false;
        if (x == 0 && y == 0)
            return signbit(x) && !signbit(y);
        return x < y;
    }
    case BOUND_UNSIGNED:
    case BOUND_NONE:
        break;
    }
    return a < b;
}

/* Whether CANDIDATE should replace CURRENT as the minimum (LOWEST) or the
   maximum.  */
static bool bound_better(enum bound_kind kind, uint64_t candidate, uint64_t current,
                         bool lowest)
{
    if (kind == BOUND_DOUBLE && isnan(bits_to_double(current)))
        return !isnan(bits_to_double(candidate));
    return lowest ? bound_below(kind, candidate, current) : bound_below(kind, current, candidate);
}

/* Merge kind MIN_MAX: counts added, the least minimum and the greatest
   maximum, by the site's value kind.  */
static void merge_min_max(const struct site *site, unsigned long long *total,
                          const unsigned long long *values)
{
    unsigned long long count = values[MIN_MAX_SLOT_COUNT];
    if (count == BOUND_COUNT_IN_PROGRESS || count == 0)
        return;
    if (total[MIN_MAX_SLOT_COUNT] == 0) {
        total[MIN_MAX_SLOT_MIN] = values[MIN_MAX_SLOT_MIN];
        total[MIN_MAX_SLOT_MAX] = values[MIN_MAX_SLOT_MAX];
    } else {
        if (bound_better(site->bound_kind, values[MIN_MAX_SLOT_MIN], total[MIN_MAX_SLOT_MIN], true))
            total[MIN_MAX_SLOT_MIN] = values[MIN_MAX_SLOT_MIN];
        if (bound_better(site->bound_kind, values[MIN_MAX_SLOT_MAX], total[MIN_MAX_SLOT_MAX], false))
            total[MIN_MAX_SLOT_MAX] = values[MIN_MAX_SLOT_MAX];
    }
    total[MIN_MAX_SLOT_COUNT] = saturating_add(total[MIN_MAX_SLOT_COUNT], count);
}

/* Merge kind ADD.  */
static void merge_add(const struct site *site, unsigned long long *total,
                      const unsigned long long *values)
{
    for (unsigned c = 0; c < site->n_counters; c++)
        total[c] = saturating_add(total[c], values[c]);
}

void unit_totals_add(struct unit_totals *totals, const struct unit_counts *occurrence)
{
    for (size_t i = 0; i < occurrence->n_observed; i++) {
        const struct site_counts *counts = &occurrence->sites[i];
        const struct site *site = &totals->table->sites[counts->site];
        unsigned long long *total = totals->values + site->first_counter;
        totals->observed[counts->site] = true;
        switch (scheme_infos[site->scheme].merge) {
        case SAMPLER_MERGE_ADD:
            merge_add(site, total, counts->values);
            break;
        case SAMPLER_MERGE_MIN_MAX:
            merge_min_max(site, total, counts->values);
            break;
        case SAMPLER_MERGE_HOT_LIST: {
            /* Thinning by a fixed seed, so that a merge repeats.  */
            static struct hot_random random;
            static bool seeded;
            if (!seeded) {
                hot_random_init(&random, HOT_RANDOM_SEED);
                seeded = true;
            }
            hot_slots_merge(total, counts->values, hot_list_capacity(site), &random);
            break;
        }
        case SAMPLER_MERGE_PATH_TABLE:
            path_slots_merge(total, counts->values, path_table_capacity(site));
            break;
        case SAMPLER_N_MERGE_KINDS:
            abort();
        }
    }
}

/* A table that does not fit a report's counts is an error: the two come
   from different builds despite the same signature.  */
bool unit_counts_fit_table(const struct run_report *report, const struct unit_counts *unit,
                           const struct unit_table *table, struct diag *d)
{
    if (table->n_sites != unit->n_sites || table->n_counters != unit->n_counters)
        return diag_fail(d, "%s:%lu: unit %s has %u sites and %u counters, but its site "
                         "table at %s:%lu has %u sites and %u counters",
                         report->path, unit->line_number, unit->signature, unit->n_sites,
                         unit->n_counters, table->origin, table->line_number,
                         table->n_sites, table->n_counters);
    for (size_t i = 0; i < unit->n_observed; i++) {
        const struct site_counts *counts = &unit->sites[i];
        const struct site *site = &table->sites[counts->site];
        if (counts->n_values != site->n_counters)
            return diag_fail(d, "%s:%lu: site %u of unit %s has %u counters, its site "
                             "table has %u",
                             report->path, counts->line_number, counts->site,
                             unit->signature, counts->n_values, site->n_counters);
    }
    return true;
}
