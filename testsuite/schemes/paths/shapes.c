/* Paths whose counts are known by construction (run-paths-tests.sh).
   Every branch arm stores to a volatile, so that no optimiser merges two
   arms into one path (if-conversion cannot speculate volatile stores).
   With argument R (rounds), main calls each function as said below;
   shapes-O0.expected and shapes-O2.expected hold every path's count for
   R = 2 (twice the per-round counts below), with the line of its
   region's entry and the path spelled.  At -O0 a loop's test is at its
   head: each iteration is one traversal from the test, and the last test
   (false) is one more.  At -O2 GCC rotates loops (the test moves to the
   latch, a copy of it guards the entry): each iteration runs to the next
   iteration's check or out of the loop, and the entry's test is a path
   of the entry region.  Paths are those of the code GCC optimised: with
   the branches scheme on, a && b keeps a test per operand, but at -O2 a
   || of two operands without side effects may still become one test.  */
#include <stdlib.h>

volatile int sink;
/* Loop bounds the optimisers cannot see, so that no loop is unrolled.  */
volatile int seven = 7, five = 5;

/* Nested ifs in a loop: for i in 0..n-1, i odd and i % 3 != 0 (A), i odd
   and i % 3 == 0 (B), i even (C).  Each iteration is one traversal of the
   loop's region, ended by the next iteration's check (the last one by
   the loop exit): with n = 12, A: 1 5 7 11, B: 3 9, C: 0 2 4 6 8 10; the
   last iteration, 11, is A leaving the loop.  Per call: A-continue 3,
   B 2, C 6, A-leave 1, and the entry region's one path (n > 0) 1, and
   the region after the loop 1.  */
__attribute__((noinline)) void nested(int n)
{
    for (int i = 0; i < n; i++) {
        if (i & 1) {
            if (i % 3)
                sink = 1;
            else
                sink = 2;
        } else {
            sink = 3;
        }
    }
    sink = 4;
}

/* A switch: k % 5 picks case 0, 1 (falls through into 2), 2, 3 or the
   default; no loop, so one region, entry to return.  Called with k =
   0..9 per round: each arm twice.  */
__attribute__((noinline)) void cases(int k)
{
    switch (k % 5) {
    case 0:
        sink = 10;
        break;
    case 1:
        sink = 11;
        /* fall through */
    case 2:
        sink = 12;
        break;
    case 3:
        sink = 13;
        break;
    default:
        sink = 14;
    }
}

/* Early returns: x < 0, x == 0, x > 100, else.  Called with x = -1, 0,
   0, 5, 5, 5, 200 per round: 1, 2, 1, 3 traversals.  */
__attribute__((noinline)) int early(int x)
{
    if (x < 0) {
        sink = 20;
        return -1;
    }
    if (x == 0) {
        sink = 21;
        return 0;
    }
    if (x > 100) {
        sink = 22;
        return 2;
    }
    sink = 23;
    return 1;
}

/* break and continue: for i in 0..: i == 7 breaks, i % 2 continues, else
   a store.  Iterations 0..6 run the body: 1 3 5 continue (3), 0 2 4 6
   store (4), then 7 breaks (1): the loop's region has 3 paths taken;
   entry and after-loop regions one each.  */
__attribute__((noinline)) void breaks(void)
{
    int stop = seven;
    for (int i = 0;; i++) {
        if (i == stop)
            break;
        if (i % 2) {
            sink = 30;
            continue;
        }
        sink = 31;
    }
    sink = 32;
}

/* A loop made of goto: i from 0 to 4, i == 2 stores 41, the others 40;
   the cycle's check cuts it, and the last test leaves it.  */
__attribute__((noinline)) void gotos(void)
{
    int i = 0, n = five;
again:
    if (i == 2)
        sink = 41;
    else
        sink = 40;
    if (++i < n)
        goto again;
    sink = 42;
}

/* && and || chains: a && (b || c).  Per round with (a, b, c) over all
   eight combinations: a false 4 (c and b not tested), a && b 2, a && !b
   && c 1, a && !b && !c 1 (at -O2, b || c is one test: a && (b | c) 3,
   a && !(b | c) 1).  */
__attribute__((noinline)) void chains(int a, int b, int c)
{
    if (a && (b || c))
        sink = 50;
    else
        sink = 51;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2;
    static const int xs[] = { -1, 0, 0, 5, 5, 5, 200 };
    for (int r = 0; r < rounds; r++) {
        nested(12);
        for (int k = 0; k < 10; k++)
            cases(k);
        for (int i = 0; i < 7; i++)
            early(xs[i]);
        breaks();
        gotos();
        for (int m = 0; m < 8; m++)
            chains(m & 4, m & 2, m & 1);
    }
    return 0;
}
