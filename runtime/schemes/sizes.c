/* sizes: the size arguments of memory and allocation calls, into a
   site's hot-list by __sampler_value (values.c).  Nothing else of its
   own.  */
#include "schemes.h"

const struct sampler_runtime_scheme SAMPLER_RUNTIME_SCHEME(SIZES) = { 0 };
