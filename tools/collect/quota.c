/* Token buckets per key and per address (quota.h).  */
#include "quota.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Past this many buckets, the full ones (which hold no state) go.  */
enum { PRUNE_AT = 65536 };

void quota_table_init(struct quota_table *table)
{
    memset(table, 0, sizeof *table);
    pthread_mutex_init(&table->lock, NULL);
}

void quota_table_free(struct quota_table *table)
{
    for (size_t i = 0; i < table->n; i++)
        free(table->buckets[i].name);
    free(table->buckets);
    name_index_free(&table->by_name);
    pthread_mutex_destroy(&table->lock);
}

static double now_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) now.tv_sec + now.tv_nsec / 1e9;
}

static void refill(struct quota_bucket *bucket, double now)
{
    bucket->tokens += (now - bucket->updated) * bucket->per_hour / 3600;
    if (bucket->tokens > bucket->per_hour)
        bucket->tokens = bucket->per_hour;
    bucket->updated = now;
}

/* Drops the buckets that are full again, and rebuilds the index.  */
static void prune(struct quota_table *table, double now)
{
    size_t kept = 0;
    for (size_t i = 0; i < table->n; i++) {
        refill(&table->buckets[i], now);
        if (table->buckets[i].tokens >= table->buckets[i].per_hour)
            free(table->buckets[i].name);
        else
            table->buckets[kept++] = table->buckets[i];
    }
    table->n = kept;
    name_index_free(&table->by_name);
    for (size_t i = 0; i < table->n; i++)
        name_index_put(&table->by_name, table->buckets[i].name, i);
}

unsigned quota_take(struct quota_table *table, const char *name, unsigned long per_hour)
{
    if (per_hour == 0)
        return 0;
    double now = now_seconds();
    pthread_mutex_lock(&table->lock);
    size_t i;
    if (!name_index_find(&table->by_name, name, &i)) {
        if (table->n >= PRUNE_AT)
            prune(table, now);
        grow_array((void **) &table->buckets, &table->capacity, table->n + 1,
                   sizeof *table->buckets);
        i = table->n++;
        table->buckets[i] = (struct quota_bucket) { xstrdup(name), (double) per_hour, now,
                                                    (double) per_hour };
        /* The index keeps pointers to the names, which stay put.  */
        name_index_put(&table->by_name, table->buckets[i].name, i);
    }
    struct quota_bucket *bucket = &table->buckets[i];
    bucket->per_hour = (double) per_hour;
    refill(bucket, now);
    unsigned wait = 0;
    if (bucket->tokens >= 1)
        bucket->tokens -= 1;
    else
        wait = (unsigned) ceil((1 - bucket->tokens) * 3600 / bucket->per_hour);
    pthread_mutex_unlock(&table->lock);
    return wait;
}
