/* subpaths: a basic block, whose counter counts the subpaths started
   there.  Its blocks' subpaths are in the report's own records
   (subpaths.c); a block is no predicate: `sampler-report subpaths' shows
   the hot subpaths.  */
#include "schemes/registry.h"

static unsigned subpaths_count(const struct site *site)
{
    (void) site;
    return 0;
}

static void subpaths_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    (void) k;
    buffer_append_text(out, site->predicate);
}

const struct scheme_report SCHEME_REPORT(SUBPATHS) = {
    .predicate_count = subpaths_count,
    .predicate_text = subpaths_text,
};
