#include "schemes.h"

#include <string.h>

const struct scheme_info scheme_infos[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT)          \
    [SAMPLER_SCHEME_##ID] = { NAME, N_COUNTERS, SAMPLER_MERGE_##MERGE,        \
                              &SCHEME_REPORT(ID) },
#include "schemes.def"
};

bool site_counter_is_value(const struct site *site, unsigned c)
{
    return scheme_infos[site->scheme].merge == SAMPLER_MERGE_MIN_MAX
           && c != MIN_MAX_SLOT_COUNT;
}

/* Bit 0, 1, 2 of "which of <, ==, > were seen": a relation is true when
   any of its counters is nonzero.  */
static const struct {
    const char *operator;
    unsigned seen_mask;
} relations[N_RELATIONS] = {
    { "<", 1 }, { ">=", 6 }, { "==", 2 }, { "!=", 5 }, { ">", 4 }, { "<=", 3 },
};

const char *relation_operator(unsigned k)
{
    return relations[k].operator;
}

bool relation_true(const unsigned long long *values, unsigned k)
{
    unsigned seen = (values[0] != 0) | (values[1] != 0) << 1 | (values[2] != 0) << 2;
    return (seen & relations[k].seen_mask) != 0;
}

void buffer_append_text(struct byte_buffer *out, const char *text)
{
    buffer_append(out, text, strlen(text));
}
