/* Estimates through non-uniform rates (docs/rates.md): step's values,
   paths and blocks are visited a known number of times a run.  */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long step(unsigned long i, unsigned long acc)
{
    unsigned long kind = i % 4;
    if (kind == 0)
        acc += 3;
    else
        acc ^= i;
    if (kind == 3)
        acc *= 5;
    return acc;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    unsigned long acc = 0;

    for (long i = 0; i < n; i++)
        acc = step((unsigned long)i, acc);
    printf("%lu\n", acc);
    return 0;
}
