/* A stored report's body (gzip, as received) inflated again: by the
   folder, which analyses the reports the writer stored, and by
   sampler-report --store.  */
#ifndef SAMPLER_COLLECT_INFLATE_H
#define SAMPLER_COLLECT_INFLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "support/util.h"

/* Inflates the gzip stream DATA (SIZE bytes) into OUT, at most MAX bytes;
   false with D saying why when it is damaged, has data after its end or
   inflates to more.  */
bool gzip_inflate(const void *data, size_t size, size_t max, struct byte_buffer *out,
                  struct diag *d);

#endif
