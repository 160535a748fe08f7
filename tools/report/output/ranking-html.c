/* The ranking as one self-contained HTML page: no scripts, fonts or images
   from anywhere, so it can be mailed or archived as it is.  Each predicate
   has a bar in the manner of CBI's "thermometers": its length grows with
   the logarithm of the number of runs where the predicate was true; in it,
   Context (grey), the lower bound of Increase (red), the rest of Increase
   up to its estimate (pink) and the remainder (white) in proportion.  */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/ranking.h"

#include "output/formats.h"
#include "statistics/predicates.h"
#include "support/util.h"

static double clamp01(double value)
{
    return value < 0 ? 0 : value > 1 ? 1 : value;
}

static void write_bar(FILE *out, const struct ranked_predicate *row, double log_most)
{
    unsigned long true_runs = row->counts.failing_true + row->counts.successful_true;
    double length = log_most > 0 ? log1p((double) true_runs) / log_most : 1;
    double context = clamp01(row->score.context);
    double bound = clamp01(row->score.increase_bound);
    double rest = clamp01(row->score.increase - row->score.increase_bound);
    if (context + bound + rest > 1)
        rest = 1 - context - bound;
    fprintf(out, "<div class=bar style=\"width:%.1f%%\" title=\"Context %.3f, Increase %.3f "
            "(bound %.3f), true in %lu runs\">", 100 * clamp01(length), row->score.context,
            row->score.increase, row->score.increase_bound, true_runs);
    fprintf(out, "<span class=context style=\"width:%.2f%%\"></span>", 100 * context);
    fprintf(out, "<span class=bound style=\"width:%.2f%%\"></span>", 100 * bound);
    fprintf(out, "<span class=interval style=\"width:%.2f%%\"></span>", 100 * rest);
    fputs("</div>", out);
}

static void write_table(FILE *out, const struct ranking *ranking,
                        const struct ranked_predicate *rows, size_t n_rows, bool steps,
                        struct sources *sources)
{
    unsigned long most = 1;
    for (size_t i = 0; i < n_rows; i++) {
        unsigned long true_runs = rows[i].counts.failing_true + rows[i].counts.successful_true;
        if (true_runs > most)
            most = true_runs;
    }
    double log_most = log1p((double) most);
    fprintf(out, "<table>\n<tr><th>%s<th>score<th>Importance (from the lower bound)"
            "<th>Increase (lower bound)<th>F<th>S"
            "<th>F obs<th>S obs<th>predicate<th>where</tr>\n", steps ? "step" : "rank");
    struct byte_buffer text = { 0 };
    for (size_t i = 0; i < n_rows; i++) {
        const struct ranked_predicate *row = &rows[i];
        struct predicate_name name;
        universe_name(ranking->universe, row->predicate, &name);
        text.size = 0;
        site_predicate_text(name.site, name.k, &text);
        fprintf(out, "<tr><td class=n>%zu<td>", i + 1);
        write_bar(out, row, log_most);
        fprintf(out, "<td class=n>%.3f<td class=n>%.3f (%.3f)<td class=n>%lu<td class=n>%lu"
                "<td class=n>%lu<td class=n>%lu<td><code>", row->score.importance,
                row->score.increase, row->score.increase_bound, row->counts.failing_true,
                row->counts.successful_true, row->counts.failing_observed,
                row->counts.successful_observed);
        html_text(out, text.data);
        fputs("</code><td>", out);
        html_text(out, name.site->file);
        fprintf(out, ":%u, in <code>", name.site->line);
        html_function(out, name.site);
        fputs("</code>", out);
        const struct source_file *source = sources_find(sources, name.site->file);
        if (source->found && name.site->line >= 1 && name.site->line <= source->n_lines) {
            fputs("<pre>", out);
            html_text(out, source->lines[name.site->line - 1]);
            fputs("</pre>", out);
        }
        fputs("</tr>\n", out);
    }
    buffer_free(&text);
    fputs("</table>\n", out);
}

void write_ranking_html(FILE *out, const struct ranking *ranking,
                        const struct source_dirs *source_dirs)
{
    struct sources sources;
    sources_init(&sources, source_dirs);
    fputs("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>\n"
          "<title>sampler-report rank</title>\n<style>\n"
          "body{font-family:sans-serif;margin:2em;color:#222}\n"
          "table{border-collapse:collapse;margin-bottom:2em}\n"
          "td,th{padding:.25em .6em;border-bottom:1px solid #ddd;vertical-align:top;"
          "text-align:left}\n"
          "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
          "td:nth-child(2){width:12em}\n"
          ".bar{display:flex;height:1em;border:1px solid #444;background:#fff;min-width:2px}\n"
          ".bar span{display:block;height:100%}\n"
          ".context{background:#555}.bound{background:#d00}.interval{background:#f9a}\n"
          "pre{margin:.3em 0 0;padding:.2em .4em;background:#f4f4f4}\n"
          ".key span{display:inline-block;width:1em;height:1em;border:1px solid #444;"
          "vertical-align:middle;margin:0 .3em 0 1em}\n"
          "</style></head><body>\n<h1>Predicates that predict failure</h1>\n", out);
    fprintf(out, "<p>%lu runs: %lu failing, %lu successful (failure: ", ranking->n_runs,
            ranking->n_failing, ranking->n_runs - ranking->n_failing);
    html_text(out, ranking->failure_rule);
    fputs(")", out);
    if (ranking->default_failure_rule)
        fputs(": the default rule, any signal or non-zero exit status is a failure; "
              "--fail-if=signal counts crashes only", out);
    fprintf(out, ". %zu predicates at %zu sites; %zu kept: the %g%% lower confidence bound of "
            "Increase (%s) above 0, and true in at least %lu failing runs. Importance is the "
            "harmonic mean of that bound and log F / log NumF (NumF: failing runs in play, %lu "
            "before elimination).</p>\n",
            ranking->universe->n_predicates, ranking->universe->n_sites, ranking->n_kept,
            ranking->confidence * 100,
            ranking->interval == INTERVAL_NORMAL ? "normal approximation"
                                                 : "Wilson score intervals, Newcombe",
            ranking->min_failing, ranking->n_failing);
    fputs("<p class=key>Bars: length grows with the log of the runs where the predicate is "
          "true;<span class=context></span>Context<span class=bound style=\"background:#d00\">"
          "</span>Increase, lower bound<span style=\"background:#f9a\"></span>Increase above "
          "the bound<span></span>the rest.</p>\n", out);
    fputs("<h2>Elimination</h2>\n<p>Each step takes the best predicate, then ranks again "
          "without the runs where it is true: F and S are the failing and successful runs it "
          "takes away.</p>\n", out);
    if (ranking->n_steps)
        write_table(out, ranking, ranking->steps, ranking->n_steps, true, &sources);
    if (ranking->n_failing == 0)
        fputs("<p>No failing runs to explain.</p>\n", out);
    else
        fprintf(out, "<p>%lu of %lu failing runs explained%s.</p>\n",
                ranking->n_failing - ranking->n_unexplained, ranking->n_failing,
                ranking->step_limit_reached ? "; elimination stopped at its --steps limit" : "");
    fprintf(out, "<h2>Ranking before elimination</h2>\n<p>The best %zu of %zu; F, S: runs "
            "where the predicate was true; F obs, S obs: where it was observed.</p>\n",
            ranking->n_top, ranking->n_kept);
    if (ranking->n_top)
        write_table(out, ranking, ranking->top, ranking->n_top, false, &sources);
    fputs("</body></html>\n", out);
    sources_free(&sources);
}
