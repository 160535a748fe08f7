/* Sites in the arms of switches: a dense one (a jump table), with a
   fall-through and a shared arm, and a sparse one.  */
#define SITES(X) X(arm0) X(arm1) X(arm2) X(arm34) X(dflt) X(sparse_hit) X(sparse_miss)
#include "harness.h"

static unsigned next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

int main(void)
{
    unsigned state = 42, counts[6] = { 0 };
    unsigned long sum = 0;
    long i;

    for (i = 0; i < 150000; i++) {
        unsigned r = next(&state);
        switch (r % 6) {
        case 0:
            VISIT(arm0);
            check(SITE_arm0, r % 6 == 0);
            counts[0]++;
            break;
        case 1:
            VISIT(arm1);
            check(SITE_arm1, r % 6 == 1);
            counts[1]++;
            /* fall through */
        case 2:
            VISIT(arm2);
            check(SITE_arm2, r % 6 == 1 || r % 6 == 2);
            counts[2]++;
            break;
        case 3:
        case 4:
            VISIT(arm34);
            check(SITE_arm34, r % 6 == 3 || r % 6 == 4);
            counts[r % 6]++;
            break;
        default:
            VISIT(dflt);
            check(SITE_dflt, r % 6 == 5);
            counts[5]++;
        }
        switch (r & 0x7000) {
        case 0x1000:
        case 0x3000:
        case 0x6000:
            VISIT(sparse_hit);
            check(SITE_sparse_hit, 1);
            sum += r;
            break;
        case 0x7000:
            sum ^= r;
            break;
        default:
            VISIT(sparse_miss);
            check(SITE_sparse_miss, (r & 0x7000) != 0x7000);
            sum += 1;
        }
    }
    printf("counts %u %u %u %u %u %u sum %lu\n", counts[0], counts[1], counts[2],
           counts[3], counts[4], counts[5], sum);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
