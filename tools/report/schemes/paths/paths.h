/* What `sampler-report paths' (paths.c) knows of each function's paths,
   combined over the runs and decoded for its writers, one of which is the
   HTML page (paths-html.c).  */
#ifndef SAMPLER_REPORT_PATHS_H
#define SAMPLER_REPORT_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "input/site-table.h"
#include "output/sources.h"
#include "schemes/paths/pathtable.h"

struct path_total {
    unsigned long long path;
    unsigned long long count;     /* sampled traversals, over the runs */
    double traversals;            /* estimated: count over the site's rate, summed */
    double variance;              /* of that estimate */
};

/* One function's paths site, combined over the runs so far.  */
struct function_paths {
    const struct unit_table *table;
    const struct site *site;
    unsigned long long sampled, lost;
    double traversals;
    struct path_total *paths;
    size_t n_paths, capacity;
    size_t *index;                /* open addressing: position in PATHS + 1, or 0 */
    size_t index_size;            /* a power of two, more than twice n_paths */
    double scale;                 /* traversals per sample (1 / the site's rate) in
                                     every run, or 0 when they differ */
    bool seen;
};

/* A shown path, decoded once for every writer.  */
struct path_view {
    const struct path_total *total;
    double low, high;             /* the interval of its traversals */
    long region_line;             /* 0 when not decoded */
    struct path_step *steps;      /* none when not decoded */
    size_t n_steps;
    char *spelled;                /* as source lines and branches, or why not */
};

/* A function and its shown paths.  */
struct function_view {
    const struct function_paths *paths;
    const struct path_function *table;   /* NULL: no path table */
    struct path_view *shown;
    size_t n_shown;
};

/* One self-contained page: per function, a table of its hot paths and its
   source with each path's lines and branch directions marked.  */
void write_paths_html(FILE *out, const struct function_view *views, size_t n, size_t n_more,
                      const struct source_dirs *source_dirs);

/* "N more functions not shown; use --functions=all" between BEFORE and
   AFTER, when N_MORE functions were left out (none: nothing).  */
void write_functions_left_out(FILE *out, size_t n_more, const char *before, const char *after);

#endif
