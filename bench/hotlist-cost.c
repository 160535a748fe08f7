/* The cost of a hot-list update (the values scheme's observation,
   __sampler_observe_value), in instructions, for three streams of
   UPDATES values into one site of capacity 16:

     hit       eight values in turn: every value is in the list, tau 1
     zipf      ranks 1..1000 with weights 1/r^1.1 (zipf-rank.h): the
               list full, tau high, most values tossed away, thinning now
               and then
     distinct  every value new: the worst case, tau doubling often
     cold      as hit, but each update to the next of COLD_SITES sites
               (2.2 MB of lists, beyond the caches nearest the core), as
               in a program, where a site's list is seldom in cache at
               its next sample

   Run under callgrind (see the Makefile's `hotlist' target), which counts
   the instructions of each call of __sampler_observe_value with what it
   calls (the coin tosses); the figure per update is that total over
   UPDATES.  Run plainly, it prints nanoseconds per update.  */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sampler.h"
#include "sampler-abi.h"
#include "../testsuite/schemes/values/zipf-rank.h"

enum { UPDATES = 1000000, CAPACITY = 16, RANKS = 1000, COLD_SITES = 8192 };
enum { SITE_SLOTS = 3 + 2 * CAPACITY };

static unsigned long long slots[COLD_SITES * SITE_SLOTS];
static uint64_t cumulative[RANKS + 1];   /* weights scaled by 10^9, summed */

int main(int argc, char **argv)
{
    if (argc != 2 || sampler_sparsity() == 0) {
        fprintf(stderr, "usage: SAMPLER_SPARSITY=1 hotlist-cost hit|zipf|distinct|cold\n");
        return 2;
    }
    SAMPLER_COUNTDOWN = __sampler_thread_start();   /* the thread's generator */
    for (int r = 1; r <= RANKS; r++)
        cumulative[r] = cumulative[r - 1] + (uint64_t)(1e9 * pow(r, -1.1));
    unsigned long long *values = malloc(UPDATES * sizeof *values);
    if (values == NULL)
        return 1;
    for (uint64_t i = 0; i < UPDATES; i++)
        values[i] = strcmp(argv[1], "hit") == 0 || strcmp(argv[1], "cold") == 0 ? i % 8
                    : strcmp(argv[1], "zipf") == 0 ? (unsigned long long)zipf_rank(cumulative,
                                                                                    RANKS, i)
                    : i;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    /* Sites visited in a scattered order (a stride prime to their number),
       so that no prefetcher guesses the next list.  */
    unsigned long stride = strcmp(argv[1], "cold") == 0 ? 4099 : 0;
    for (uint64_t i = 0; i < UPDATES; i++)
        __sampler_observe_value(slots + (i * stride) % COLD_SITES * SITE_SLOTS, values[i],
                                CAPACITY);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ns = (double)(end.tv_sec - start.tv_sec) * 1e9 + (double)(end.tv_nsec - start.tv_nsec);
    printf("hotlist-update-%s %.1f ns (tau 2^%llu)\n", argv[1], ns / UPDATES, slots[1]);
    free(values);
    return 0;
}
