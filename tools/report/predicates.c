#include "predicates.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The six relations of returns and scalar-pairs, from the counters <, ==, >
   (bit 0, 1, 2 of "which were seen").  */
static const struct {
    const char *operator;
    unsigned seen_mask;   /* true when any of these counters is nonzero */
} relations[] = {
    { "<", 1 }, { ">=", 6 }, { "==", 2 }, { "!=", 5 }, { ">", 4 }, { "<=", 3 },
};
enum { N_RELATIONS = sizeof relations / sizeof relations[0] };

/* Bounds predicates: comparisons with 0 of the least or greatest value.  */
enum bound_predicate { BOUND_BELOW, BOUND_AT_MOST, BOUND_ABOVE, BOUND_AT_LEAST,
                       BOUND_NONZERO, BOUND_ZERO };
static const enum bound_predicate signed_bounds[] = {
    BOUND_BELOW, BOUND_AT_MOST, BOUND_ABOVE, BOUND_AT_LEAST, BOUND_NONZERO,
};
static const enum bound_predicate unsigned_bounds[] = { BOUND_ZERO, BOUND_NONZERO };
static const char *const bound_operators[] = {
    [BOUND_BELOW] = "< 0", [BOUND_AT_MOST] = "<= 0", [BOUND_ABOVE] = "> 0",
    [BOUND_AT_LEAST] = ">= 0", [BOUND_NONZERO] = "!= 0", [BOUND_ZERO] = "== 0",
};

static bool is_two_way_branch(const struct site *site)
{
    return site->scheme == SCHEME_BRANCHES && site->n_counters == 2
           && strcmp(site->counter_names[0], "false") == 0
           && strcmp(site->counter_names[1], "true") == 0;
}

static enum bound_predicate bound_predicate_at(const struct site *site, unsigned k)
{
    return site->bound_kind == BOUND_UNSIGNED ? unsigned_bounds[k] : signed_bounds[k];
}

unsigned site_predicate_count(const struct site *site)
{
    switch (site->scheme) {
    case SCHEME_RETURNS:
    case SCHEME_SCALAR_PAIRS:
        return N_RELATIONS;
    case SCHEME_BOUNDS:
        return site->bound_kind == BOUND_UNSIGNED
               ? sizeof unsigned_bounds / sizeof unsigned_bounds[0]
               : sizeof signed_bounds / sizeof signed_bounds[0];
    case SCHEME_BRANCHES:
    case SCHEME_FLOAT_KINDS:
    case SCHEME_CHECKS:
    case SCHEME_FUNCTION_ENTRIES:
    case SCHEME_COUNT:
        break;
    }
    return site->n_counters;
}

bool site_observed_in_every_run(const struct site *site)
{
    return site->scheme == SCHEME_CHECKS || site->scheme == SCHEME_FUNCTION_ENTRIES;
}

bool site_observed(const struct site *site, const unsigned long long *values)
{
    if (site->scheme == SCHEME_BOUNDS)
        return values[BOUND_SLOT_COUNT] != 0;
    for (unsigned c = 0; c < site->n_counters; c++) {
        if (values[c])
            return true;
    }
    return false;
}

static double bits_to_double(uint64_t bits)
{
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* The sign of a bound's value: -1, 0 or 1; *KNOWN false for a NaN.  */
static int bound_sign(const struct site *site, uint64_t bits, bool *known)
{
    *known = true;
    switch (site->bound_kind) {
    case BOUND_SIGNED: {
        int64_t value;
        memcpy(&value, &bits, sizeof value);
        return (value > 0) - (value < 0);
    }
    case BOUND_DOUBLE: {
        double value = bits_to_double(bits);
        if (isnan(value)) {
            *known = false;
            return 0;
        }
        return (value > 0) - (value < 0);
    }
    case BOUND_UNSIGNED:
    case BOUND_NONE:
        break;
    }
    return bits != 0;
}

static bool bound_predicate_true(const struct site *site, const unsigned long long *values,
                                 unsigned k)
{
    if (values[BOUND_SLOT_COUNT] == 0)
        return false;
    bool min_known, max_known;
    int min = bound_sign(site, values[BOUND_SLOT_MIN], &min_known);
    int max = bound_sign(site, values[BOUND_SLOT_MAX], &max_known);
    if (!min_known || !max_known)
        return false;
    switch (bound_predicate_at(site, k)) {
    case BOUND_BELOW:
        return min < 0;
    case BOUND_AT_MOST:
        return min <= 0;
    case BOUND_ABOVE:
        return max > 0;
    case BOUND_AT_LEAST:
        return max >= 0;
    case BOUND_NONZERO:
        return min != 0 || max != 0;
    case BOUND_ZERO:
        return min == 0;
    }
    return false;
}

bool site_predicate_true(const struct site *site, const unsigned long long *values, unsigned k)
{
    switch (site->scheme) {
    case SCHEME_RETURNS:
    case SCHEME_SCALAR_PAIRS: {
        unsigned seen = (values[0] != 0) | (values[1] != 0) << 1 | (values[2] != 0) << 2;
        return (seen & relations[k].seen_mask) != 0;
    }
    case SCHEME_BOUNDS:
        return bound_predicate_true(site, values, k);
    case SCHEME_BRANCHES:
        /* A two-way branch lists P (true) first, then !P.  */
        if (is_two_way_branch(site))
            return values[1 - k] != 0;
        return values[k] != 0;
    case SCHEME_FLOAT_KINDS:
    case SCHEME_CHECKS:
    case SCHEME_FUNCTION_ENTRIES:
    case SCHEME_COUNT:
        break;
    }
    return values[k] != 0;
}

static void append(struct byte_buffer *out, const char *text)
{
    buffer_append(out, text, strlen(text));
}

/* "x ? y" of a scalar-pairs site with its operator in the middle.  */
static void append_pair(struct byte_buffer *out, const char *predicate, const char *operator)
{
    const char *mark = strstr(predicate, " ? ");
    if (!mark) {
        append(out, "(");
        append(out, predicate);
        append(out, ") ");
        append(out, operator);
        append(out, " other");
        return;
    }
    buffer_append(out, predicate, (size_t) (mark - predicate));
    append(out, " ");
    append(out, operator);
    append(out, " ");
    append(out, mark + 3);
}

void site_predicate_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    switch (site->scheme) {
    case SCHEME_RETURNS:
        append(out, site->predicate);
        append(out, " ");
        append(out, relations[k].operator);
        append(out, " 0");
        break;
    case SCHEME_SCALAR_PAIRS:
        append_pair(out, site->predicate, relations[k].operator);
        break;
    case SCHEME_BOUNDS: {
        /* The predicate is "name (kind)": the name alone is compared.  */
        const char *kind = strrchr(site->predicate, '(');
        size_t length = kind && kind > site->predicate ? (size_t) (kind - site->predicate - 1)
                                                       : strlen(site->predicate);
        buffer_append(out, site->predicate, length);
        append(out, " ");
        append(out, bound_operators[bound_predicate_at(site, k)]);
        break;
    }
    case SCHEME_BRANCHES:
        if (is_two_way_branch(site)) {
            if (k == 0) {
                append(out, site->predicate);
            } else {
                append(out, "!(");
                append(out, site->predicate);
                append(out, ")");
            }
        } else {
            append(out, site->predicate);
            append(out, ": ");
            append(out, site->counter_names[k]);
        }
        break;
    case SCHEME_FLOAT_KINDS:
        append(out, site->predicate);
        append(out, " is ");
        append(out, site->counter_names[k]);
        break;
    case SCHEME_FUNCTION_ENTRIES:
        append(out, site->predicate);
        append(out, " entered");
        break;
    case SCHEME_CHECKS:
        append(out, site->predicate);
        append(out, " ran");
        break;
    case SCHEME_COUNT:
        break;
    }
    buffer_append(out, "", 0);
}
