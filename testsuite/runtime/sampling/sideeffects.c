/* Arguments of sampled calls are evaluated whether or not the call is
   sampled, exactly as in the plain build: only the call itself is skipped.
   Each loop here depends on that: the first one ends only because the
   argument increments i; the others print what the arguments computed.  The
   argument of `nested' calls a function with a site of its own.  */
#define SITES(X) X(incr) X(accum) X(call_arg) X(inner) X(nested) X(ret_arg)
#include "harness.h"

SAMPLED int check2(int site, int v);
int check2(int site, int v)
{
    h_sample(site, v >= 0);
    return v + 1;
}

static unsigned state = 1;

static unsigned next_rand(void)
{
    state = state * 1103515245u + 12345u;
    return state >> 8;
}

static int inner(long j)
{
    VISIT(inner);
    check(SITE_inner, j >= 0);
    return j >= 0;
}

int main(void)
{
    static int values[40000];
    const int *p = values;
    long i = 0, n = 40000, j;
    unsigned long acc = 0;

    while (i < n) {
        VISIT(incr);
        check(SITE_incr, i++ < n);
    }
    for (j = 0; j < 40000; j++) {
        VISIT(accum);
        check(SITE_accum, (acc += (unsigned long)j * 3) >= (unsigned long)j);
    }
    for (j = 0; j < 40000; j++) {
        VISIT(call_arg);
        check(SITE_call_arg, next_rand() < (1u << 24));
    }
    for (j = 0; j < 40000; j++) {
        VISIT(nested);
        check(SITE_nested, inner(j));
    }
    for (j = 0; j < 40000; j++)
        values[j] = (int)(j % 1000);
    while (p < values + 40000) {
        VISIT(ret_arg);
        check2(SITE_ret_arg, *p++);
    }
    printf("i %ld acc %lu state %u p %ld\n", i, acc, state, (long)(p - values));
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
