/* values: hot-lists of the values of assignments and call results (merge
   kind HOT_LIST; hotlist.h).  A site's values are no predicates of its
   own: they differ from run to run, and rank needs a fixed set (see
   docs/values.md).  `sampler-report values' shows them.  */
#include "schemes/values/hotlist.h"
#include "schemes/registry.h"

static unsigned values_count(const struct site *site)
{
    (void) site;
    return 0;
}

static void values_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    (void) k;
    buffer_append_text(out, site->predicate);
}

const struct scheme_report SCHEME_REPORT(VALUES) = {
    .read_site = hot_list_read_site,
    .predicate_count = values_count,
    .predicate_text = values_text,
};
