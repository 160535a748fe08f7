/* Writing the ranking of `sampler-report rank' (statistics/ranking.h):
   text, CSV and JSON lines (ranking-text.c), and one self-contained HTML
   page (ranking-html.c).  */
#ifndef SAMPLER_REPORT_OUTPUT_RANKING_H
#define SAMPLER_REPORT_OUTPUT_RANKING_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sources.h"
#include "statistics/ranking.h"

/* Two tables, the elimination and the ranking before it, under a header
   saying how the runs were labelled and the predicates scored.  */
void write_ranking_text(FILE *out, const struct ranking *ranking);

/* One row per predicate, a 'list' column saying elimination or ranking:
   CSV (CSV set) with a header line, or JSON lines after a summary object.  */
void write_ranking_rows(FILE *out, const struct ranking *ranking, bool csv);

/* The page, with each predicate's source line where SOURCE_DIRS (or the
   name itself) lead to its file.  */
void write_ranking_html(FILE *out, const struct ranking *ranking,
                        const struct source_dirs *source_dirs);

#endif
