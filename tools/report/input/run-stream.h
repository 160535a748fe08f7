/* Reading runs one at a time, so that any number of them takes the memory
   of one: from report files (one or more reports back to back, as the
   runtime writes them) and from aggregates that `sampler-report merge'
   writes (site tables, then runs).

   An aggregate is text in the report's record conventions:

     sampler-aggregate<TAB>1
     unit ... site ... end        the site tables of its units, in site-table
     ...                          format (sampler-abi.h)
     runs
     run<TAB><origin>             where the run's report was read
     sampler-report<TAB>1         the run's report, in report format, each
     ...                          unit once (occurrences added up)
     end
     run<TAB>...
     ...
     aggregate-end<TAB><number of runs>  */
#ifndef SAMPLER_REPORT_STREAM_H
#define SAMPLER_REPORT_STREAM_H

#include <stdbool.h>
#include <stdio.h>

#include "input/report-reader.h"
#include "support/util.h"

#define AGGREGATE_FORMAT_VERSION 1

struct run_stream {
    char *path;
    FILE *file;
    bool is_aggregate;
    unsigned long line_number;      /* of the line last read */
    char *line;                     /* the line last read, without its newline */
    size_t line_size;
    size_t line_capacity;
    bool have_line;                 /* LINE is read but not yet used */
    bool at_end;
    struct byte_buffer tables;      /* an aggregate's site tables */
    unsigned long tables_first_line;
    struct byte_buffer block;       /* the report being read */
    char *path_of_run;              /* an aggregate's origin of the run last read */
    unsigned long n_runs;           /* reports returned so far */
};

/* Opens PATH ("-": standard input) and reads its first line, and an
   aggregate's site tables.  */
bool run_stream_open(struct run_stream *stream, const char *path, struct diag *d);

enum run_stream_status { RUN_STREAM_RUN, RUN_STREAM_END, RUN_STREAM_ERROR };

/* Reads the next report into REPORT (free it with run_report_free) and
   sets *ORIGIN to where it came from (the file, or the origin an aggregate
   recorded; owned by the stream until the next call).  */
enum run_stream_status run_stream_next(struct run_stream *stream, struct run_report *report,
                                       const char **origin, struct diag *d);

void run_stream_close(struct run_stream *stream);

/* Whether DATA starts like an aggregate.  */
bool looks_like_aggregate(const char *data, size_t size);

#endif
