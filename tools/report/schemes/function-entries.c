/* function-entries: a function's entry; a sampled visit makes "f ()
   entered" true.  Observed in every run, as checks are.  */
#include "schemes/registry.h"

static void entries_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    (void) k;
    buffer_append_text(out, site->predicate);
    buffer_append_text(out, " entered");
}

const struct scheme_report SCHEME_REPORT(FUNCTION_ENTRIES) = {
    .predicate_text = entries_text,
    .observed_in_every_run = true,
};
