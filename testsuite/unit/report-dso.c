/* An instrumented DSO, by hand: one unit registered from its constructor
   and unregistered from its destructor, as the plugin does; one site with
   one counter, bumped by report_dso_bump().  Built twice:
   without the runtime (the loading program provides it) and linked with
   libsampler.so (for a program that is not instrumented itself).  */
#include "sampler-abi.h"

static const unsigned dso_offsets[] = { 0, 1 };
static unsigned long long dso_counters[1];
static struct __sampler_unit dso_unit = {
    .version = SAMPLER_ABI_VERSION, .n_sites = 1, .n_counters = 1,
    .signature = "d50d50d50d50d50d50d50d50d50d50d5", .source = "dso.c",
    .site_offsets = dso_offsets, .counters = dso_counters,
};

__attribute__((constructor)) static void register_dso_unit(void)
{
    __sampler_register_unit(&dso_unit);
}

__attribute__((destructor)) static void unregister_dso_unit(void)
{
    __sampler_unregister_unit(&dso_unit);
}

__attribute__((visibility("default"))) void report_dso_bump(void)
{
    __atomic_fetch_add(&dso_counters[0], 9, __ATOMIC_RELAXED);
}
