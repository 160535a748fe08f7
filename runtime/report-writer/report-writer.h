/* The report writer's parts, shared within runtime/report-writer/ only.

   writer.c   when reports are due, the sequence of one process image's
              reports, the descriptor destination, and the entry points
              (exit, exec, fork, reset, sampler_dump)
   lock.c     crash-safe writing: the lock a signal handler can wait for
              without blocking for good, and the signals held while a
              report is written
   files.c    naming report files and putting them in place atomically
   records.c  what a report says, record by record (report-format.md)
   output.c   the buffered output all of them write through  */
#ifndef SAMPLER_REPORT_WRITER_H
#define SAMPLER_REPORT_WRITER_H

#include <signal.h>

#include "sampler-internal.h"
#include "output.h"

/* ---- records.c ----------------------------------------------------------- */

/* What the first records say about the report itself.  */
struct sampler_report_header {
    enum sampler_ending ending;
    int value;                      /* the status or signal of the ending */
    unsigned long long interim;     /* an interim report's number, from 1 */
    unsigned long long resets;      /* sampler_reset calls so far */
    long parent;                    /* the pid forked from; 0: none */
    const unsigned char *run_id;    /* the sequence's, SAMPLER_RUN_ID_BYTES */
    unsigned long long dropped;     /* a field report's `dropped' record */
};

/* Writes the whole report, from the first record to `end', and flushes.  */
void sampler_report_records(struct sampler_output *out, const struct sampler_config *config,
                            const struct sampler_report_header *header);

/* ---- lock.c -------------------------------------------------------------- */

/* Takes the report lock; false when the calling thread holds it already,
   or, from a signal handler, when another thread keeps it too long.
   Outside a signal handler, the lock goes to waiting handlers first.  */
bool sampler_report_acquire(bool from_signal);
void sampler_report_release(void);

/* The signals blocked while a report is written (see lock.c).  */
struct sampler_quiet_signals {
    sigset_t previous_mask;
    sigset_t pending_before;
};
void sampler_quiet_signals_begin(struct sampler_quiet_signals *quiet, bool block_fatal);
void sampler_quiet_signals_end(struct sampler_quiet_signals *quiet);

/* ---- files.c ------------------------------------------------------------- */

/* Writes the report to the file SAMPLER_FILE names, in place of the
   sequence's previous report if that is still there (under the lock).
   Returns 0, or -1 after a warning.  */
int sampler_report_to_file(struct sampler_output *out, const struct sampler_config *config,
                           const struct sampler_report_header *header);

/* The next report starts a new file (a new sequence).  */
void sampler_report_file_forget_previous(void);

/* The name of the sequence's last report file (after a successful
   sampler_report_to_file, the report just written).  */
const char *sampler_report_file_previous(void);

/* ---- writer.c ------------------------------------------------------------ */

/* The warning for a failed report to DESTINATION (quoted if QUOTE): why,
   from ERROR, or REASON if given.  Silent while an interim report fails
   again as the last one did.  */
void sampler_report_warn_cannot_write(const char *destination, bool quote, int error,
                                      const char *reason);

#endif
