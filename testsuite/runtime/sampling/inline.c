/* static inline functions with sites, called from loops (in a function with
   sites of its own), nested, and one always_inline, which GCC inlines even
   at -O0 and before most passes: each call site of an inline function is
   still one site visit per call.  */
#define SITES(X) X(mix) X(twice) X(forced) X(outer)
#include "harness.h"

static inline unsigned long mix(unsigned long x)
{
    VISIT(mix);
    check(SITE_mix, 1);
    return (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9UL;
}

static inline unsigned long twice(unsigned long x)
{
    x = mix(x);
    VISIT(twice);
    check(SITE_twice, 1);
    return mix(x + 1);
}

static inline __attribute__((always_inline)) unsigned long forced(unsigned long x)
{
    VISIT(forced);
    check(SITE_forced, x + 1 != x);
    return x + (x << 7);
}

int main(void)
{
    unsigned long x = 3;
    int i, j;

    for (i = 0; i < 25000; i++) {
        VISIT(outer);
        check(SITE_outer, 1);
        x = twice(x);
        for (j = 0; j < 2; j++)
            x = forced(x) ^ (unsigned long)j;
    }
    printf("x %lu\n", x);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
