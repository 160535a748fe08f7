/* The predicates of a site, by its scheme's hooks (schemes/registry.h,
   schemes/<scheme>.c).  */
#include "statistics/predicates.h"

#include "schemes/registry.h"

static const struct scheme_report *hooks(const struct site *site)
{
    return scheme_infos[site->scheme].report;
}

unsigned site_predicate_count(const struct site *site)
{
    if (hooks(site)->profile)
        return 0;
    if (hooks(site)->predicate_count)
        return hooks(site)->predicate_count(site);
    return site->n_counters;
}

bool site_observed_in_every_run(const struct site *site)
{
    return hooks(site)->observed_in_every_run;
}

bool site_predicate_true(const struct site *site, const unsigned long long *values, unsigned k)
{
    if (hooks(site)->predicate_true)
        return hooks(site)->predicate_true(site, values, k);
    return values[k] != 0;
}

void site_predicate_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    hooks(site)->predicate_text(site, k, out);
    buffer_append(out, "", 0);
}
