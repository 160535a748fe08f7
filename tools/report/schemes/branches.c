/* branches: a two-way branch's predicates are P (its true counter) and !P
   (false); a switch has one per arm, "switch (x): case 1".  */
#include <string.h>

#include "schemes/registry.h"

static bool is_two_way_branch(const struct site *site)
{
    return site->n_counters == 2 && strcmp(site->counter_names[0], "false") == 0
           && strcmp(site->counter_names[1], "true") == 0;
}

static bool branch_true(const struct site *site, const unsigned long long *values, unsigned k)
{
    /* A two-way branch lists P (true) first, then !P.  */
    if (is_two_way_branch(site))
        return values[1 - k] != 0;
    return values[k] != 0;
}

static void branch_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    if (is_two_way_branch(site)) {
        if (k == 0) {
            buffer_append_text(out, site->predicate);
        } else {
            buffer_append_text(out, "!(");
            buffer_append_text(out, site->predicate);
            buffer_append_text(out, ")");
        }
    } else {
        buffer_append_text(out, site->predicate);
        buffer_append_text(out, ": ");
        buffer_append_text(out, site->counter_names[k]);
    }
}

/* The counters are named false,true in slot order; people read them as
   "true, false", so that order is the one shown.  */
static unsigned branch_counter_at(const struct site *site, unsigned position)
{
    return is_two_way_branch(site) ? 1 - position : position;
}

const struct scheme_report SCHEME_REPORT(BRANCHES) = {
    .predicate_true = branch_true,
    .predicate_text = branch_text,
    .counter_at = branch_counter_at,
    .tie_group = -1,
};
