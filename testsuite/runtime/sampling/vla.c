/* Variable-length arrays and alloca in functions with sites: the stack is
   saved and restored around the VLA's scope; cloning the body must keep
   that right.  */
#include <alloca.h>
#define SITES(X) X(vla_fill) X(vla_sum) X(alloca_elem) X(scoped_elem) X(scoped_end)
#include "harness.h"

static long with_vla(int n)
{
    int a[n];
    long s = 0;
    int i;

    for (i = 0; i < n; i++) {
        VISIT(vla_fill);
        check(SITE_vla_fill, i < n);
        a[i] = i * i - n;
    }
    for (i = n - 1; i >= 0; i--) {
        VISIT(vla_sum);
        check(SITE_vla_sum, i >= 0);
        s = s * 3 + a[i];
    }
    return s;
}

static long with_alloca(int n)
{
    long *a = alloca((size_t)n * sizeof *a);
    long s = 0;
    int i;

    for (i = 0; i < n; i++) {
        VISIT(alloca_elem);
        check(SITE_alloca_elem, a != NULL);
        a[i] = (long)i << (i % 5);
        s ^= a[i] + (i > 0 ? a[i - 1] : 0);
    }
    return s;
}

/* A VLA whose scope is a loop body: allocated and released per iteration.  */
static long scoped(int rounds)
{
    long s = 0;
    int r, j;

    for (r = 0; r < rounds; r++) {
        int m = r % 9 + 1;
        short b[m];
        for (j = 0; j < m; j++) {
            VISIT(scoped_elem);
            check(SITE_scoped_elem, j < m);
            b[j] = (short)(r + j);
        }
        VISIT(scoped_end);
        check(SITE_scoped_end, m > 0);
        s += b[m - 1] - b[0];
    }
    return s;
}

int main(void)
{
    unsigned long total = 0;
    int i;

    for (i = 0; i < 2000; i++) {
        total = total * 5 + (unsigned long)with_vla(10 + i % 13);
        total ^= (unsigned long)with_alloca(5 + i % 19);
    }
    total += (unsigned long)scoped(25000);
    printf("total %lu\n", total);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
