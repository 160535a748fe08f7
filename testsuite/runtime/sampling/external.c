/* Calls to external functions from a function with sites: printf and
   snprintf (which never call back), and qsort and bsearch with callbacks
   that have sites.  A library call that is passed a function pointer may
   call back into instrumented code, so it ends the caller's region and
   has a check after it (sorted, right after qsort, starts the next
   region): the callbacks' samples and the caller's must not bias each
   other.  A library function that calls back without being passed a
   pointer is the plugin test "callee with sites declared in a system
   header".  */
#include <stdlib.h>
#include <string.h>
#define SITES(X) X(before) X(cmp) X(key_cmp) X(sorted) X(scan) X(format) X(after)
#include "harness.h"

#define LEN 16

static int cmp_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    VISIT(cmp);
    check(SITE_cmp, a != b);
    return (x > y) - (x < y);
}

static int cmp_key(const void *key, const void *member)
{
    int x = *(const int *)key, y = *(const int *)member;

    VISIT(key_cmp);
    check(SITE_key_cmp, key != NULL);
    return (x > y) - (x < y);
}

static unsigned next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static unsigned long sort_round(unsigned *state, int round)
{
    int a[LEN];
    char text[64];
    unsigned long h = 0;
    int i, found = 0;

    VISIT(before);
    check(SITE_before, round >= 0);
    for (i = 0; i < LEN; i++)
        a[i] = (int)(next(state) % 1000);
    qsort(a, LEN, sizeof a[0], cmp_ints);
    VISIT(sorted);
    check(SITE_sorted, a[0] <= a[LEN - 1]);
    for (i = 0; i < LEN; i++) {
        VISIT(scan);
        check(SITE_scan, i == 0 || a[i - 1] <= a[i]);
        h = h * 131 + (unsigned long)a[i];
    }
    for (i = 0; i < 2; i++) {
        int key = (int)(next(state) % 1000);
        found += bsearch(&key, a, LEN, sizeof a[0], cmp_key) != NULL;
    }
    snprintf(text, sizeof text, "%d:%lu:%d", round, h, found);
    VISIT(format);
    check(SITE_format, strlen(text) > 0);
    h += strlen(text) + (unsigned long)found;
    if (round % 2500 == 0)
        printf("round %d %s\n", round, text);
    VISIT(after);
    check(SITE_after, 1);
    return h;
}

int main(void)
{
    unsigned state = 7;
    unsigned long total = 0;
    int round;

    for (round = 0; round < 20000; round++)
        total ^= sort_round(&state, round);
    printf("total %lu\n", total);
    return 0;
}

/* CHECKS: bash $SRCDIR/check-program.sh  */
