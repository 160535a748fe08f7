/* Writing an aggregate (the format is in input/run-stream.h): the site
   tables of its units, then its runs one at a time, each a report whose
   units are added up.  */
#ifndef SAMPLER_REPORT_AGGREGATE_WRITER_H
#define SAMPLER_REPORT_AGGREGATE_WRITER_H

#include <stdio.h>

#include "combining/run-set.h"

/* The header and CATALOG's site tables, up to the `runs' line.  */
void aggregate_write_start(FILE *out, const struct site_catalog *catalog);

/* RUN as a report: its units once each, occurrences added up.  */
void aggregate_write_run(FILE *out, const struct run_view *run);

/* The last line, with the number of runs written.  */
void aggregate_write_end(FILE *out, unsigned long n_runs);

#endif
