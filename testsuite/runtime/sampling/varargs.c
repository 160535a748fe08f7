/* Varargs: functions with sites that walk their variable arguments (with
   va_arg and through a va_list), and a variadic sampled function whose
   arguments must arrive intact when it runs.  */
#include <stdarg.h>
#define SITES(X) X(va_elem) X(va_done) X(vlist_elem) X(checkv)
#include "harness.h"

/* Runs when sampled; checks that c == a + b came through the ellipsis.  */
SAMPLED void checkv(int site, int n, ...);
void checkv(int site, int n, ...)
{
    va_list ap;
    int a, b;
    double c;

    va_start(ap, n);
    a = va_arg(ap, int);
    b = va_arg(ap, int);
    c = va_arg(ap, double);
    va_end(ap);
    h_sample(site, n == 3 && c == (double)(a + b));
}

static long vsum(int n, va_list ap)
{
    long s = 0;
    int i;

    for (i = 0; i < n; i++) {
        VISIT(vlist_elem);
        check(SITE_vlist_elem, i < n);
        s += va_arg(ap, int);
    }
    return s;
}

static long sum_both(int n, ...)
{
    va_list ap, copy;
    long s = 0;
    int i;

    va_start(ap, n);
    va_copy(copy, ap);
    for (i = 0; i < n; i++) {
        VISIT(va_elem);
        check(SITE_va_elem, i < n);
        s = s * 3 + va_arg(ap, int);
    }
    va_end(ap);
    s += vsum(n, copy);
    va_end(copy);
    VISIT(va_done);
    check(SITE_va_done, 1);
    return s;
}

int main(void)
{
    long total = 0;
    int i;

    for (i = 0; i < 25000; i++) {
        total += sum_both(4, i, i + 1, i * 2, -i);
        total -= sum_both(2, i % 17, 5);
        VISIT(checkv);
        checkv(SITE_checkv, 3, i, i % 11, (double)(i + i % 11));
    }
    printf("total %ld\n", total);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
