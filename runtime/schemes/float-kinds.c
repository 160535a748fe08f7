/* float-kinds: the class of an assigned floating-point value (NaN,
   infinities, normal, subnormal, zeros, by sign).  Its sample function
   takes a floating-point value: an ordinary call.  */
#include <float.h>
#include <math.h>

#include "sample.h"
#include "schemes.h"

/* VALUE arrives widened to long double, exactly; whether it was subnormal
   depends on the type it had in the program.  */
static long double smallest_normal(int source_type)
{
    switch (source_type) {
    case SAMPLER_FLOAT_TYPE_FLOAT:
        return FLT_MIN;
    case SAMPLER_FLOAT_TYPE_DOUBLE:
        return DBL_MIN;
    default:
        return LDBL_MIN;
    }
}

static enum sampler_float_kind float_kind(long double value, int source_type)
{
    bool negative = signbit(value);
    int class = fpclassify(value);

    if (class == FP_NORMAL && fabsl(value) < smallest_normal(source_type))
        class = FP_SUBNORMAL;
    switch (class) {
    case FP_NAN:
        return SAMPLER_FLOAT_NAN;
    case FP_INFINITE:
        return negative ? SAMPLER_FLOAT_NEG_INF : SAMPLER_FLOAT_POS_INF;
    case FP_ZERO:
        return negative ? SAMPLER_FLOAT_NEG_ZERO : SAMPLER_FLOAT_POS_ZERO;
    case FP_SUBNORMAL:
        return negative ? SAMPLER_FLOAT_NEG_SUBNORMAL : SAMPLER_FLOAT_POS_SUBNORMAL;
    default:
        return negative ? SAMPLER_FLOAT_NEG_NORMAL : SAMPLER_FLOAT_POS_NORMAL;
    }
}

SAMPLER_EXPORT void __sampler_observe_float_kind(unsigned long long *counters,
                                                 long double value,
                                                 int source_type)
{
    bump(counters, float_kind(value, source_type));
}

SAMPLER_EXPORT void __sampler_float_kind(unsigned long long *counters,
                                         long double value, int source_type)
{
    UNLESS_FIRST_VISIT_OF_THREAD(started);
    __sampler_observe_float_kind(counters, value, source_type);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next());
}

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(FLOAT_KINDS) = { 0 };
