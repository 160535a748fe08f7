/* Preferential numbering (run-ppp-tests.sh): three branches in a row,
   eight paths.  Trained on the two paths all-true and all-false (argument
   0), PPP numbers them 0 and 1 by their first branch alone, so every
   other path shares one of those numbers; run on four paths (argument 1:
   000, 100, 011, 111, three times each), the two others must still be
   counted as themselves, told apart by their Ball-Larus numbers.  */
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) void alias(int a, int b, int c)
{
    if (a)
        sink = 1;
    else
        sink = 2;
    if (b)
        sink = 3;
    else
        sink = 4;
    if (c)
        sink = 5;
    else
        sink = 6;
}

int main(int argc, char **argv)
{
    int mixed = argc > 1 && atoi(argv[1]);
    for (int i = 0; i < 12; i++) {
        int a = i & 1, b = mixed ? (i >> 1) & 1 : a;
        alias(a, b, b);
    }
    return 0;
}
