/* The service's pages (pages.h) and the eliminator that keeps the
   ranking's elimination recent.  Pages read the aggregates through the
   service's reader connection: the releases' counts, runs per hour, the
   ranking's counts, and the profiles' totals through the views
   hot_values_combined and paths_combined (analysis.sql).  */
#include "pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http.h"
#include "output/formats.h"
#include "output/ranking.h"
#include "ranking-page.h"
#include "sql-files.h"
#include "statistics/predicates.h"

struct pages {
    struct service *service;
    struct store *store;             /* the eliminator's */
    pthread_t thread;
    bool started, stopping;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    unsigned long eliminated_generation;   /* the folder's when it last ran */
    atomic_ulong eliminations;
    atomic_ulong eliminated_runs;    /* folded when the last good elimination began */
};

static const char page_style[] =
    "td,th{padding:.2em .6em;border-bottom:1px solid #ddd}\n"
    ".bar{display:flex;height:.9em;min-width:1px;background:#9bd}\n"
    ".bar span{display:block;height:100%;background:#d00}\n"
    "nav a{margin-right:1em}\n";

/* A page as it is written, and the query results it is written from.  */
struct page {
    FILE *out;
    char *text;
    size_t size;
};

static void page_open(struct page *page, const char *title)
{
    page->out = open_memstream(&page->text, &page->size);
    html_page_start(page->out, title, page_style);
}

static enum MHD_Result page_send(struct MHD_Connection *connection, struct page *page,
                                 bool ok, const struct diag *d)
{
    if (ok)
        fputs("</body></html>\n", page->out);
    fclose(page->out);
    enum MHD_Result result;
    if (ok) {
        result = http_send(connection, 200, "text/html; charset=utf-8", page->text, page->size,
                           0);
    } else {
        char text[1200];
        int n = snprintf(text, sizeof text, "the store cannot be read now: %s\n", d->message);
        result = http_send(connection, 503, "text/plain; charset=utf-8", text,
                           n > 0 && (size_t) n < sizeof text ? (size_t) n : sizeof text - 1,
                           10);
    }
    free(page->text);
    return result;
}

static void cell_text(FILE *out, const char *text)
{
    fputs("<td>", out);
    html_text(out, text ? text : "");
}

/* ---- The index ---------------------------------------------------------------------- */

static bool index_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    FILE *out = context;
    if (n != 7)
        return true;
    fprintf(out, "<tr><td><a href=\"/releases/%s/\">", values[0]);
    html_text(out, values[1]);
    fputs("</a>", out);
    for (unsigned i = 2; i < n; i++)
        cell_text(out, values[i]);
    fputs("</tr>\n", out);
    return true;
}

static enum MHD_Result index_page(struct service *service, struct MHD_Connection *connection)
{
    struct page page;
    struct diag d;
    page_open(&page, "sampler-collect: releases");
    fputs("<h1>Releases</h1>\n<table>\n<tr><th>release<th>state<th>runs<th>failing"
          "<th>waiting to be analysed<th>registered</tr>\n", page.out);
    pthread_mutex_lock(&service->reader_lock);
    bool ok = store_query(service->reader,
                          "SELECT c.release, r.name, c.state, "
                          "coalesce(n.failing + n.successful, 0), coalesce(n.failing, 0), "
                          "(SELECT count(*) FROM fold_queue q WHERE q.release = c.release), "
                          "c.registered FROM collected_releases c "
                          "JOIN releases r ON r.release = c.release "
                          "LEFT JOIN release_counts n ON n.release = c.release "
                          "ORDER BY c.release", 0, NULL, index_row, page.out, &d);
    pthread_mutex_unlock(&service->reader_lock);
    fputs("</table>\n", page.out);
    return page_send(connection, &page, ok, &d);
}

/* ---- A release's page ------------------------------------------------------------------- */

struct hours {
    char hour[48][16];
    unsigned long runs[48], failing[48];
    unsigned n;
    unsigned long most;
};

static bool hour_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    struct hours *hours = context;
    if (n != 3 || hours->n == 48)
        return true;
    snprintf(hours->hour[hours->n], sizeof hours->hour[0], "%s", values[0]);
    hours->runs[hours->n] = strtoul(values[1], NULL, 10);
    hours->failing[hours->n] = strtoul(values[2], NULL, 10);
    if (hours->runs[hours->n] > hours->most)
        hours->most = hours->runs[hours->n];
    hours->n++;
    return true;
}

static void write_hours(FILE *out, const struct hours *hours)
{
    fputs("<h2>Runs over time</h2>\n<p>Runs analysed per hour of their arrival (UTC), the "
          "latest 48 hours with runs; red: the failing ones.</p>\n<table class=hours>\n"
          "<tr><th>hour<th>runs<th>failing<th>failure rate<th></tr>\n", out);
    for (unsigned i = 0; i < hours->n; i++) {
        double width = hours->most ? 100.0 * hours->runs[i] / hours->most : 0;
        double red = hours->runs[i] ? 100.0 * hours->failing[i] / hours->runs[i] : 0;
        fprintf(out, "<tr><td>");
        html_text(out, hours->hour[i]);
        fprintf(out, ":00<td class=n>%lu<td class=n>%lu<td class=n>%.1f%%<td style=\"width:"
                "20em\"><div class=bar style=\"width:%.1f%%\"><span style=\"width:%.1f%%\">"
                "</span></div></tr>\n", hours->runs[i], hours->failing[i], red, width, red);
    }
    fputs("</table>\n", out);
}

static void write_ranking_summary(FILE *out, const struct release *release,
                                  const struct ranking *ranking)
{
    fprintf(out, "<h2>Ranking</h2>\n<p>The predicates that best predict failure now, from "
            "%lu runs (%lu failing; failure: ", ranking->n_runs, ranking->n_failing);
    html_text(out, ranking->failure_rule);
    fprintf(out, "): %zu kept. <a href=\"/releases/%s/ranking.html\">The whole ranking, and "
            "the elimination</a>.</p>\n<table class=ranking>\n<tr><th>rank<th>Importance"
            "<th>Increase (lower bound)<th>F<th>S<th>predicate<th>where</tr>\n",
            ranking->n_kept, release->id_text);
    struct byte_buffer text = { 0 };
    for (size_t i = 0; i < ranking->n_top && i < 10; i++) {
        const struct ranked_predicate *row = &ranking->top[i];
        struct predicate_name name;
        universe_name(ranking->universe, row->predicate, &name);
        text.size = 0;
        site_predicate_text(name.site, name.k, &text);
        fprintf(out, "<tr><td class=n>%zu<td class=n>%.3f<td class=n>%.3f (%.3f)<td class=n>%lu"
                "<td class=n>%lu<td><code>", i + 1, row->score.importance, row->score.increase,
                row->score.increase_bound, row->counts.failing_true,
                row->counts.successful_true);
        html_text(out, text.data);
        fputs("</code><td>", out);
        html_text(out, name.site->file);
        fprintf(out, ":%u, in <code>", name.site->line);
        html_function(out, name.site);
        fputs("</code></tr>\n", out);
    }
    buffer_free(&text);
    fputs("</table>\n", out);
}

/* A value of a hot-list as `values' shows it, by the site's kind.  */
static void value_cell(FILE *out, const char *kind, const char *pattern, const char *target)
{
    fputs("<td><code>", out);
    long long value = strtoll(pattern, NULL, 10);
    unsigned long long bits;
    memcpy(&bits, &value, sizeof bits);
    if (target && *target) {
        html_text(out, target);
    } else if (strcmp(kind, "pointer") == 0) {
        fprintf(out, "0x%llx", bits);
    } else if (strcmp(kind, "unsigned") == 0) {
        fprintf(out, "%llu", bits);
    } else if (strcmp(kind, "double") == 0) {
        double real;
        memcpy(&real, &bits, sizeof real);
        fprintf(out, "%g", real);
    } else {
        fprintf(out, "%lld", value);
    }
    fputs("</code>", out);
}

/* A table's rows as they are written, counted.  */
struct table_out {
    FILE *out;
    unsigned long rows;
};

/* A row's first cells, as the combined views give them: its rank, then
   file:line and function.  */
static void location_cells(FILE *out, const char *const *values)
{
    fprintf(out, "<tr><td class=n>%s", values[0]);
    cell_text(out, values[1]);
    fprintf(out, ":%s", values[2]);
    cell_text(out, values[3]);
}

/* hot_values_combined: site_rank, file, line, function, observed,
   value_kind, hot_value, target, visits, share, flag.  */
static bool value_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    struct table_out *table = context;
    FILE *out = table->out;
    if (n != 11)
        return true;
    table->rows++;
    location_cells(out, values);
    cell_text(out, values[4]);
    value_cell(out, values[5], values[6], values[7]);
    fprintf(out, "<td class=n>%.0f<td class=n>%.1f%%", strtod(values[8], NULL),
            100 * strtod(values[9], NULL));
    cell_text(out, values[10]);
    fputs("</tr>\n", out);
    return true;
}

/* paths_combined: function_rank, file, line, function, path, traversals,
   low, high.  */
static bool path_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    struct table_out *table = context;
    FILE *out = table->out;
    if (n != 8)
        return true;
    table->rows++;
    location_cells(out, values);
    fprintf(out, "<td class=n>%s<td class=n>%.0f<td class=n>%.0f&ndash;%.0f</tr>\n", values[4],
            strtod(values[5], NULL), strtod(values[6], NULL), strtod(values[7], NULL));
    return true;
}

/* A table's closing, and a line in it when it had no row.  */
static void end_table(FILE *out, const struct table_out *table, unsigned columns,
                      const char *none)
{
    if (!table->rows)
        fprintf(out, "<tr><td colspan=%u>%s</tr>\n", columns, none);
    fputs("</table>\n", out);
}

static bool write_profiles(FILE *out, struct store *store, const struct release *release,
                           struct diag *d)
{
    const char *params[1] = { release->id_text };
    struct table_out values = { out, 0 }, paths = { out, 0 };
    fputs("<h2>Hot values</h2>\n<p>The 10 sites of values, sizes and indirect calls with the "
          "most visits, their 5 most frequent values (estimates over the runs analysed; "
          "<code>sampler-report values --store</code> has the rest).</p>\n<table class=values>"
          "\n<tr><th>site<th>where<th>function<th>observed<th>value<th>visits<th>share"
          "<th>flag</tr>\n", out);
    bool ok = store_query(store, "SELECT site_rank, file, line, function, observed, value_kind, "
                          "hot_value, target, visits, share, flag FROM hot_values_combined "
                          "WHERE release = $1 AND site_rank <= 10 AND value_rank <= 5 "
                          "ORDER BY site_rank, value_rank", 1, params, value_row, &values, d);
    end_table(out, &values, 8, "none: no values, sizes or indirect calls in the runs "
              "analysed (the release sends none, or none was sampled)");
    fputs("<h2>Hot paths</h2>\n<p>The 10 functions traversed most, their 5 hottest "
          "Ball-Larus paths (<code>sampler-report paths --store</code> spells them).</p>\n"
          "<table class=paths>\n<tr><th>function<th>where<th>name<th>path<th>traversals"
          "<th>95% interval</tr>\n", out);
    ok = ok && store_query(store, "SELECT function_rank, file, line, function, path, traversals, "
                           "traversals_low, traversals_high FROM paths_combined "
                           "WHERE release = $1 AND function_rank <= 10 AND path_rank <= 5 "
                           "ORDER BY function_rank, path_rank", 1, params, path_row, &paths, d);
    end_table(out, &paths, 6, "none: no paths in the runs analysed (the release sends none, "
              "or none was sampled)");
    return ok;
}

struct release_state {
    char state[16], registered[32];
    unsigned long queued;
};

static bool state_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    struct release_state *state = context;
    if (n == 3) {
        snprintf(state->state, sizeof state->state, "%s", values[0]);
        snprintf(state->registered, sizeof state->registered, "%s", values[1]);
        state->queued = strtoul(values[2], NULL, 10);
    }
    return true;
}

static enum MHD_Result release_page(struct service *service, struct MHD_Connection *connection,
                                    struct release *release)
{
    struct page page;
    struct diag d;
    char title[256];
    snprintf(title, sizeof title, "sampler-collect: %s", release->name);
    page_open(&page, title);
    struct hours hours = { .n = 0 };
    struct release_state state = { "", "", 0 };
    struct ranking ranking;
    const char *params[1] = { release->id_text };
    pthread_mutex_lock(&service->reader_lock);
    bool ok = store_query(service->reader, "SELECT state, registered, (SELECT count(*) FROM "
                          "fold_queue q WHERE q.release = c.release) FROM collected_releases c "
                          "WHERE release = $1", 1, params, state_row, &state, &d)
              && store_query(service->reader, "SELECT hour, runs, failing FROM release_hours "
                             "WHERE release = $1 ORDER BY hour DESC", 1, params, hour_row,
                             &hours, &d)
              && ranking_from_store(service->reader, release, 10, &ranking, &d);
    if (ok) {
        fputs("<nav><a href=\"/releases/\">releases</a></nav>\n<h1>", page.out);
        html_text(page.out, release->name);
        fprintf(page.out, "</h1>\n<p class=summary>Release %s, %s, registered %s UTC. "
                "<span class=runs>%lu runs</span> analysed, <span class=failing>%lu "
                "failing</span>: a failure rate of <span class=rate>%.1f%%</span>; %lu more "
                "waiting to be analysed.</p>\n", release->id_text, state.state,
                state.registered, ranking.n_runs, ranking.n_failing,
                ranking.n_runs ? 100.0 * ranking.n_failing / ranking.n_runs : 0.0,
                state.queued);
        write_hours(page.out, &hours);
        write_ranking_summary(page.out, release, &ranking);
        ranking_page_free(&ranking);
        ok = write_profiles(page.out, service->reader, release, &d);
    }
    pthread_mutex_unlock(&service->reader_lock);
    return page_send(connection, &page, ok, &d);
}

static enum MHD_Result ranking_page(struct service *service, struct MHD_Connection *connection,
                                    struct release *release)
{
    struct ranking ranking;
    struct diag d;
    pthread_mutex_lock(&service->reader_lock);
    bool ok = ranking_from_store(service->reader, release, 20, &ranking, &d);
    pthread_mutex_unlock(&service->reader_lock);
    if (!ok) {
        char text[1200];
        int n = snprintf(text, sizeof text, "the store cannot be read now: %s\n", d.message);
        return http_send(connection, 503, "text/plain; charset=utf-8", text,
                         n > 0 && (size_t) n < sizeof text ? (size_t) n : sizeof text - 1, 10);
    }
    char *text;
    size_t size;
    FILE *out = open_memstream(&text, &size);
    write_ranking_html(out, &ranking, &(struct source_dirs) { 0 });
    fclose(out);
    ranking_page_free(&ranking);
    enum MHD_Result result = http_send(connection, 200, "text/html; charset=utf-8", text, size,
                                       0);
    free(text);
    return result;
}

/* ---- Routes ---------------------------------------------------------------------------- */

static enum MHD_Result status_page(struct service *service, struct MHD_Connection *connection)
{
    char text[1024];
    struct writer *w = &service->writer;
    struct folder *f = &service->folder;
    int n = snprintf(text, sizeof text,
                     "store %s\nstored %lu\nduplicates %lu\nrefused %lu\nbatches %lu\n"
                     "failed-batches %lu\nfolds %lu\nfolded-runs %lu\nfailed-folds %lu\n"
                     "eliminations %lu\neliminated-runs %lu\nmemory-in-use %zu\n",
                     atomic_load(&w->store_up) ? "up" : "down", atomic_load(&w->stored),
                     atomic_load(&w->duplicates), atomic_load(&w->refused),
                     atomic_load(&w->batches), atomic_load(&w->failed_batches),
                     atomic_load(&f->folds), atomic_load(&f->folded_runs),
                     atomic_load(&f->failures),
                     service->pages ? atomic_load(&service->pages->eliminations) : 0,
                     service->pages ? atomic_load(&service->pages->eliminated_runs) : 0,
                     atomic_load(&service->budget.used));
    return http_send(connection, 200, "text/plain; charset=utf-8", text, (size_t) n, 0);
}

enum MHD_Result pages_answer(struct service *service, struct MHD_Connection *connection,
                             const char *url)
{
    static const char missing[] = "no such page\n";
    if (strcmp(url, "/v1/status") == 0)
        return status_page(service, connection);
    if (service->options.no_pages)
        return http_send(connection, 404, "text/plain; charset=utf-8", missing,
                         sizeof missing - 1, 0);
    if (strcmp(url, "/") == 0 || strcmp(url, "/releases/") == 0)
        return index_page(service, connection);
    unsigned long id;
    char rest[32] = "";
    int consumed = 0;
    if (sscanf(url, "/releases/%lu%n", &id, &consumed) == 1 && strlen(url + consumed) < 32) {
        snprintf(rest, sizeof rest, "%s", url + consumed);
        struct release *release = registry_find_release(&service->registry, id);
        if (release && strcmp(rest, "/") == 0)
            return release_page(service, connection, release);
        if (release && strcmp(rest, "/ranking.html") == 0)
            return ranking_page(service, connection, release);
    }
    return http_send(connection, 404, "text/plain; charset=utf-8", missing, sizeof missing - 1,
                     0);
}

/* ---- The eliminator ------------------------------------------------------------------------ */

static bool active_row(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    *(long *) context = n == 1 && values[0] ? atol(values[0]) : 0;
    return true;
}

/* rank's elimination for every release, in SQL, as `sampler-sql rank'
   runs it: rank-start.sql, then rank-step.sql while a release is active,
   for at most MAX_STEPS steps (0: no limit; releases step together).  */
static bool eliminate(struct store *store, unsigned max_steps, struct diag *d)
{
    bool ok = store_exec(store, "DELETE FROM elimination_requests; "
                         "INSERT INTO elimination_requests SELECT release "
                         "FROM collected_releases", d)
              && store_exec(store, sql_rank_start, d);
    char active_query[256];
    snprintf(active_query, sizeof active_query,
             "SELECT count(*) FROM in_play_runs WHERE active = 1 AND (%u = 0 OR steps < %u) "
             "AND release IN (SELECT release FROM elimination_requests)", max_steps, max_steps);
    long active = 1;
    while (ok && active > 0) {
        ok = store_query(store, active_query, 0, NULL, active_row, &active, d);
        if (ok && active > 0)
            ok = store_exec(store, sql_rank_step, d);
    }
    /* A failed step leaves its transaction open (and on PostgreSQL aborted):
       the next try starts afresh.  */
    if (!ok)
        store_rollback(store);
    return ok;
}

static void *eliminator_thread(void *context)
{
    struct pages *pages = context;
    struct service *service = pages->service;
    unsigned interval = service->options.elimination_interval;
    pthread_mutex_lock(&pages->lock);
    while (!pages->stopping) {
        unsigned long generation = atomic_load(&service->folder.generation);
        if (generation != pages->eliminated_generation) {
            /* Counted after their fold committed: the elimination sees them.  */
            unsigned long folded = atomic_load(&service->folder.folded_runs);
            pthread_mutex_unlock(&pages->lock);
            struct diag d;
            pthread_mutex_lock(&service->analysis_lock);
            bool ok = (!store_lost(pages->store) || store_reconnect(pages->store, &d))
                      && eliminate(pages->store, service->options.elimination_steps, &d);
            pthread_mutex_unlock(&service->analysis_lock);
            if (ok) {
                atomic_store(&pages->eliminated_runs, folded);
                atomic_fetch_add(&pages->eliminations, 1);
            } else
                fprintf(stderr, "sampler-collect: the pages' elimination failed (tried again): "
                        "%s\n", d.message);
            pthread_mutex_lock(&pages->lock);
            if (ok)
                pages->eliminated_generation = generation;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += interval;
        pthread_cond_timedwait(&pages->wake, &pages->lock, &until);
    }
    pthread_mutex_unlock(&pages->lock);
    return NULL;
}

bool pages_start(struct service *service, struct diag *d)
{
    struct pages *pages = xcalloc(1, sizeof *pages);
    pages->service = service;
    service->pages = pages;
    pthread_mutex_init(&pages->lock, NULL);
    pthread_cond_init(&pages->wake, NULL);
    if (service->options.no_pages || service->options.elimination_interval == 0)
        return true;
    if (!store_open(&pages->store, service->options.store_url, d))
        return false;
    if (pthread_create(&pages->thread, NULL, eliminator_thread, pages) != 0)
        return diag_fail(d, "cannot start the eliminator's thread");
    pages->started = true;
    return true;
}

void pages_stop(struct service *service)
{
    struct pages *pages = service->pages;
    if (!pages)
        return;
    if (pages->started) {
        pthread_mutex_lock(&pages->lock);
        pages->stopping = true;
        pthread_cond_signal(&pages->wake);
        pthread_mutex_unlock(&pages->lock);
        pthread_join(pages->thread, NULL);
    }
    store_close(pages->store);
    pthread_mutex_destroy(&pages->lock);
    pthread_cond_destroy(&pages->wake);
    free(pages);
    service->pages = NULL;
}
