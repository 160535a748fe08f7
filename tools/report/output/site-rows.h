/* `show''s rows: a run's observed sites as a text table, CSV or JSON
   lines.  */
#ifndef SAMPLER_REPORT_SITE_ROWS_H
#define SAMPLER_REPORT_SITE_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "input/report-reader.h"
#include "input/site-table.h"
#include "output/formats.h"

/* One site of one unit of a run, with its counts.  */
struct site_row {
    const struct unit_counts *unit;       /* the report's unit */
    const struct site *site;              /* NULL: the unit's site table is unknown */
    unsigned site_index;
    unsigned n_values;
    const unsigned long long *values;     /* n_values; NULL: all zero */
};

/* Writes the run's metadata and ROWS, in the given order.  A file of
   several reports is written one report after the other, FIRST_REPORT
   set for the first (CSV has one header line for all).  SYMBOLS gives the
   CSV a last column, each site's function's symbol (site_catalog_has_symbols).  */
void write_rows(FILE *out, enum output_format format, const struct run_report *report,
                const struct site_row *rows, size_t n_rows, bool first_report, bool symbols);

#endif
