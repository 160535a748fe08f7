/* returns: the six relations of a call's result to 0, "f (...) < 0" ...,
   from its <0, ==0, >0 counters.  */
#include "schemes/registry.h"

static unsigned returns_count(const struct site *site)
{
    (void) site;
    return N_RELATIONS;
}

static bool returns_true(const struct site *site, const unsigned long long *values, unsigned k)
{
    (void) site;
    return relation_true(values, k);
}

static void returns_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    buffer_append_text(out, site->predicate);
    buffer_append_text(out, " ");
    buffer_append_text(out, relation_operator(k));
    buffer_append_text(out, " 0");
}

const struct scheme_report SCHEME_REPORT(RETURNS) = {
    .predicate_count = returns_count,
    .predicate_true = returns_true,
    .predicate_text = returns_text,
    .tie_group = -1,
};
