/* sampler-submit: sends the reports of a user's release stores to their
   collectors (docs/remote.md).  */
#ifndef SAMPLER_SUBMIT_H
#define SAMPLER_SUBMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "release.h"

/* The protocol's limits (docs/remote.md): a report of at most this many
   bytes, sent as a body of at most SUBMIT_BODY_MAX bytes.  */
#define SUBMIT_REPORT_MAX (64LL << 20)
#define SUBMIT_BODY_MAX (16LL << 20)

/* What the command line asks of a sending round.  */
struct submit_options {
    bool dry_run;          /* show what would be sent; change nothing */
    bool force;            /* ignore the time of the next round */
    bool quiet;            /* messages to the store's log only */
    const char *collector; /* instead of the release's (NULL: the release's) */
    const char *ca_file;   /* trusted certificates (NULL: the system's) */
    long timeout;          /* seconds an upload may take, in all */
};

/* ---- store.c: the stores on disk ------------------------------------------ */

/* A report store: STORE/release, pending/, refused/, next-attempt,
   submit.log, submit.lock (runtime/store.c has the rest).  */
struct store {
    char path[4096];
    struct sampler_release release;
};

/* Reads PATH/release into STORE; false (with a message on stderr) when
   it is missing or bad.  */
bool store_open(struct store *store, const char *path);

/* Calls VISIT on every store under the user's state and cache directories
   (STATE/sampler/<product>/<version>/ holding a release file), in name
   order; returns false if one failed.  */
bool stores_visit(bool (*visit)(const char *path, void *context), void *context);

/* A pending report: its file name, size and modification time.  */
struct pending {
    char name[256];
    long long size;
    struct timespec mtime;
};

/* The reports in STORE/pending, oldest first (by time, then name): the
   array (malloc'd) and its length in *COUNT; NULL with *COUNT 0 when
   there is none or the directory cannot be read.  */
struct pending *store_pending(const struct store *store, size_t *count);

/* The sending state: when the next round is due, and how many rounds
   in a row failed.  */
struct submit_state {
    time_t next;
    unsigned failures;
};
void store_read_state(const struct store *store, struct submit_state *state);
void store_write_state(const struct store *store, const struct submit_state *state);

/* Appends a line, with the time, to STORE/submit.log (kept short), and
   to stderr unless QUIET.  */
void store_log(const struct store *store, bool quiet, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Moves a pending report to STORE/refused/ (which keeps the newest 20).  */
void store_refuse(const struct store *store, const char *name);

/* Takes STORE/submit.lock without waiting; -1 when another holds it.  */
int store_lock(const struct store *store);

/* Whether consent is given for the store's release, as the runtime
   decides it (release.h); *WHY says where the answer came from.  */
bool store_consent(const struct store *store, const char **why);

/* ---- upload.c: one report to the collector -------------------------------- */

enum answer {
    ANSWER_STORED,     /* stored durably now or before: delete it here */
    ANSWER_REFUSED,    /* this report will never be taken: keep it aside */
    ANSWER_RETIRED,    /* the release collects no more */
    ANSWER_LATER,      /* try again later, the report kept */
};

struct upload_result {
    enum answer answer;
    long retry_after;   /* seconds the collector asked to wait; 0: none */
    char message[768];  /* what happened, for the log */
};

/* The endpoint of COLLECTOR: COLLECTOR/v1/reports.  */
void upload_endpoint(const char *collector, char *url, size_t size);

/* Sends the report TEXT (LENGTH bytes) with run id RUN_ID to URL under
   KEY, and says what the collector answered.  */
void upload_report(const struct submit_options *options, const char *url, const char *key,
                   const char *run_id, const char *text, size_t length,
                   struct upload_result *result);

/* Prints the request upload_report would make.  */
bool upload_describe(const char *url, const char *key, const char *run_id, const char *text,
                     size_t length);

#endif
