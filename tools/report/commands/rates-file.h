/* Writing rates files (docs/rates.md, "The rates file"), shared by
   `sampler-report rates' and `sampler-report plan'.  */
#ifndef SAMPLER_REPORT_RATES_FILE_H
#define SAMPLER_REPORT_RATES_FILE_H

#include <stdio.h>

#include "input/site-table.h"

/* The greatest weight whose rate, at mean countdown MEAN (sparsity times
   unit), is at most RATE (1 - (1 - 1/mean)^w <= rate), so that a budget
   holds; at least 1.  A RATE of 1 or more is every visit, as nearly as a
   weight can be.  */
unsigned rates_weight_for(double rate, double mean);

/* The order of a rates file's records: source, file, function, line,
   then the site's number.  */
int rates_compare_places(const struct unit_table *table_a, const struct site *a,
                         const struct unit_table *table_b, const struct site *b);

/* One `site' record: SITE of the unit TABLE at WEIGHT.  */
void rates_write_site(FILE *out, unsigned weight, const struct unit_table *table,
                      const struct site *site);

#endif
