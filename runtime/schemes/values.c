/* values: a hot-list of the values a site sees (merge kind HOT_LIST), a
   concise sample (Gibbons and Matias, SIGMOD 1998) as value profiles keep
   them (Burrows et al., ASPLOS 2000).  A site's slots are a hot-list of
   the capacity K the plugin gave it (3 + 2K slots), kept by hot-list.h,
   whose list the subpaths scheme shares; docs/values.md has the algorithm
   and its analysis.  */
#include "hot-list.h"
#include "schemes.h"

/* Records one sampled visit of a site with CAPACITY entries that saw
   VALUE.  */
static inline __attribute__((always_inline)) SAMPLER_PRESERVING void
observe_value(unsigned long long *slots, unsigned long long value, unsigned long capacity)
{
    bool entered;
    (void)hot_observe(slots, capacity, value, NULL, NULL, NULL, &entered);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_observe_value(unsigned long long *slots, unsigned long long value,
                        unsigned long capacity)
{
    observe_value(slots, value, capacity);
}

SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_value(unsigned long long *slots, unsigned long long value, unsigned long capacity)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    observe_value(slots, value, capacity);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

/* A pointer's value: reports then list the loaded objects and the heap
   and stack, which say where it pointed (indirect-calls.c).  */
SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_pointer_value(unsigned long long *slots, unsigned long long value,
                        unsigned long capacity)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    sampler_note_address_sampled();
    observe_value(slots, value, capacity);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(VALUES) = { 0 };
