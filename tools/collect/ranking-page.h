/* A release's ranking for its page, in the form `sampler-report rank'
   draws (rank.h): the ranking before elimination from the aggregates as
   they are now, with rank's defaults (95%, Wilson and Newcombe, 3 failing
   runs), and the elimination steps the eliminator last computed in SQL
   (rank-start.sql, rank-step.sql: pages.c runs them in the background).  */
#ifndef SAMPLER_COLLECT_RANKING_PAGE_H
#define SAMPLER_COLLECT_RANKING_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "statistics/ranking.h"
#include "releases.h"
#include "store.h"

/* RELEASE's ranking, the best TOP (0: all) listed.  */
bool ranking_from_store(struct store *store, const struct release *release, size_t top,
                        struct ranking *ranking, struct diag *d);

void ranking_page_free(struct ranking *ranking);

#endif
