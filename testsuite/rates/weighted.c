/* Weighted sites (docs/rates.md): four check sites whose weights a rates
   file sets.  light and heavy are visited in lockstep, every iteration;
   rare every 16th; never has weight 0.  */
#define SITES(X) X(light) X(heavy) X(rare) X(never)
#define PAIRS(X) X(light, heavy)
#include "harness.h"

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 200000;
    unsigned long sum = 0;

    for (long i = 0; i < iterations; i++) {
        VISIT(light);
        check(SITE_light, i >= 0);
        sum = sum * 31 + (unsigned long)i;
        VISIT(heavy);
        check(SITE_heavy, i >= 0);
        if ((i & 15) == 3) {
            VISIT(rare);
            check(SITE_rare, i >= 0);
        }
        if (i == iterations / 2) {
            VISIT(never);
            check(SITE_never, i >= 0);
        }
    }
    printf("sum %lu\n", sum);
    return 0;
}
