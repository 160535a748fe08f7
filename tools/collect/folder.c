/* The folder's thread (folder.h).  */
#include "folder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "inflate.h"
#include "schemes/registry.h"
#include "combining/run-adder.h"
#include "sql-files.h"
#include "output/sql-tables.h"
#include "text.h"

/* One queued run, as read from the store.  */
struct queued_run {
    unsigned long release;
    char run[24];
    char run_id[33];
    bool failed;
    char received[32];
    struct byte_buffer body;
};

struct queue_read {
    struct queued_run *runs;
    size_t n, capacity;
};

static bool take_queued(void *context, unsigned n, const char *const *values,
                        const void *bytes, size_t size, struct diag *d)
{
    struct queue_read *queue = context;
    if (n != 5 || !values[0] || !values[1] || !values[2] || !values[3] || !values[4])
        return diag_fail(d, "internal error: a queued run without its columns");
    grow_array((void **) &queue->runs, &queue->capacity, queue->n + 1, sizeof *queue->runs);
    struct queued_run *run = &queue->runs[queue->n++];
    memset(run, 0, sizeof *run);
    run->release = strtoul(values[0], NULL, 10);
    snprintf(run->run, sizeof run->run, "%s", values[1]);
    snprintf(run->run_id, sizeof run->run_id, "%s", values[2]);
    run->failed = strcmp(values[3], "1") == 0;
    /* "YYYY-MM-DD HH:MM:SS", whatever fraction the engine adds.  */
    snprintf(run->received, sizeof run->received, "%.19s", values[4]);
    buffer_append(&run->body, bytes, size);
    return true;
}

static void free_queue(struct queue_read *queue)
{
    for (size_t i = 0; i < queue->n; i++)
        buffer_free(&queue->runs[i].body);
    free(queue->runs);
    memset(queue, 0, sizeof *queue);
}

static struct run_adder *adder_for(struct folder *folder, struct release *release)
{
    for (size_t i = 0; i < folder->n_adders; i++)
        if (folder->adders[i].release == release)
            return &folder->adders[i].adder;
    folder->adders = xrealloc(folder->adders, (folder->n_adders + 1) * sizeof *folder->adders);
    struct release_adder *added = &folder->adders[folder->n_adders++];
    added->release = release;
    run_adder_init(&added->adder, &release->catalog);
    return &added->adder;
}

/* Rows go to the store with text that is valid UTF-8 (text.h): a
   program's name may not be.  */
static bool row_to_store(void *context, enum sql_table table, const char *const *fields,
                         struct diag *d)
{
    enum { MAX_COLUMNS = 32 };
    const char *clean[MAX_COLUMNS] = { 0 };
    char *made[MAX_COLUMNS] = { 0 };
    unsigned n = sql_tables[table].n_columns;
    for (unsigned i = 0; i < n && i < MAX_COLUMNS; i++) {
        clean[i] = fields[i];
        if (fields[i] && !utf8_valid(fields[i]))
            clean[i] = made[i] = utf8_escaped(fields[i]);
    }
    bool ok = store_add_row(context, table, clean, d);
    for (unsigned i = 0; i < n && i < MAX_COLUMNS; i++)
        free(made[i]);
    return ok;
}

/* The run's rows and its mark in run_folds.  A stored report that cannot be read again (it
   passed the same reader when it arrived) is left out of the aggregates,
   and said so.  */
static bool analyse(struct folder *folder, struct queued_run *queued, const char *batch,
                    struct diag *d)
{
    struct release *release = registry_find_release(folder->registry, queued->release);
    struct byte_buffer text = { 0 };
    struct run_report report;
    struct diag why;
    bool readable = release
                    && gzip_inflate(queued->body.data, queued->body.size, folder->report_max,
                                    &text, &why)
                    && report_parse_one(&report, queued->run_id, text.data, text.size, 1, &why);
    buffer_free(&text);
    if (!readable) {
        fprintf(stderr, "sampler-collect: run %s of release %lu is not folded: %s\n",
                queued->run_id, queued->release, release ? why.message : "release unknown");
        return true;
    }
    struct run_adder *adder = adder_for(folder, release);
    bool ok = run_adder_add(adder, &report, d);
    struct run_view view = { queued->run_id, &report, adder->units, adder->n_units,
                             queued->failed, 0 };
    struct sql_run run = { strtoul(queued->run, NULL, 10), "", queued->received,
                           queued->failed };
    memcpy(run.id, queued->run_id, sizeof run.id);
    struct sql_sink sink = { row_to_store, folder->store, false };
    ok = ok && sql_run_rows(&sink, &release->sql, &run, &view, &folder->namer, d);
    run_adder_clear(adder);
    run_report_free(&report);
    const char *mark[4] = { release->id_text, queued->run, batch, queued->failed ? "1" : "0" };
    return ok && store_add_fold_mark(folder->store, mark, d);
}

static bool copy_value(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    snprintf(context, 32, "%s", n > 0 && values[0] ? values[0] : "");
    return true;
}

/* The queued runs of one release, out of the queue.  */
static bool dequeue(struct store *store, const struct queue_read *queue, size_t first,
                    size_t end, struct diag *d)
{
    struct byte_buffer sql = { 0 };
    char release[24];
    snprintf(release, sizeof release, "%lu", queue->runs[first].release);
    buffer_append_text(&sql, "DELETE FROM fold_queue WHERE release = ");
    buffer_append_text(&sql, release);
    buffer_append_text(&sql, " AND run IN (");
    for (size_t i = first; i < end; i++) {
        if (i > first)
            buffer_append(&sql, ",", 1);
        buffer_append_text(&sql, queue->runs[i].run);
    }
    buffer_append(&sql, ")", 2);
    bool ok = store_exec(store, sql.data, d);
    buffer_free(&sql);
    return ok;
}

/* One fold: at most BATCH queued runs analysed, marked and folded, in one
   transaction.  *MORE says whether runs were left queued.  */
static bool fold(struct folder *folder, bool *more, struct diag *d)
{
    *more = false;
    if (!folder->store || store_lost(folder->store)) {
        bool ok = folder->store ? store_reconnect(folder->store, d)
                                : store_open(&folder->store, folder->url, d);
        if (!ok)
            return false;
    }
    struct store *store = folder->store;
    struct queue_read queue = { 0 };
    char limit[24], batch[32] = "";
    snprintf(limit, sizeof limit, "%u", folder->batch_max);
    const char *params[1] = { limit };
    if (!store_begin(store, d))
        return false;
    bool ok = store_query_bytes(store,
                                "SELECT CAST(q.release AS VARCHAR), CAST(q.run AS VARCHAR), "
                                "q.run_id, CAST(q.failed AS VARCHAR), "
                                "CAST(q.received AS VARCHAR), p.body "
                                "FROM fold_queue q "
                                "JOIN reports p ON p.release = q.release AND p.run_id = q.run_id "
                                "ORDER BY q.release, q.run LIMIT $1", 1, params, take_queued,
                                &queue, d);
    if (ok && queue.n > 0)
        ok = store_query(store, "UPDATE fold_state SET batch = batch + 1 RETURNING batch", 0,
                         NULL, copy_value, batch, d);
    for (size_t i = 0; ok && i < queue.n; i++)
        ok = analyse(folder, &queue.runs[i], batch, d);
    for (size_t first = 0, end; ok && first < queue.n; first = end) {
        for (end = first; end < queue.n && queue.runs[end].release == queue.runs[first].release;
             end++)
            ;
        ok = dequeue(store, &queue, first, end, d);
    }
    if (ok && queue.n > 0)
        ok = store_rows_flush(store, d) && store_exec(store, sql_fold, d)
             && store_exec(store, sql_fold_totals, d);
    ok = ok && store_commit(store, d);
    if (!ok)
        store_rollback(store);
    if (ok) {
        atomic_fetch_add(&folder->folded_runs, queue.n);
        *more = queue.n == folder->batch_max;
    }
    free_queue(&queue);
    return ok;
}

static void wait_for(struct folder *folder, unsigned milliseconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += milliseconds / 1000;
    until.tv_nsec += (long) (milliseconds % 1000) * 1000000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&folder->wake, &folder->lock, &until);
}

static void *folder_thread(void *context)
{
    struct folder *folder = context;
    bool failing = false;
    pthread_mutex_lock(&folder->lock);
    for (;;) {
        while (!folder->due && !folder->stopping)
            pthread_cond_wait(&folder->wake, &folder->lock);
        if (!folder->due)
            break;
        folder->due = false;
        pthread_mutex_unlock(&folder->lock);
        struct diag d;
        bool more;
        pthread_mutex_lock(folder->analysis_lock);
        bool ok = fold(folder, &more, &d);
        pthread_mutex_unlock(folder->analysis_lock);
        pthread_mutex_lock(&folder->lock);
        if (ok) {
            atomic_fetch_add(&folder->folds, 1);
            atomic_fetch_add(&folder->generation, 1);
            if (failing)
                fprintf(stderr, "sampler-collect: folding works again\n");
            folder->due |= more;
        } else {
            atomic_fetch_add(&folder->failures, 1);
            if (!failing)
                fprintf(stderr, "sampler-collect: folding failed (tried again): %s\n",
                        d.message);
            folder->due = true;
        }
        failing = !ok;
        /* Stopping: one last fold, and what it leaves waits for the next
           start.  */
        if (folder->stopping)
            break;
        /* The next fold takes what arrives meanwhile (at once when runs
           were left queued).  */
        if (!(ok && more))
            wait_for(folder, folder->interval_ms);
    }
    pthread_mutex_unlock(&folder->lock);
    return NULL;
}

bool folder_start(struct folder *folder, const char *url, struct registry *registry,
                  unsigned interval_ms, unsigned batch_max, size_t report_max,
                  pthread_mutex_t *analysis_lock, struct diag *d)
{
    memset(folder, 0, sizeof *folder);
    folder->analysis_lock = analysis_lock;
    folder->url = xstrdup(url);
    folder->registry = registry;
    folder->interval_ms = interval_ms;
    folder->batch_max = batch_max;
    folder->report_max = report_max;
    folder->namer.no_files = true;
    pthread_mutex_init(&folder->lock, NULL);
    pthread_cond_init(&folder->wake, NULL);
    if (!store_open(&folder->store, url, d))
        return false;
    /* What a stop or a crash left queued.  */
    folder->due = true;
    if (pthread_create(&folder->thread, NULL, folder_thread, folder) != 0)
        return diag_fail(d, "cannot start the folder's thread");
    folder->started = true;
    return true;
}

void folder_wake(struct folder *folder)
{
    if (!folder)
        return;
    pthread_mutex_lock(&folder->lock);
    if (!folder->due) {
        folder->due = true;
        pthread_cond_signal(&folder->wake);
    }
    pthread_mutex_unlock(&folder->lock);
}

void folder_stop(struct folder *folder)
{
    if (folder->started) {
        pthread_mutex_lock(&folder->lock);
        folder->stopping = true;
        pthread_cond_signal(&folder->wake);
        pthread_mutex_unlock(&folder->lock);
        pthread_join(folder->thread, NULL);
    }
    for (size_t i = 0; i < folder->n_adders; i++)
        run_adder_free(&folder->adders[i].adder);
    free(folder->adders);
    symbol_namer_free(&folder->namer);
    store_close(folder->store);
    free(folder->url);
    pthread_mutex_destroy(&folder->lock);
    pthread_cond_destroy(&folder->wake);
}
