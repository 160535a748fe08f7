/* Values of assignments and call results, counted by hand.  Only work()
   is instrumented (exact.args).  With ROUNDS rounds (argv[1]), per round,
   for i = 0..5:
     classify (i) returns 10 when i % 3 == 0, else -1:   10 x2, -1 x4
     k = classify (i):                   the same, at k's site (the call
                                         site is k's: x = f () is one site)
     c = i % 3 as an enum:               RED, GREEN, BLUE x2 each
     p = NULL for odd i, else 0x1000:    0x0 x3, 0x1000 x3 (no ?: nor * !: a site per arm from GCC 15)
     u = i * 1000u:                      0, 1000, ..., 5000 x1 each
     sink += classify (i):               classify's own site: 10 x2, -1 x4
   and i itself: 0 (its start) and 1..6 (its increments) x1 each.  */
#include <stdint.h>
#include <stdlib.h>

enum colour { RED, GREEN, BLUE };

static int __attribute__((noinline)) classify(int i)
{
    return i % 3 == 0 ? 10 : -1;
}

volatile long sink;

static void __attribute__((noinline)) work(void)
{
    for (int i = 0; i < 6; i++) {
        int k = classify(i);
        enum colour c = (enum colour)(i % 3);
        const char *p = (const char *)(uintptr_t[]){ 0x1000, 0 }[i & 1];
        unsigned u = (unsigned)i * 1000u;
        sink += classify(i);
        sink += k + c + (p != NULL) + u;
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    for (int r = 0; r < rounds; r++)
        work();
    return 0;
}
