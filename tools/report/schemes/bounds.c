/* bounds: comparisons with 0 of a variable's least or greatest value,
   from its count, min and max slots (merge kind MIN_MAX).

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
