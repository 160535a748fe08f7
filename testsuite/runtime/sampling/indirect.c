/* Indirect calls.  The caller has sites and calls through a table of
   function pointers (one target has sites, one has none, one calls through
   the table again); apply() has no site of its own but calls through a
   pointer, so it cannot be weightless.  Every indirect call must export the
   countdown before and import it after.  */
#define SITES(X) X(caller) X(caller2) X(op_loop) X(op_nested)
#include "harness.h"

typedef unsigned long (*op_fn)(unsigned long);

static op_fn table[3];

static unsigned long op_sites(unsigned long x)
{
    int k;

    for (k = 0; k < 3; k++) {
        VISIT(op_loop);
        check(SITE_op_loop, k < 3);
        x = x * 3 + 1;
    }
    return x;
}

static unsigned long op_plain(unsigned long x)
{
    return x ^ (x >> 3);
}

static unsigned long op_nested(unsigned long x)
{
    VISIT(op_nested);
    check(SITE_op_nested, 1);
    return table[x % 2](x + 7);
}

static unsigned long apply(op_fn f, unsigned long x, int times)
{
    int t;

    for (t = 0; t < times; t++)
        x = f(x);
    return x;
}

int main(void)
{
    unsigned long x = 5;
    int i;

    table[0] = op_sites;
    table[1] = op_plain;
    table[2] = op_nested;
    for (i = 0; i < 40000; i++) {
        VISIT(caller);
        check(SITE_caller, 1);
        x = table[i % 3](x);
        VISIT(caller2);
        check(SITE_caller2, 1);
        x = apply(table[(i + 1) % 3], x, 2);
    }
    printf("x %lu\n", x);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
