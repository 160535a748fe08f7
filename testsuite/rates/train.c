/* Training rates (docs/rates.md): hot branches visited every iteration, a
   rare one every 1000th, one visited once a run.  */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    unsigned long hot = 0, rare = 0, once = 0;

    for (long i = 0; i < n; i++) {
        if (i % 3 == 0)
            hot++;
        if (i % 1000 == 999) {
            if (hot & 1)
                rare++;
        }
    }
    if (hot > 5)
        once++;
    printf("%lu %lu %lu\n", hot, rare, once);
    return 0;
}
