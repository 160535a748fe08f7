/* Sampled functions that return values, called for their effect only (the
   result unused): int, double, and a struct returned through memory.  */
#define SITES(X) X(int_ret) X(void_cast) X(dbl_ret) X(big_ret) X(plain)
#include "harness.h"

struct big {
    long v[6];
};

SAMPLED int check2(int site, int v);
int check2(int site, int v)
{
    h_sample(site, v >= 0);
    return v * 2;
}

SAMPLED double check_d(int site, double v);
double check_d(int site, double v)
{
    h_sample(site, v >= 0.0);
    return v / 2.0;
}

SAMPLED struct big check_big(int site, long x);
struct big check_big(int site, long x)
{
    struct big b;
    int i;

    h_sample(site, x >= 0);
    for (i = 0; i < 6; i++)
        b.v[i] = x + i;
    return b;
}

int main(void)
{
    long sum = 0;
    int i;

    for (i = 0; i < 30000; i++) {
        VISIT(int_ret);
        check2(SITE_int_ret, i);
        VISIT(void_cast);
        (void)check2(SITE_void_cast, i % 100);
        VISIT(dbl_ret);
        check_d(SITE_dbl_ret, i * 0.5);
        VISIT(big_ret);
        check_big(SITE_big_ret, i);
        VISIT(plain);
        check(SITE_plain, 1);
        sum += i % 7;
    }
    printf("sum %ld\n", sum);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
