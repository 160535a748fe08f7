/* returns: the sign of an integer or pointer result of a call.  */
#include "sample.h"
#include "schemes.h"

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_sign_signed(unsigned long long *counters, long long value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    bump(counters, THREE_WAY(value, 0));
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_sign_unsigned(unsigned long long *counters, unsigned long long value)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    bump(counters, value != 0 ? 2 : 1);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(RETURNS) = { 0 };
