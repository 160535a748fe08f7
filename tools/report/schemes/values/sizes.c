/* sizes: hot-lists of the sizes of memory and string operations and
   allocations (merge kind HOT_LIST), read as values' are; no predicates
   (see schemes/values.c).  `sampler-report values' shows them.  */
#include "schemes/values/hotlist.h"
#include "schemes/registry.h"

static unsigned sizes_count(const struct site *site)
{
    (void) site;
    return 0;
}

static void sizes_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    (void) k;
    buffer_append_text(out, site->predicate);
}

const struct scheme_report SCHEME_REPORT(SIZES) = {
    .read_site = hot_list_read_site,
    .predicate_count = sizes_count,
    .predicate_text = sizes_text,
};
