/* sampler-report rank|values|paths|subpaths --store URL --release R: a
   release's runs as the collector stored them (docs/collect.md), read as
   the same reports from files would be.  The store keeps each report as
   it was received; this module hands them to the run readers as one
   aggregate of merge's form (input/run-stream.h): the runs in the order
   of their run ids, each under its run id as origin, as a directory of
   reports named by run id would give them.  The release's site and path tables, as
   registered, go in as a --sites file, and its failure rule stands in for
   --fail-if unless --fail-if or --labels is given (commands/command.c).  */
#ifndef SAMPLER_REPORT_STORE_INPUT_H
#define SAMPLER_REPORT_STORE_INPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "support/util.h"

/* A release of the store, made an input.  */
struct store_release_input {
    const char *name;            /* the input, for store_input_is and _open */
    const char *sites_path;      /* its site and path tables: a --sites file,
                                    removed at exit */
    const char *fail_if;         /* its failure rule, for --fail-if */
};

/* Makes release RELEASE (PRODUCT/VERSION or its number) of the store URL
   an input, into *ADDED; its strings stay until the process ends.  */
bool store_input_add(const char *url, const char *release, struct store_release_input *added,
                     struct diag *d);

/* Whether PATH is an input store_input_add made.  */
bool store_input_is(const char *path);

/* The input PATH as a stream of aggregate text, read as the store is
   read (NULL, with D set, when the store cannot be opened).  */
FILE *store_input_open(const char *path, struct diag *d);

#endif
