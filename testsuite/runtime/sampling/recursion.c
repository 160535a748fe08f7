/* Recursion: sites before, between and after recursive calls, so that every
   call must export the countdown before and import it after.  */
#define SITES(X) X(pre) X(post) X(fib_mid) X(fib_leaf)
#include "harness.h"

/* A full binary tree walk: 2^(depth+1) - 1 calls.  */
static unsigned long walk(int depth, unsigned long key)
{
    unsigned long h;

    VISIT(pre);
    check(SITE_pre, depth >= 0);
    if (depth == 0) {
        h = key * 2654435761UL;
    } else {
        /* Two statements: the order of the calls, and so of the site
           visits, is fixed.  */
        h = walk(depth - 1, key * 2);
        h ^= walk(depth - 1, key * 2 + 1) << 1;
    }
    VISIT(post);
    check(SITE_post, depth >= 0);
    return h + (unsigned long)depth;
}

static long fib(int n)
{
    long a, b;

    if (n < 2) {
        VISIT(fib_leaf);
        check(SITE_fib_leaf, n >= 0);
        return n;
    }
    a = fib(n - 1);
    VISIT(fib_mid);
    check(SITE_fib_mid, a >= 0);
    b = fib(n - 2);
    return a + b;
}

int main(void)
{
    unsigned long h = 0;
    int i;

    for (i = 0; i < 3; i++)
        h ^= walk(13, (unsigned long)i + 1);
    printf("walk %lu fib %ld\n", h, fib(23));
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
