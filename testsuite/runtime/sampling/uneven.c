/* Paths of very different weights: a check takes the weight of its
   heaviest path from the countdown at once, and the lighter paths either
   give the difference back on the way (a refund: the heavy arm below has 9
   sites more than the light one) or count as that many visits to no site
   (padding: the medium arm has 2 more).  Either way each visit must still
   be sampled with probability 1/SPARSITY, independently of the others and
   of the path: per-site binomial bounds, geometric gaps, and the joint
   samples of the two sites every iteration visits (head and tail).  Also a
   loop followed by heavy code, whose exit gets a check of its own, and a
   function left early from the middle of a long straight run.  */
#define SITES(X) X(head) X(light) X(med1) X(med2) X(med3) X(heavy1) X(heavy2) \
    X(heavy3) X(heavy4) X(heavy5) X(heavy6) X(heavy7) X(heavy8) X(heavy9)  \
    X(heavy10) X(tail) X(inner) X(after1) X(after2) X(after3) X(after4)    \
    X(early1) X(early2) X(early3) X(late1) X(late2)
#define PAIRS(X) X(head, tail)
#include "harness.h"

#define SITE(name, x)                                                  \
    do {                                                               \
        VISIT(name);                                                   \
        check(SITE_##name, (x) == (x));                                \
    } while (0)

static unsigned long state = 12345;

static unsigned next_choice(void)
{
    state = state * 6364136223846793005UL + 1442695040888963407UL;
    return (unsigned)(state >> 33);
}

/* Left early on about half the calls, after two sites out of five.  */
static __attribute__((noinline)) unsigned early_exit(unsigned x)
{
    SITE(early1, x);
    SITE(early2, x);
    if (x & 1)
        return x * 3;
    SITE(early3, x);
    SITE(late1, x);
    SITE(late2, x);
    return x + 1;
}

int main(void)
{
    unsigned long sum = 0;

    for (int i = 0; i < 120000; i++) {
        unsigned r = next_choice();
        SITE(head, r);
        switch (r % 3) {
        case 0:
            SITE(light, r);
            sum += r;
            break;
        case 1:
            SITE(med1, r);
            SITE(med2, r);
            SITE(med3, r);
            sum ^= r;
            break;
        default:
            SITE(heavy1, r);
            SITE(heavy2, r);
            SITE(heavy3, r);
            SITE(heavy4, r);
            SITE(heavy5, r);
            SITE(heavy6, r);
            SITE(heavy7, r);
            SITE(heavy8, r);
            SITE(heavy9, r);
            SITE(heavy10, r);
            sum -= r;
            break;
        }
        SITE(tail, r);
        sum += early_exit(r);
        if (i % 4 == 0) {
            /* A short loop, then more sites than it has.  */
            for (unsigned j = 0; j < (r & 15) + 10; j++)
                SITE(inner, j);
            SITE(after1, r);
            SITE(after2, r);
            SITE(after3, r);
            SITE(after4, r);
        }
    }
    printf("sum %lu\n", sum);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh -fplugin-arg-sampler-region-limit=8  */
