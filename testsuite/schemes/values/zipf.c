/* A Zipf stream: visit i (FROM <= i < TO, argv[1] and argv[2]) assigns v
   the value of rank r (1..200) with probability proportional to 1/r, from
   a hash of i (zipf-rank.h), so that two ranges make the stream of their
   union.  Prints how often each value was assigned ("VALUE COUNT" lines):
   the truth against which run-values-tests.sh checks the estimates.  Only
   draw() is instrumented (zipf.args).  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "zipf-rank.h"

enum { RANKS = 200 };
static uint64_t cumulative[RANKS + 1];   /* scaled weights, summed */
static unsigned long counts[RANKS + 1];

static int rank_of(uint64_t i)
{
    return zipf_rank(cumulative, RANKS, i);
}

volatile long sink;

static void __attribute__((noinline)) draw(uint64_t i)
{
    long v = 1000 + rank_of(i);
    sink += v;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    uint64_t from = strtoull(argv[1], NULL, 10), to = strtoull(argv[2], NULL, 10);
    for (int r = 1; r <= RANKS; r++)
        cumulative[r] = cumulative[r - 1] + 1000000 / r;
    for (uint64_t i = from; i < to; i++) {
        draw(i);
        counts[rank_of(i)]++;
    }
    for (int r = 1; r <= RANKS; r++)
        if (counts[r])
            printf("%d %lu\n", 1000 + r, counts[r]);
    return 0;
}
