/* setjmp/longjmp through functions with sites.  attempt() calls setjmp (a
   function GCC will not let anyone clone freely) and has sites; thrower()
   and deep() have sites and are left by longjmp, a third of the time, from
   deep().  The countdown the abandoned frames consumed must not be lost
   (export before longjmp) nor replayed (import after setjmp returns again),
   or thrower's and deep's samples fall off their binomial bounds.  */
#include <setjmp.h>
#define SITES(X) X(attempt_pre) X(attempt_ok) X(attempt_caught) X(thrower_loop) X(thrower_done) X(deep)
#include "harness.h"

static jmp_buf env;
static int thrown_code;

static void deep(int i)
{
    VISIT(deep);
    check(SITE_deep, i >= 0);
    if (i % 3 == 0) {
        thrown_code = i % 7 + 1;
        longjmp(env, 1);
    }
}

static unsigned long thrower(int i)
{
    unsigned long h = (unsigned long)i;
    int k;

    for (k = 0; k < 5; k++) {
        VISIT(thrower_loop);
        check(SITE_thrower_loop, k < 5);
        h = h * 31 + (unsigned long)k;
    }
    deep(i);
    VISIT(thrower_done);
    check(SITE_thrower_done, i % 3 != 0);
    return h;
}

static unsigned long attempt(int i)
{
    volatile unsigned long result = 0;

    VISIT(attempt_pre);
    check(SITE_attempt_pre, 1);
    if (setjmp(env) == 0) {
        result = thrower(i);
        VISIT(attempt_ok);
        check(SITE_attempt_ok, result != 0 || i == 0);
    } else {
        VISIT(attempt_caught);
        check(SITE_attempt_caught, thrown_code > 0);
        result = (unsigned long)thrown_code * 1000;
    }
    return result;
}

int main(void)
{
    unsigned long sum = 0;
    int i;

    for (i = 0; i < 60000; i++)
        sum = sum * 7 + attempt(i);
    printf("sum %lu\n", sum);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
