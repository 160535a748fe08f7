/* Quotas (docs/collect.md): reports an hour per upload key and per client
   address, as token buckets that hold an hour's worth and refill
   steadily.  Buckets live in memory: a restart forgets them.  */
#ifndef SAMPLER_COLLECT_QUOTA_H
#define SAMPLER_COLLECT_QUOTA_H

#include <pthread.h>
#include <stddef.h>

#include "support/util.h"

struct quota_bucket {
    char *name;
    double tokens;
    double updated;              /* seconds, CLOCK_MONOTONIC */
    double per_hour;
};

struct quota_table {
    pthread_mutex_t lock;
    struct quota_bucket *buckets;
    size_t n, capacity;
    struct name_index by_name;
};

void quota_table_init(struct quota_table *table);
void quota_table_free(struct quota_table *table);

/* Takes one report from NAME's bucket of PER_HOUR reports an hour (0:
   no quota).  Returns 0 when taken, else the seconds until the bucket
   has one again (the Retry-After of a 429).  */
unsigned quota_take(struct quota_table *table, const char *name, unsigned long per_hour);

#endif
