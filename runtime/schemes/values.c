/* values: a hot-list of the values a site sees (merge kind HOT_LIST), a
   concise sample (Gibbons and Matias, SIGMOD 1998) as value profiles keep
   them (Burrows et al., ASPLOS 2000).  A site's slots are a hot-list of
   the capacity K the plugin gave it (3 + 2K slots), kept by hot-list.h,
   whose list the subpaths scheme shares; docs/values.md has the algorithm
   and its analysis.  */
#include "hot-list.h"

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

_Atomic bool sampler_indirect_targets_seen;

/* A call through a function pointer: its target into the hot-list, and
   reports from now on list the loaded objects that name it.  */
SAMPLER_EXPORT SAMPLER_PRESERVING void
__sampler_indirect_call(unsigned long long *slots, unsigned long long target,
                        unsigned long capacity)
{
    UNLESS_FIRST_VISIT_OF_THREAD(sampler_started_out_of_line_preserving);
    if (!atomic_load_explicit(&sampler_indirect_targets_seen, memory_order_relaxed))
        atomic_store_explicit(&sampler_indirect_targets_seen, true, memory_order_relaxed);
    observe_value(slots, target, capacity);
    SAMPLER_SET_COUNTDOWN(sampler_countdown_next_preserving());
}
