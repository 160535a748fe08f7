/* indirect-calls: hot-lists of the targets of calls through function
   pointers (merge kind HOT_LIST), read as values' are; no predicates (see
   schemes/values.c).  `sampler-report values' shows them by function name
   (symbols.h).  */
#include "schemes/values/hotlist.h"
#include "schemes/registry.h"

static unsigned indirect_calls_count(const struct site *site)
{
    (void) site;
    return 0;
}

static void indirect_calls_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    (void) k;
    buffer_append_text(out, site->predicate);
}

const struct scheme_report SCHEME_REPORT(INDIRECT_CALLS) = {
    .read_site = hot_list_read_site,
    .predicate_count = indirect_calls_count,
    .predicate_text = indirect_calls_text,
};
