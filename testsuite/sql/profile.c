/* A program for the profiles' agreement test (run-sql-tests.sh): hot
   values (few distinct: every run's hot-list holds them all; many: lists
   overflow and combine by thinning), sizes, indirect calls, paths and
   subpaths, varied by its argument (the number of rounds) and seed.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int square(int x) { return x * x; }
static int twice(int x) { return 2 * x; }
static int (*const operations[2])(int) = { square, twice };

static long classify(int value, int round)
{
    long score = 0;
    if (value > 10)
        score += value;
    else if (value % 2 == 0)
        score -= round;
    else
        score += 3;
    return score;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1000;
    long total = 0;
    char buffer[64];
    for (int i = 0; i < rounds; i++) {
        int few = i % 7;
        int many = (i * 7919) % 1000;
        int value = operations[i % 3 == 0](few);
        total += classify(value, i);
        memset(buffer, few, (size_t) (few + 1) * 4);
        total += buffer[few] + many % 3;
    }
    printf("%ld\n", total);
    return 0;
}
