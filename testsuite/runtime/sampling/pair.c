/* The trap that Liblit et al. (PLDI 2003) warn of: two sampled checks in one loop.  A global counter modulo
   100 would sample one of them every 50th iteration and the other never; a
   fair sampler samples each visit of each site independently with
   probability 1/100.  The runner checks each site's count (binomial bounds),
   each site's gaps (geometric), and the iterations where both were sampled
   (binomial with probability 1/100^2): the sites are visited in lockstep.  */
#define SITES(X) X(first) X(second)
#define PAIRS(X) X(first, second)
#include "harness.h"

struct node {
    struct node *next;
    unsigned size;
};

#define N 1000

int main(void)
{
    static struct node nodes[N];
    static unsigned sizes[N];
    unsigned long total = 0;
    unsigned i, round;

    for (i = 0; i < N; i++) {
        nodes[i].next = &nodes[(i * 7 + 3) % N];
        nodes[i].size = i % 13;
        sizes[i] = i * 2654435761u;
    }
    /* 200000 iterations of the paper's fragment.  */
    for (round = 0; round < 200; round++) {
        struct node *p = &nodes[round];
        for (i = 0; i < N; i++) {
            VISIT(first);
            check(SITE_first, p != NULL);
            p = p->next;

            VISIT(second);
            check(SITE_second, i < N);
            total += sizes[i] ^ p->size;
        }
    }
    printf("total %lu\n", total);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
