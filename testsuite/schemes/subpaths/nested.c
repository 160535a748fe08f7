/* Nested loops with data-dependent branches: a linear congruential
   generator picks one of three arms on each inner iteration, and every
   tenth iteration takes one more block; run with the outer count
   argv[1] (default 3000).  */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3000;
    unsigned x = 12345;
    long s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 100; j++) {
            x = x * 1103515245u + 12345u;
            unsigned arm = (x >> 16) % 4;
            if (arm == 0)
                s += j;
            else if (arm == 1)
                s -= i;
            else
                s ^= j;
            if (j % 10 == 0)
                s++;
        }
    printf("%ld\n", s);
    return 0;
}
