/* sampler-report plan (docs/adaptive.md): a run fails when risky's
   condition x > 90 holds and x is even; parity and scale have nothing to
   do with it.  Run with x = 1 .. 100 over and over.  */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int parity(int i)
{
    return i % 2 ? 1 : 0;
}

__attribute__((noinline)) static int scale(int x)
{
    if (x % 3 == 0)
        return 2;
    return 1;
}

__attribute__((noinline)) static int risky(int x)
{
    if (x > 90)
        return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int x = argc > 1 ? atoi(argv[1]) : 1, sum = 0;
    for (int i = 0; i < 100; i++)
        if (parity(i))
            sum++;
    sum += scale(x);
    if (risky(x) && x % 2 == 0)
        return 1;
    printf("%d\n", sum);
    return 0;
}
