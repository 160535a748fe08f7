/* One sampled check in a loop.  */
#define SITES(X) X(loop)
#include "harness.h"

int main(void)
{
    unsigned long sum = 0;
    long i;

    for (i = 0; i < 200000; i++) {
        VISIT(loop);
        check(SITE_loop, i >= 0);
        sum = sum * 31 + (unsigned long)i;
    }
    printf("sum %lu\n", sum);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
