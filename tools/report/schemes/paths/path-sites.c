/* paths: Ball-Larus path profiles of a function's regions (merge kind
   PATH_TABLE; pathtable.h).  A function's paths are no predicates of
   their own: they differ from run to run, and rank needs a fixed set.
   `sampler-report paths' shows them (docs/paths.md).  */
#include "schemes/paths/pathtable.h"
#include "schemes/registry.h"

static bool paths_read_site(const struct record_reader *reader, struct site *site,
                            struct diag *d)
{
    if (site->n_counters < PATH_SLOT_PAIRS + 2
        || (site->n_counters - PATH_SLOT_PAIRS) % 2 != 0)
        return record_fail(reader, d,
                           "%s site %u has %u counters; a table of K paths has "
                           "2 + 2K, K >= 1",
                           scheme_name(site->scheme), site->index, site->n_counters);
    return true;
}

static unsigned paths_count(const struct site *site)
{
    (void) site;
    return 0;
}

static void paths_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    (void) k;
    buffer_append_text(out, site->predicate);
}

const struct scheme_report SCHEME_REPORT(PATHS) = {
    .read_site = paths_read_site,
    .predicate_count = paths_count,
    .predicate_text = paths_text,
};
