/* The writer's thread and its transactions (writer.h).  */
#include "writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "schemes/registry.h"

/* Seconds a client is asked to wait when the store cannot take reports.  */
enum { STORE_RETRY_AFTER = 10 };

/* ---- One batch: one transaction ---------------------------------------------- */

struct batch {
    struct upload **uploads;
    size_t n;
    bool *claimed;                   /* its run id was new: stored by this batch */
    unsigned long *run;              /* the run's number, for a claimed, analysed report */
};

static bool copy_value(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    snprintf(context, 32, "%s", n > 0 && values[0] ? values[0] : "");
    return true;
}


static bool note_claim(void *context, unsigned n, const char *const *values, struct diag *d)
{
    (void) d;
    struct batch *batch = context;
    for (size_t i = 0; n > 0 && values[0] && i < batch->n; i++)
        if (strcmp(batch->uploads[i]->run_id, values[0]) == 0) {
            batch->claimed[i] = true;
            break;
        }
    return true;
}

/* The run ids of the batch not stored before, claimed in run_ids (each
   once: the first of two uploads of one run id in a batch).  */
static bool claim_run_ids(struct store *store, struct batch *batch, struct diag *d)
{
    struct byte_buffer sql = { 0 };
    const char **params = xcalloc(2 * batch->n + 1, sizeof *params);
    unsigned n_params = 0;
    buffer_append_text(&sql, "INSERT INTO run_ids (run_id, release) VALUES ");
    for (size_t i = 0; i < batch->n; i++) {
        bool again = false;
        for (size_t j = 0; j < i && !again; j++)
            again = strcmp(batch->uploads[j]->run_id, batch->uploads[i]->run_id) == 0;
        if (again)
            continue;
        char values[48];
        snprintf(values, sizeof values, "%s($%u, $%u)", n_params ? ", " : "", n_params + 1,
                 n_params + 2);
        buffer_append_text(&sql, values);
        params[n_params++] = batch->uploads[i]->run_id;
        params[n_params++] = batch->uploads[i]->release->id_text;
    }
    buffer_append_text(&sql, " ON CONFLICT (run_id) DO NOTHING RETURNING run_id");
    buffer_append(&sql, "", 1);
    bool ok = store_query(store, sql.data, n_params, params, note_claim, batch, d);
    free(params);
    buffer_free(&sql);
    return ok;
}

static bool analysed(const struct batch *batch, size_t i)
{
    return batch->claimed[i] && !batch->uploads[i]->interim;
}

/* Numbers for the batch's new runs, release by release.  */
static bool number_runs(struct store *store, struct batch *batch, struct diag *d)
{
    for (size_t i = 0; i < batch->n; i++) {
        if (!analysed(batch, i) || batch->run[i])
            continue;
        const struct release *release = batch->uploads[i]->release;
        unsigned long count = 0;
        for (size_t j = i; j < batch->n; j++)
            count += analysed(batch, j) && batch->uploads[j]->release == release;
        char count_text[32], next[32] = "";
        snprintf(count_text, sizeof count_text, "%lu", count);
        const char *params[2] = { release->id_text, count_text };
        if (!store_query(store, "UPDATE collected_releases SET next_run = next_run + $2 "
                         "WHERE release = $1 RETURNING next_run", 2, params, copy_value, next,
                         d))
            return false;
        unsigned long first = strtoul(next, NULL, 10) - count;
        for (size_t j = i; j < batch->n; j++)
            if (analysed(batch, j) && batch->uploads[j]->release == release)
                batch->run[j] = first++;
    }
    return true;
}

/* The run's place in the folder's queue: its number and label.  */
static bool add_run(struct writer *writer, struct batch *batch, size_t i, struct diag *d)
{
    struct upload *upload = batch->uploads[i];
    char number[32];
    snprintf(number, sizeof number, "%lu", batch->run[i]);
    const char *queued[5] = { upload->release->id_text, number, upload->run_id,
                              upload->failed ? "1" : "0", upload->received };
    return store_add_fold(writer->store, queued, d);
}

static bool write_batch(struct writer *writer, struct batch *batch, struct diag *d)
{
    struct store *store = writer->store;
    memset(batch->claimed, 0, batch->n * sizeof *batch->claimed);
    memset(batch->run, 0, batch->n * sizeof *batch->run);
    if (!store_begin(store, d))
        return false;
    bool ok = claim_run_ids(store, batch, d) && number_runs(store, batch, d);
    bool any_run = false;
    for (size_t i = 0; ok && i < batch->n; i++) {
        struct upload *upload = batch->uploads[i];
        if (!batch->claimed[i])
            continue;
        ok = store_add_report(store, upload->release->id_text, upload->run_id,
                              upload->received, upload->body.data, upload->body.size, d);
        if (ok && !upload->interim) {
            ok = add_run(writer, batch, i, d);
            any_run = true;
        }
    }
    ok = ok && store_rows_flush(store, d);
    if (ok)
        ok = store_commit(store, d);
    if (!ok)
        store_rollback(store);
    else if (any_run)
        folder_wake(writer->folder);
    return ok;
}

/* ---- Answers --------------------------------------------------------------------- */

static void answer_stored(struct writer *writer, struct batch *batch)
{
    for (size_t i = 0; i < batch->n; i++) {
        struct upload *upload = batch->uploads[i];
        if (batch->claimed[i]) {
            upload_answer(upload, 201, 0, "stored %s", upload->run_id);
            atomic_fetch_add(&writer->stored, 1);
        } else {
            upload_answer(upload, 200, 0, "duplicate %s", upload->run_id);
            atomic_fetch_add(&writer->duplicates, 1);
        }
    }
}

static void answer_later(struct upload *upload, const char *why)
{
    upload_answer(upload, 503, STORE_RETRY_AFTER, "the collector cannot store reports now "
                  "(%s); try later", why);
}

/* The batch failed for the data of one report or more: each alone, so
   that only those are refused.  */
static void write_one_by_one(struct writer *writer, struct batch *batch)
{
    struct batch single = *batch;
    for (size_t i = 0; i < batch->n; i++) {
        struct diag d;
        single.uploads = &batch->uploads[i];
        single.claimed = &batch->claimed[i];
        single.run = &batch->run[i];
        single.n = 1;
        if (write_batch(writer, &single, &d)) {
            answer_stored(writer, &single);
        } else if (store_last_failure(writer->store) == STORE_FAILURE_DATA) {
            upload_answer(batch->uploads[i], 422, 0, "the store refuses this report's data: %s",
                          d.message);
            atomic_fetch_add(&writer->refused, 1);
        } else {
            answer_later(batch->uploads[i], "its store failed");
        }
    }
}

static void log_failure(const char *what, const struct diag *d)
{
    fprintf(stderr, "sampler-collect: %s: %s\n", what, d->message);
}

/* Makes sure the writer has a working connection; false if not now.  */
static bool connected(struct writer *writer)
{
    if (writer->store && !store_lost(writer->store))
        return true;
    struct diag d;
    bool ok = writer->store ? store_reconnect(writer->store, &d)
                            : store_open(&writer->store, writer->url, &d);
    bool was_up = atomic_exchange(&writer->store_up, ok);
    if (!ok && was_up)
        log_failure("the store is unavailable", &d);
    if (ok && !was_up)
        fprintf(stderr, "sampler-collect: the store is available again\n");
    return ok;
}

static void process(struct writer *writer, struct batch *batch)
{
    struct diag d;
    if (!connected(writer)) {
        for (size_t i = 0; i < batch->n; i++)
            answer_later(batch->uploads[i], "its store is unavailable");
    } else if (write_batch(writer, batch, &d)) {
        answer_stored(writer, batch);
    } else if (store_last_failure(writer->store) == STORE_FAILURE_DATA) {
        log_failure("a batch's data was refused; writing its reports one by one", &d);
        write_one_by_one(writer, batch);
    } else {
        atomic_fetch_add(&writer->failed_batches, 1);
        log_failure("storing a batch failed", &d);
        if (store_lost(writer->store))
            atomic_store(&writer->store_up, false);
        for (size_t i = 0; i < batch->n; i++)
            answer_later(batch->uploads[i], "its store failed");
    }
    atomic_fetch_add(&writer->batches, 1);
    for (size_t i = 0; i < batch->n; i++)
        batch->uploads[i]->answered(batch->uploads[i]);
}

static void *writer_thread(void *context)
{
    struct writer *writer = context;
    struct batch batch = { 0 };
    batch.uploads = xcalloc(writer->batch_max, sizeof *batch.uploads);
    batch.claimed = xcalloc(writer->batch_max, sizeof *batch.claimed);
    batch.run = xcalloc(writer->batch_max, sizeof *batch.run);
    pthread_mutex_lock(&writer->lock);
    for (;;) {
        while (!writer->head && !writer->stopping) {
            if (atomic_load(&writer->store_up)) {
                pthread_cond_wait(&writer->wake, &writer->lock);
            } else {
                /* Down: try the store again every second.  */
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_sec += 1;
                pthread_cond_timedwait(&writer->wake, &writer->lock, &until);
                pthread_mutex_unlock(&writer->lock);
                connected(writer);
                pthread_mutex_lock(&writer->lock);
            }
        }
        if (!writer->head)
            break;
        batch.n = 0;
        while (writer->head && batch.n < writer->batch_max) {
            struct upload *upload = writer->head;
            writer->head = upload->next;
            upload->next = NULL;
            batch.uploads[batch.n++] = upload;
        }
        if (!writer->head)
            writer->tail = NULL;
        writer->queued -= batch.n;
        pthread_mutex_unlock(&writer->lock);
        process(writer, &batch);
        pthread_mutex_lock(&writer->lock);
    }
    pthread_mutex_unlock(&writer->lock);
    free(batch.uploads);
    free(batch.claimed);
    free(batch.run);
    return NULL;
}

bool writer_start(struct writer *writer, const char *url, unsigned batch_max,
                  size_t queue_max, struct folder *folder, struct diag *d)
{
    memset(writer, 0, sizeof *writer);
    writer->folder = folder;
    writer->url = xstrdup(url);
    writer->batch_max = batch_max;
    writer->queue_max = queue_max;
    pthread_mutex_init(&writer->lock, NULL);
    pthread_cond_init(&writer->wake, NULL);
    if (!store_open(&writer->store, url, d))
        return false;
    atomic_store(&writer->store_up, true);
    if (pthread_create(&writer->thread, NULL, writer_thread, writer) != 0)
        return diag_fail(d, "cannot start the writer's thread");
    writer->started = true;
    return true;
}

bool writer_submit(struct writer *writer, struct upload *upload)
{
    if (!atomic_load(&writer->store_up)) {
        answer_later(upload, "its store is unavailable");
        return false;
    }
    pthread_mutex_lock(&writer->lock);
    bool full = writer->queued >= writer->queue_max;
    if (!full) {
        upload->next = NULL;
        if (writer->tail)
            writer->tail->next = upload;
        else
            writer->head = upload;
        writer->tail = upload;
        writer->queued++;
        pthread_cond_signal(&writer->wake);
    }
    pthread_mutex_unlock(&writer->lock);
    if (full)
        upload_answer(upload, 503, STORE_RETRY_AFTER, "the collector is busy (%zu reports wait "
                      "for its store); try later", writer->queue_max);
    return !full;
}

void writer_stop(struct writer *writer)
{
    if (writer->started) {
        pthread_mutex_lock(&writer->lock);
        writer->stopping = true;
        pthread_cond_signal(&writer->wake);
        pthread_mutex_unlock(&writer->lock);
        pthread_join(writer->thread, NULL);
    }
    store_close(writer->store);
    free(writer->url);
    pthread_mutex_destroy(&writer->lock);
    pthread_cond_destroy(&writer->wake);
}
