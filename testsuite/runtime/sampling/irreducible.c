/* Irreducible loops: cycles entered in the middle by a goto, so they have
   no single header.  Every cycle that holds a site needs a threshold check,
   natural loop or not.  */
#define SITES(X) X(top) X(mid) X(body_a) X(body_b)
#include "harness.h"

/* A cycle top -> mid -> top entered at top or at mid.  */
static unsigned long spin(unsigned long x, int n)
{
    unsigned long h = x;

    if (x & 1)
        goto mid;
top:
    VISIT(top);
    check(SITE_top, n > 0);
    h = h * 6364136223846793005UL + 1442695040888963407UL;
mid:
    VISIT(mid);
    check(SITE_mid, n > 0);
    h ^= h >> 29;
    if (--n > 0)
        goto top;
    return h;
}

/* A for loop whose body is entered half way.  */
static unsigned long half(unsigned long x, int start, int n)
{
    unsigned long h = x;
    int i = start;

    if (x % 3 == 0)
        goto inside;
    for (; i < n; i++) {
        VISIT(body_a);
        check(SITE_body_a, i < n);
        h += (unsigned long)i * 2654435761UL;
    inside:
        VISIT(body_b);
        check(SITE_body_b, i <= n);
        h = (h << 7) | (h >> 57);
    }
    return h;
}

int main(void)
{
    unsigned long acc = 0;
    int r;

    for (r = 0; r < 300; r++) {
        acc ^= spin((unsigned long)r, 100 + r % 50);
        acc += half(acc + (unsigned long)r, r % 7, 120);
    }
    printf("acc %lu\n", acc);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
