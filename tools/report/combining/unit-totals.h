/* A unit's counters added up over its occurrences, the way the report
   format says, by each site's merge kind (runtime/schemes.def,
   schemes/registry.h): counts are summed; a bounds site's minimum is the
   least and its maximum the greatest of those observed; hot-lists are
   combined as concise samples; path tables path by path.  This needs the
   unit's site table, which says each site's scheme and value kind.  */
#ifndef SAMPLER_REPORT_UNIT_TOTALS_H
#define SAMPLER_REPORT_UNIT_TOTALS_H

#include <stdbool.h>

#include "input/report-reader.h"
#include "input/site-table.h"

struct unit_totals {
    const struct unit_table *table;
    unsigned long long *values;   /* table->n_counters, at each site's first_counter */
    bool *observed;               /* per site: some occurrence had a line for it */
};

void unit_totals_init(struct unit_totals *totals, const struct unit_table *table);

/* Adds one occurrence, which must fit the table (same sizes, and each site
   line with its site's number of counters).  */
void unit_totals_add(struct unit_totals *totals, const struct unit_counts *occurrence);

void unit_totals_free(struct unit_totals *totals);

/* Whether a unit occurrence of REPORT fits TABLE (same sizes, each site
   line with its site's number of counters); D says why not.  A table that
   does not fit comes from another build despite the same signature.  */
bool unit_counts_fit_table(const struct run_report *report, const struct unit_counts *unit,
                           const struct unit_table *table, struct diag *d);

#endif
