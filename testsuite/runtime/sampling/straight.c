/* A long straight-line function with many sites and one diamond: the entry
   threshold check weighs them all (17 on either path).  The diamond's sites
   call check_ext, a sampled function the compiler may not look into.  */
#define SITES(X) X(s01) X(s02) X(s03) X(s04) X(s05) X(s06) X(s07) X(s08) \
    X(s09) X(s10) X(s11) X(s12) X(s13) X(s14) X(s15) X(s16) X(odd) X(even)
#include "harness.h"

SAMPLED void check_ext(int site, int ok);
__attribute__((noipa)) void check_ext(int site, int ok)
{
    h_sample(site, ok);
}

#define STEP(name, k)                                                  \
    VISIT(name);                                                       \
    check(SITE_##name, x != 0 || (k) > 0);                             \
    x = x * 6364136223846793005UL + (k) * 1442695040888963407UL

static unsigned long straight(unsigned long x)
{
    STEP(s01, 1);
    STEP(s02, 2);
    STEP(s03, 3);
    STEP(s04, 4);
    STEP(s05, 5);
    STEP(s06, 6);
    STEP(s07, 7);
    STEP(s08, 8);
    if (x >> 63) {
        VISIT(odd);
        check_ext(SITE_odd, x >> 63);
        x ^= x >> 33;
    } else {
        VISIT(even);
        check_ext(SITE_even, !(x >> 63));
        x += 99;
    }
    STEP(s09, 9);
    STEP(s10, 10);
    STEP(s11, 11);
    STEP(s12, 12);
    STEP(s13, 13);
    STEP(s14, 14);
    STEP(s15, 15);
    STEP(s16, 16);
    return x;
}

int main(void)
{
    unsigned long x = 1;
    int i;

    for (i = 0; i < 50000; i++)
        x = straight(x + (unsigned long)i);
    printf("x %lu\n", x);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
