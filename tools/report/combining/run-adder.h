/* One run's units added up against a catalog of site tables: each unit's
   occurrences summed by merge kind (combining/unit-totals.h), checked to fit its table,
   and the sites that had a line listed in order.  run_set_visit adds each
   run of its inputs this way; the collector (tools/collect/) each report
   that arrives.  The adder's memory is reused from run to run.  */
#ifndef SAMPLER_REPORT_RUN_ADDER_H
#define SAMPLER_REPORT_RUN_ADDER_H

#include <stdbool.h>
#include <stddef.h>

#include "combining/unit-totals.h"
#include "input/report-reader.h"
#include "input/site-table.h"
#include "support/util.h"

/* One unit of a run, its occurrences added up.  */
struct run_unit {
    size_t catalog_index;              /* its table's position in the catalog */
    const struct unit_totals *totals;
    const unsigned *sites;             /* the sites with a line in the report, ascending */
    size_t n_sites;
};

struct run_adder {
    const struct site_catalog *catalog;
    /* Per catalog unit.  */
    struct unit_totals *totals;
    unsigned **touched;                /* sites with a line in the current run */
    size_t *n_touched;
    size_t *touched_capacity;
    /* The current run's units, in report order.  */
    struct run_unit *units;
    size_t n_units, units_capacity;
};

/* An adder for runs of CATALOG's units, which must outlive it.  */
void run_adder_init(struct run_adder *adder, const struct site_catalog *catalog);

/* Adds up REPORT's units into ADDER->units (n_units): false, with D
   saying why, when a unit has no table in the catalog or does not fit
   its table.  Call run_adder_clear before the next run, whatever the
   answer.  */
bool run_adder_add(struct run_adder *adder, const struct run_report *report, struct diag *d);

/* Zeroes what the last run added.  */
void run_adder_clear(struct run_adder *adder);

void run_adder_free(struct run_adder *adder);

#endif
