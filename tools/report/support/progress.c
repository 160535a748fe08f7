#include "support/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double) time.tv_sec + (double) time.tv_nsec / 1e9;
}

void progress_start(struct progress *progress, const char *label, unsigned long total)
{
    progress->enabled = isatty(STDERR_FILENO);
    progress->label = label;
    progress->total = total;
    progress->last_drawn = now();
    progress->drawn = false;
}

void progress_update(struct progress *progress, unsigned long done)
{
    if (!progress->enabled)
        return;
    /* The first update draws at once, so the line does not depend on how
       fast the machine is; later ones at most ten times a second.  */
    double time = now();
    if (progress->drawn && time - progress->last_drawn < 0.1)
        return;
    progress->last_drawn = time;
    progress->drawn = true;
    if (progress->total)
        fprintf(stderr, "\r%s: %lu/%lu (%.0f%%)\033[K", progress->label, done, progress->total,
                100.0 * (double) done / (double) progress->total);
    else
        fprintf(stderr, "\r%s: %lu\033[K", progress->label, done);
    fflush(stderr);
}

void progress_finish(struct progress *progress)
{
    if (progress->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    progress->drawn = false;
}
