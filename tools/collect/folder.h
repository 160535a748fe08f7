/* The folder: a thread with its own connection to the store that turns
   the runs the writer stored into the schema's rows and keeps the
   aggregates current (docs/schema.md, "Keeping the ranking current").
   The writer stores each report as received with its run's row and a row
   in fold_queue, and wakes the folder; at most once per interval (a
   second by default), the folder takes up to a batch of queued runs, reads
   each report again (it passed the strict reader when it arrived), inserts
   its observations, hot-lists, path counts and subpaths (sqltables.h),
   marks it in run_folds and folds the batch (fold.sql, fold-totals.sql),
   all in one transaction.  The uploads' transactions stay small (a few
   rows per report), and a fold of many runs costs little more than one of
   a few.  What a crash leaves queued is folded when the service starts
   again; a backlog, when reports arrive faster than the store takes their
   rows, is folded batch after batch.  */
#ifndef SAMPLER_COLLECT_FOLDER_H
#define SAMPLER_COLLECT_FOLDER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "releases.h"
#include "combining/run-adder.h"
#include "store.h"
#include "input/symbols.h"

struct release_adder {
    struct release *release;
    struct run_adder adder;
};

struct folder {
    char *url;
    struct store *store;
    struct registry *registry;
    unsigned batch_max;          /* runs per fold, at most */
    size_t report_max;
    struct release_adder *adders;
    size_t n_adders;
    struct symbol_namer namer;   /* reads no file: reports must not name them */
    pthread_t thread;
    bool started;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool due, stopping;
    unsigned interval_ms;
    atomic_ulong folds, failures, folded_runs;
    atomic_ulong generation;     /* folds done: the pages' cache is of one */
    /* Held while a fold runs, and by the eliminator while it eliminates:
       its steps read run_folds and observations, which a fold landing
       between two of them would change under it (PostgreSQL's statements
       each see what is committed when they start).  The service's.  */
    pthread_mutex_t *analysis_lock;
};

bool folder_start(struct folder *folder, const char *url, struct registry *registry,
                  unsigned interval_ms, unsigned batch_max, size_t report_max,
                  pthread_mutex_t *analysis_lock, struct diag *d);

/* Runs were stored: a fold is due.  */
void folder_wake(struct folder *folder);

/* Folds a last batch, then stops the thread.  */
void folder_stop(struct folder *folder);

#endif
