/* The service's pages (docs/collect.md): an index of the releases, and per
   release its runs over time, failure rate, the current ranking (the page
   `sampler-report rank --format=html' draws, from the aggregates the
   writer keeps current, with an elimination redone in the background),
   and its hot values and paths.  No page rereads every run.  */
#ifndef SAMPLER_COLLECT_PAGES_H
#define SAMPLER_COLLECT_PAGES_H

#include <stdbool.h>

#include <microhttpd.h>

#include "service.h"

bool pages_start(struct service *service, struct diag *d);
void pages_stop(struct service *service);

/* Answers a GET or HEAD of URL.  */
enum MHD_Result pages_answer(struct service *service, struct MHD_Connection *connection,
                             const char *url);

#endif
