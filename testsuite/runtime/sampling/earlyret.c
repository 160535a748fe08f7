/* Early exits from loops with sites: return from inside the loop, break and
   continue, in a function called many times.  */
#define SITES(X) X(scan) X(found) X(missing) X(skip) X(kept) X(stop)
#include "harness.h"

#define LEN 32

static int find(const int *a, int n, int key)
{
    int i;

    for (i = 0; i < n; i++) {
        VISIT(scan);
        check(SITE_scan, i < n);
        if (a[i] == key) {
            VISIT(found);
            check(SITE_found, a[i] == key);
            return i;
        }
    }
    VISIT(missing);
    check(SITE_missing, i == n);
    return -1;
}

static long filter(const int *a, int n, int limit)
{
    long s = 0;
    int i;

    for (i = 0; i < n; i++) {
        if (a[i] % 3 == 0) {
            VISIT(skip);
            check(SITE_skip, a[i] % 3 == 0);
            continue;
        }
        if (a[i] > limit) {
            VISIT(stop);
            check(SITE_stop, a[i] > limit);
            break;
        }
        VISIT(kept);
        check(SITE_kept, a[i] <= limit);
        s += a[i];
    }
    return s;
}

int main(void)
{
    int a[LEN];
    long total = 0;
    int i, k;

    for (i = 0; i < LEN; i++)
        a[i] = (i * 37 + 11) % 64;
    for (k = 0; k < 50000; k++) {
        total += find(a, LEN, k % 64);
        total += filter(a, LEN, 20 + k % 45);
    }
    printf("total %ld\n", total);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
