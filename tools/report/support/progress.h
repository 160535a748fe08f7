/* A progress line on standard error, "LABEL: N/TOTAL", drawn at the first update and
   then at most ten times a second, only when standard error is a terminal (never in logs,
   pipes or tests).  */
#ifndef SAMPLER_REPORT_PROGRESS_H
#define SAMPLER_REPORT_PROGRESS_H

#include <stdbool.h>

struct progress {
    bool enabled;
    const char *label;
    unsigned long total;        /* 0: unknown */
    double last_drawn;          /* monotonic seconds */
    bool drawn;
};

void progress_start(struct progress *progress, const char *label, unsigned long total);
void progress_update(struct progress *progress, unsigned long done);
/* Erases the line, if one was drawn.  */
void progress_finish(struct progress *progress);

#endif
