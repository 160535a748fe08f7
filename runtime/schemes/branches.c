/* branches: the outcome of a conditional (a switch's arm is counted by
   __sampler_count, sample.c).  */
#include "sample.h"
#include "schemes.h"

/* A branch's outcome is a truth value, but one computed from uninitialized
   operands may arrive as any bits: whatever they are, one of the two
   counters.  */
SAMPLER_EXPORT SAMPLER_PRESERVING void __sampler_branch(unsigned long long *counters,
                                                        unsigned long outcome)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    bump(counters, outcome != 0);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(BRANCHES) = { 0 };
