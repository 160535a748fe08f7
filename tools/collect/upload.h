/* One upload (docs/remote.md, "The upload protocol"): the gzip body
   inflated as it arrives, within the size limits and the service's memory
   budget; then the report read by sampler-report's strict reader and
   checked against its release: the run id of the header, the release it
   says it is from, every unit against the release's registered site
   tables.  What fails gets its answer here (400, 413, 422, 503); a report
   that passes goes to the writer (writer.h), which answers once its
   transaction has committed.  */
#ifndef SAMPLER_COLLECT_UPLOAD_H
#define SAMPLER_COLLECT_UPLOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include <zlib.h>

#include "releases.h"
#include "input/report-reader.h"
#include "support/util.h"

/* The memory all uploads may hold at once (compressed bodies and
   inflated reports): past it, an upload is answered 503.  */
struct memory_budget {
    atomic_size_t used;
    size_t limit;
};

struct upload_limits {
    size_t body_max;            /* the compressed body (413 past it) */
    size_t report_max;          /* the inflated report (413 past it) */
    struct memory_budget *budget;
};

struct upload {
    const struct upload_limits *limits;
    struct release *release;
    char run_id[33];             /* the Sampler-Run-Id header */
    /* The body as received (stored as it is), and the report inflated.  */
    struct byte_buffer body, text;
    z_stream inflater;
    bool inflating, inflated;
    size_t reserved;             /* of the memory budget */
    /* The report, once read and checked.  */
    struct run_report report;
    bool parsed;
    bool interim;                /* no exit record: stored, not analysed */
    bool failed;                 /* its label, by the release's rule */
    char received[24];           /* UTC, YYYY-MM-DD HH:MM:SS */
    /* The answer: HTTP status, its text's first line, Retry-After.  */
    unsigned status;
    char answer[768];
    unsigned retry_after;
    /* The writer's queue and what it calls when the answer is set.  */
    struct upload *next;
    void (*answered)(struct upload *upload);
    void *context;
};

/* Starts an upload for RELEASE with the header's RUN_ID.  */
void upload_init(struct upload *upload, const struct upload_limits *limits,
                 struct release *release, const char *run_id);

/* Sets the answer; returns false (for callers that refuse with it).  */
bool upload_answer(struct upload *upload, unsigned status, unsigned retry_after,
                   const char *format, ...) __attribute__((format(printf, 4, 5)));

/* Takes SIZE more bytes of the body; false when the upload is refused
   (its answer set).  */
bool upload_feed(struct upload *upload, const char *data, size_t size);

/* The body is complete: the report is read and checked, and labelled;
   false when refused (its answer set).  */
bool upload_finish(struct upload *upload);

void upload_free(struct upload *upload);

/* Whether TEXT is a run id: 32 lowercase hex digits.  */
bool run_id_valid(const char *text);

#endif
