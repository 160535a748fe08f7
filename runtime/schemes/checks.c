/* checks: a call to a check function runs only when sampled, and its
   site's one counter counts the calls that ran; instrumented code calls
   __sampler_count (sample.c) for it.  Nothing else of its own.  */
#include "schemes.h"

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(CHECKS) = { 0 };
