/* float-kinds: one predicate per class, "x is -inf".  */
#include "schemes/registry.h"

static void float_kind_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    buffer_append_text(out, site->predicate);
    buffer_append_text(out, " is ");
    buffer_append_text(out, site->counter_names[k]);
}

const struct scheme_report SCHEME_REPORT(FLOAT_KINDS) = {
    .predicate_text = float_kind_text,
};
