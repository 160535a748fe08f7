/* bounds: comparisons with 0 of a variable's least or greatest value,
   from its count, min and max slots (merge kind MIN_MAX, which only bounds
   has: its slots are combined here too).

     signed or double   x < 0 (min < 0), x <= 0 (min <= 0), x > 0 (max > 0),
                        x >= 0 (max >= 0), x != 0 (min or max not 0)
     unsigned           x == 0 (min == 0), x != 0 (max > 0)

   Only the least and greatest value are kept, so "x == 0" is known only
   for unsigned variables; NaNs are not seen by these predicates
   (float-kinds sees them).  */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "schemes/registry.h"

/* The slots of a MIN_MAX site.  */
enum { MIN_MAX_SLOT_COUNT, MIN_MAX_SLOT_MIN, MIN_MAX_SLOT_MAX };

/* The runtime writes this count for a MIN_MAX site whose first
   observation was under way when the report was written: it means 0.  */
#define BOUND_COUNT_IN_PROGRESS UINT64_MAX

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

/* The predicate ends with the variable's kind: "n (signed)", "x (double)".  */
static bool bounds_read_site(const struct record_reader *reader, struct site *site,
                             struct diag *d)
{
    static const struct kind_suffix kinds[] = {
        { "(signed)", BOUND_SIGNED },
        { "(unsigned)", BOUND_UNSIGNED },
        { "(double)", BOUND_DOUBLE },
    };
    return read_kind_suffix(reader, site, kinds, sizeof kinds / sizeof kinds[0], d);
}

static enum bound_predicate bound_predicate_at(const struct site *site, unsigned k)
{
    return site->bound_kind == BOUND_UNSIGNED ? unsigned_bounds[k] : signed_bounds[k];
}

static unsigned bounds_count(const struct site *site)
{
    return site->bound_kind == BOUND_UNSIGNED
           ? sizeof unsigned_bounds / sizeof unsigned_bounds[0]
           : sizeof signed_bounds / sizeof signed_bounds[0];
}

static double bits_to_double(uint64_t bits)
{
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static int64_t bits_to_signed(uint64_t bits)
{
    int64_t value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* The sign of a bound's value: -1, 0 or 1; *KNOWN false for a NaN.  */
static int bound_sign(const struct site *site, uint64_t bits, bool *known)
{
    *known = true;
    switch (site->bound_kind) {
    case BOUND_SIGNED: {
        int64_t value = bits_to_signed(bits);
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

static bool bounds_true(const struct site *site, const unsigned long long *values, unsigned k)
{
    if (values[MIN_MAX_SLOT_COUNT] == 0)
        return false;
    bool min_known, max_known;
    int min = bound_sign(site, values[MIN_MAX_SLOT_MIN], &min_known);
    int max = bound_sign(site, values[MIN_MAX_SLOT_MAX], &max_known);
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

static void bounds_text(const struct site *site, unsigned k, struct byte_buffer *out)
{
    /* The predicate is "name (kind)": the name alone is compared.  */
    const char *kind = strrchr(site->predicate, '(');
    size_t length = kind && kind > site->predicate ? (size_t) (kind - site->predicate - 1)
                                                   : strlen(site->predicate);
    buffer_append(out, site->predicate, length);
    buffer_append_text(out, " ");
    buffer_append_text(out, bound_operators[bound_predicate_at(site, k)]);
}

const struct scheme_report SCHEME_REPORT(BOUNDS) = {
    .read_site = bounds_read_site,
    .predicate_count = bounds_count,
    .predicate_true = bounds_true,
    .predicate_text = bounds_text,
};

/* ---- Merge kind MIN_MAX ------------------------------------------------------ */

/* Whether A is below B.  For doubles, as the runtime orders them: -0 is
   below +0, and a NaN (kept only when nothing else was seen) loses to any
   number.  */
static bool bound_below(enum bound_kind kind, uint64_t a, uint64_t b)
{
    switch (kind) {
    case BOUND_SIGNED:
        return bits_to_signed(a) < bits_to_signed(b);
    case BOUND_DOUBLE: {
        double x = bits_to_double(a), y = bits_to_double(b);
        if (isnan(x) || isnan(y))
            return false;
        if (x == 0 && y == 0)
            return signbit(x) && !signbit(y);
        return x < y;
    }
    case BOUND_UNSIGNED:
    case BOUND_NONE:
        break;
    }
    return a < b;
}

/* Whether CANDIDATE should replace CURRENT as the minimum (LOWEST) or the
   maximum.  */
static bool bound_better(enum bound_kind kind, uint64_t candidate, uint64_t current,
                         bool lowest)
{
    if (kind == BOUND_DOUBLE && isnan(bits_to_double(current)))
        return !isnan(bits_to_double(candidate));
    return lowest ? bound_below(kind, candidate, current) : bound_below(kind, current, candidate);
}

/* Counts added, the least minimum and the greatest maximum, by the site's
   value kind.  */
static void combine_min_max(const struct site *site, unsigned long long *total,
                            const unsigned long long *values)
{
    unsigned long long count = values[MIN_MAX_SLOT_COUNT];
    if (count == BOUND_COUNT_IN_PROGRESS || count == 0)
        return;
    if (total[MIN_MAX_SLOT_COUNT] == 0) {
        total[MIN_MAX_SLOT_MIN] = values[MIN_MAX_SLOT_MIN];
        total[MIN_MAX_SLOT_MAX] = values[MIN_MAX_SLOT_MAX];
    } else {
        if (bound_better(site->bound_kind, values[MIN_MAX_SLOT_MIN], total[MIN_MAX_SLOT_MIN], true))
            total[MIN_MAX_SLOT_MIN] = values[MIN_MAX_SLOT_MIN];
        if (bound_better(site->bound_kind, values[MIN_MAX_SLOT_MAX], total[MIN_MAX_SLOT_MAX], false))
            total[MIN_MAX_SLOT_MAX] = values[MIN_MAX_SLOT_MAX];
    }
    total[MIN_MAX_SLOT_COUNT] = saturating_add(total[MIN_MAX_SLOT_COUNT], count);
}

static bool min_max_observed(const struct site *site, const unsigned long long *values)
{
    (void) site;
    return values[MIN_MAX_SLOT_COUNT] != 0;
}

static double min_max_samples(const struct site *site, const unsigned long long *values)
{
    (void) site;
    return (double) values[MIN_MAX_SLOT_COUNT];
}

static bool min_max_slot_is_value(const struct site *site, unsigned c)
{
    (void) site;
    return c != MIN_MAX_SLOT_COUNT;
}

static bool min_max_slot_counts_visits(const struct site *site, unsigned c)
{
    (void) site;
    return c == MIN_MAX_SLOT_COUNT;
}

const struct merge_kind_report MERGE_KIND_REPORT(MIN_MAX) = {
    .combine = combine_min_max,
    .observed = min_max_observed,
    .samples = min_max_samples,
    .slot_is_value = min_max_slot_is_value,
    .slot_counts_visits = min_max_slot_counts_visits,
};
