/* scalar-pairs: the six relations of an assigned x to y, "x < y" ..., from
   the <, ==, > counters of the site "x ? y".  */
#include <string.h>

#include "schemes/registry.h"

static unsigned pairs_count(const struct site *site)
{
    (void) site;
    return N_RELATIONS;
}

static bool pairs_true(const struct site *site, const unsigned long long *values, unsigned k)
{
    (void) site;
    return relation_true(values, k);
}

/* "x ? y" with the operator in the middle.  */
static void pairs_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    const char *operator = relation_operator(k);
    const char *mark = strstr(site->predicate, " ? ");
    if (!mark) {
        buffer_append_text(out, "(");
        buffer_append_text(out, site->predicate);
        buffer_append_text(out, ") ");
        buffer_append_text(out, operator);
        buffer_append_text(out, " other");
        return;
    }
    buffer_append(out, site->predicate, (size_t) (mark - site->predicate));
    buffer_append_text(out, " ");
    buffer_append_text(out, operator);
    buffer_append_text(out, " ");
    buffer_append_text(out, mark + 3);
}

const struct scheme_report SCHEME_REPORT(SCALAR_PAIRS) = {
    .predicate_count = pairs_count,
    .predicate_true = pairs_true,
    .predicate_text = pairs_text,
    .tie_group = 1,
};
