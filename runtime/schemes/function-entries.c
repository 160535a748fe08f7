/* function-entries: a function's entry, counted in its site's one counter
   by __sampler_count (sample.c).  Nothing else of its own.  */
#include "schemes.h"

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(FUNCTION_ENTRIES) = { 0 };
