/* Mutual recursion through three kinds of function: f has sites; g has no
   site but calls f, so it is weighty (the weightless fixpoint of Liblit
   et al., PLDI 2003); w, w_even and w_odd have no site and call only each
   other: weightless, recursion and all.  Calls to g need a check after
   them, calls to the w's need nothing.  */
#define SITES(X) X(f_entry) X(f_loop) X(f_exit)
#include "harness.h"

static unsigned long g(unsigned long x, int depth);

static unsigned long w(unsigned long x, int k)
{
    return k ? w(x * 3 + 1, k - 1) ^ x : x;
}

static int w_odd(unsigned n);
static int w_even(unsigned n)
{
    return n == 0 ? 1 : w_odd(n - 1);
}
static int w_odd(unsigned n)
{
    return n == 0 ? 0 : w_even(n - 1);
}

static unsigned long f(unsigned long x, int depth)
{
    unsigned long y;
    int i;

    VISIT(f_entry);
    check(SITE_f_entry, depth >= 0);
    y = w(x, 8);
    for (i = 0; i < 4; i++) {
        VISIT(f_loop);
        check(SITE_f_loop, i < 4);
        y += w(y, 3) + (unsigned long)w_even((unsigned)(y % 16));
    }
    if (depth > 0)
        y ^= g(y, depth - 1);
    VISIT(f_exit);
    check(SITE_f_exit, 1);
    return y;
}

static unsigned long g(unsigned long x, int depth)
{
    unsigned long r = w(x, 2);
    r += f(r, depth);
    r ^= f(r + 1, depth);
    return r;
}

int main(void)
{
    unsigned long h = 0;
    int i;

    for (i = 0; i < 10; i++)
        h = h * 31 + f((unsigned long)i, 12);
    printf("h %lu\n", h);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
