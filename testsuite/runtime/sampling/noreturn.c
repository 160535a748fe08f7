/* exit() from inside a loop of a function with sites, reached through a
   noreturn function of the program's own.  The exit status (3) and the
   output must be the plain build's, and the harness's atexit printer must
   still run (the runner fails a run that leaves no site counts).  */
#define SITES(X) X(work) X(finish_loop) X(finish_tail)
#include "harness.h"

static void finish(unsigned long h) __attribute__((noreturn));
static void finish(unsigned long h)
{
    unsigned long i;

    for (i = 0;; i++) {
        VISIT(finish_loop);
        check(SITE_finish_loop, 1);
        h = h * 6364136223846793005UL + i;
        if (i == 50000) {
            printf("finish %lu\n", h);
            exit(3);
        }
        if (i % 2 == 0) {
            VISIT(finish_tail);
            check(SITE_finish_tail, i % 2 == 0);
            h ^= h >> 31;
        }
    }
}

int main(void)
{
    unsigned long h = 17;
    long i;

    for (i = 0; i < 1000000; i++) {
        VISIT(work);
        check(SITE_work, i < 50000);
        h = (h ^ (unsigned long)i) * 1099511628211UL;
        if (i == 49999)
            finish(h);
    }
    printf("not reached %lu\n", h);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
