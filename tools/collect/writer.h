/* The writer: one thread with its own connection to the store, taking the
   checked uploads in batches (group commit).  A batch is one transaction:
   each report's run id claimed (a run id stored before, in any release,
   makes the report a duplicate), the report kept as received and its
   run's place in the folder's queue, numbered and labelled (folder.h: the
   folder analyses the run and folds it); then the commit,
   and only then each upload's answer: 201 "stored", 200 "duplicate".  The
   report as received is the record: all else is derived from it.  When the store cannot
   take the batch (down, restarting, its disk full), every upload of it is
   answered 503 with Retry-After, and nothing of it is stored; a report
   whose own data the store refuses is found by writing the batch's
   reports one at a time, and refused for good (422).  */
#ifndef SAMPLER_COLLECT_WRITER_H
#define SAMPLER_COLLECT_WRITER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "folder.h"
#include "store.h"
#include "upload.h"

struct writer {
    char *url;
    struct store *store;
    pthread_t thread;
    bool started;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct upload *head, *tail;
    size_t queued, queue_max;
    unsigned batch_max;
    bool stopping;
    atomic_bool store_up;
    struct folder *folder;           /* woken when runs are stored */
    /* What it did, for the log and the status page.  */
    atomic_ulong stored, duplicates, refused, batches, failed_batches;
};

/* Connects to URL and starts the thread; it wakes FOLDER.  */
bool writer_start(struct writer *writer, const char *url, unsigned batch_max,
                  size_t queue_max, struct folder *folder, struct diag *d);

/* Queues UPLOAD (checked by upload_finish); its `answered' is called from
   the writer's thread once its answer is set.  False, with the answer
   set to 503, when the queue is full or the store is down.  */
bool writer_submit(struct writer *writer, struct upload *upload);

/* Answers what is queued, then stops the thread.  */
void writer_stop(struct writer *writer);

#endif
