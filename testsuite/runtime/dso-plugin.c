/* An instrumented library, built twice from this one source
   (libplugin-a.so, libplugin-b.so): the same unit, in two objects.  */
#include <sampler.h>

static unsigned long used;

void plugin_check(void) SAMPLER_SAMPLED;
void plugin_check(void) { used++; }

/* Calls plugin_check N times.  */
__attribute__((visibility("default"))) unsigned long plugin_run(int n)
{
    for (int i = 0; i < n; i++)
        plugin_check();
    return used;
}
