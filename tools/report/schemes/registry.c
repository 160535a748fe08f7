/* The registry as sampler-report knows it (registry.h): each scheme's
   line with its hooks, the dispatch to a site's merge kind, merge kind ADD
   and what several schemes share.  */
#include "schemes/registry.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

const struct scheme_info scheme_infos[SAMPLER_N_SCHEMES] = {
#define SAMPLER_SCHEME(ID, NAME, N_COUNTERS, COUNTERS, MERGE, TEXT)          \
    [SAMPLER_SCHEME_##ID] = { NAME, N_COUNTERS, SAMPLER_MERGE_##MERGE,        \
                              &SCHEME_REPORT(ID), &MERGE_KIND_REPORT(MERGE) },
#include "schemes.def"
};

const char *scheme_name(enum sampler_scheme_id scheme)
{
    return scheme < SAMPLER_N_SCHEMES ? scheme_infos[scheme].name : "?";
}

static const struct merge_kind_report *merging(const struct site *site)
{
    return scheme_infos[site->scheme].merging;
}

bool site_read_shape(const struct record_reader *reader, struct site *site, struct diag *d)
{
    const struct scheme_report *hooks = scheme_infos[site->scheme].report;
    if (merging(site)->read_site && !merging(site)->read_site(reader, site, d))
        return false;
    return !hooks->read_site || hooks->read_site(reader, site, d);
}

void site_combine(const struct site *site, unsigned long long *total,
                  const unsigned long long *from)
{
    merging(site)->combine(site, total, from);
}

bool site_observed(const struct site *site, const unsigned long long *values)
{
    return merging(site)->observed(site, values);
}

double site_samples(const struct site *site, const unsigned long long *values)
{
    return merging(site)->samples(site, values);
}

bool site_counter_is_value(const struct site *site, unsigned c)
{
    return merging(site)->slot_is_value(site, c);
}

bool site_counter_counts_visits(const struct site *site, unsigned c)
{
    return merging(site)->slot_counts_visits(site, c);
}

/* ---- Merge kind ADD: counters that count ------------------------------------- */

static void add_counters(const struct site *site, unsigned long long *total,
                         const unsigned long long *from)
{
    for (unsigned c = 0; c < site->n_counters; c++)
        total[c] = saturating_add(total[c], from[c]);
}

static bool any_counter(const struct site *site, const unsigned long long *values)
{
    for (unsigned c = 0; c < site->n_counters; c++) {
        if (values[c])
            return true;
    }
    return false;
}

double counters_sum(const struct site *site, const unsigned long long *values)
{
    double sum = 0;
    for (unsigned c = 0; c < site->n_counters; c++)
        sum += (double) values[c];
    return sum;
}

bool no_slot_is_value(const struct site *site, unsigned c)
{
    (void) site;
    (void) c;
    return false;
}

bool every_slot_counts_visits(const struct site *site, unsigned c)
{
    (void) site;
    (void) c;
    return true;
}

const struct merge_kind_report MERGE_KIND_REPORT(ADD) = {
    .combine = add_counters,
    .observed = any_counter,
    .samples = counters_sum,
    .slot_is_value = no_slot_is_value,
    .slot_counts_visits = every_slot_counts_visits,
};

/* ---- What schemes share ------------------------------------------------------- */

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
