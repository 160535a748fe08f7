/* Sites at every depth of a loop nest, a weightless inner loop among them,
   and a site after an inner loop.  */
#define SITES(X) X(outer) X(middle) X(inner) X(after)
#include "harness.h"

int main(void)
{
    unsigned long h = 1469598103934665603UL;
    int i, j, k, m;

    for (i = 0; i < 25000; i++) {
        VISIT(outer);
        check(SITE_outer, i < 25000);
        for (j = 0; j < i % 5 + 1; j++) {
            VISIT(middle);
            check(SITE_middle, j <= i % 5);
            /* A loop with no site.  */
            for (m = 0; m < 3; m++)
                h = (h ^ (unsigned long)(i + j + m)) * 1099511628211UL;
            for (k = 0; k < 2; k++) {
                VISIT(inner);
                check(SITE_inner, k < 2);
                h ^= h >> 17;
            }
        }
        VISIT(after);
        check(SITE_after, j == i % 5 + 1);
        h += (unsigned long)i;
    }
    printf("hash %lu\n", h);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
