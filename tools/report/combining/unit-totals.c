#include "combining/unit-totals.h"

#include <stdlib.h>
#include <string.h>

#include "schemes/registry.h"
#include "support/util.h"

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

void unit_totals_add(struct unit_totals *totals, const struct unit_counts *occurrence)
{
    for (size_t i = 0; i < occurrence->n_observed; i++) {
        const struct site_counts *counts = &occurrence->sites[i];
        const struct site *site = &totals->table->sites[counts->site];
        totals->observed[counts->site] = true;
        site_combine(site, totals->values + site->first_counter, counts->values);
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
