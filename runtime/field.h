/* The field side of a release (docs/remote.md): the runtime of a program
   that carries a release configuration, run by someone who set no report
   destination, writes its reports into a bounded per-user store, after
   consent, in the form that leaves the machine.  field.c decides and
   prepares that at startup; store.c keeps the store's bound when reports
   are written, from a signal handler too.  */
#ifndef SAMPLER_FIELD_H
#define SAMPLER_FIELD_H

#include <stdbool.h>

#include "release.h"
#include "sampler-abi.h"
#include "sampler-internal.h"

/* ---- field.c ------------------------------------------------------------ */

/* The release configuration the program carries (the executable's, else
   the first library's that has one), parsed; NULL when there is none or
   it does not parse (one warning).  */
const struct sampler_release *sampler_release_carried(void);

/* Called by the configuration once the environment is parsed and valid:
   with a release configuration, fills in what the environment (its
   values from LOOKUP, as sampler_config_parse had them) left out.
   When the environment names no destination (SAMPLER_FILE,
   SAMPLER_REPORT_FD), the run is a field run: it samples only with
   consent, and its reports go to the release's store.  */
void sampler_field_configure(struct sampler_config *config, sampler_lookup *lookup,
                             void *context);

/* Whether this process writes field reports (set once, at configuration).  */
bool sampler_field_active(void);

/* The store directory of a field run.  */
const char *sampler_field_store(void);

/* What a report shows of PATH: in a field report its last component only,
   else PATH itself.  */
const char *sampler_field_shown_path(const char *path);

/* Whether a report carries site SITE of UNIT: in a field report, only
   sites of the schemes the release sends (none of a unit that does not
   say its sites' schemes).  */
bool sampler_field_site_sent(const struct __sampler_unit *unit, unsigned site);

/* Whether a field report carries the observations of scheme ID.  */
bool sampler_field_scheme_sent(unsigned id);

/* After the report at normal exit of a field run: starts sampler-submit,
   detached, when the release asks for it and a round is due.  */
void sampler_field_after_exit_report(void);

/* ---- store.c --------------------------------------------------------------

   Writing a field report: sampler_store_begin takes the store's lock and
   the count of reports dropped since the last report (which the new one
   carries); sampler_store_end, after the report is written (or not),
   clears that count if it was written, drops the oldest reports beyond
   the bound (never the one just written: its name is KEEP), counts them
   for the next report, and releases the lock.  System calls only.  */
struct sampler_store_session {
    int lock_fd;                  /* -1: the lock could not be taken */
    unsigned long long waiting;   /* drops not yet in any report */
};

void sampler_store_begin(struct sampler_store_session *session);
void sampler_store_end(struct sampler_store_session *session, bool written,
                       const char *keep);

#endif
