/* checks: a call to a check function; a sampled visit makes "P ran" true.
   It has no "not taken" counter, so it counts as observed in every run.  */
#include "schemes/registry.h"

static void checks_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    (void) k;
    buffer_append_text(out, site->predicate);
    buffer_append_text(out, " ran");
}

const struct scheme_report SCHEME_REPORT(CHECKS) = {
    .predicate_text = checks_text,
    .observed_in_every_run = true,
};
