#include "schemes/registry.h"

#include <stdio.h>
#include <string.h>

#include "schemes/values/hotlist.h"

const struct scheme_info scheme_infos[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT)          \
    [SAMPLER_SCHEME_##ID] = { NAME, N_COUNTERS, SAMPLER_MERGE_##MERGE,        \
                              &SCHEME_REPORT(ID) },
#include "schemes.def"
};

bool site_counter_is_value(const struct site *site, unsigned c)
{
    switch (scheme_infos[site->scheme].merge) {
    case SAMPLER_MERGE_MIN_MAX:
        return c != MIN_MAX_SLOT_COUNT;
    case SAMPLER_MERGE_HOT_LIST:
        return c >= HOT_SLOT_ENTRIES && (c - HOT_SLOT_ENTRIES) % 2 == 0;
    default:
        return false;
    }
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

/* Sets the site's value kind from the suffix its predicate ends with, one
   of KINDS ("x (signed)"); a predicate with none of them is bad input.  */
bool read_kind_suffix(const struct record_reader *reader, struct site *site,
                      const struct kind_suffix *kinds, size_t n_kinds, struct diag *d)
{
    size_t length = strlen(site->predicate);
    for (size_t i = 0; i < n_kinds; i++) {
        size_t suffix_length = strlen(kinds[i].suffix);
        if (length >= suffix_length
            && strcmp(site->predicate + length - suffix_length, kinds[i].suffix) == 0) {
            site->bound_kind = kinds[i].kind;
            return true;
        }
    }
    char expected[128] = "";
    for (size_t i = 0; i < n_kinds; i++)
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%s%s",
                 i == 0 ? "" : i + 1 == n_kinds ? " or " : ", ", kinds[i].suffix);
    char shown[128];
    return record_fail(reader, d, "%s site %u: predicate '%s' does not end with %s",
                       scheme_name(site->scheme), site->index,
                       quote_for_message(site->predicate, length, shown, sizeof shown),
                       expected);
}

/* "x (signed)", "f (...) (unsigned)", "p (pointer)": signed values read
   as signed, the others as unsigned.  The slots are 3 + 2K: sampled,
   tau-log2, lock, then K (value, count) pairs.  */
bool hot_list_read_site(const struct record_reader *reader, struct site *site,
                             struct diag *d)
{
    static const struct kind_suffix kinds[] = {
        { "(signed)", BOUND_SIGNED },
        { "(unsigned)", BOUND_UNSIGNED },
        { "(pointer)", BOUND_UNSIGNED },
    };
    if (site->n_counters < HOT_SLOT_ENTRIES + 2
        || (site->n_counters - HOT_SLOT_ENTRIES) % 2 != 0)
        return record_fail(reader, d,
                           "%s site %u has %u counters; a hot-list of K values has "
                           "3 + 2K, K >= 1",
                           scheme_name(site->scheme), site->index, site->n_counters);
    return read_kind_suffix(reader, site, kinds, sizeof kinds / sizeof kinds[0], d);
}
