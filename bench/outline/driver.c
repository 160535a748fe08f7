/* Calls mainGtU on pairs of suffixes of a text with long repeats, as
   bzip2's sorting does; prints a checksum of the results.  */
#include <stdio.h>
#include <stdlib.h>
typedef unsigned char Bool;
Bool mainGtU(unsigned i1, unsigned i2, unsigned char *block, unsigned short *quadrant,
             unsigned nblock, int *budget);
enum { N = 20000, OVER = 64 };
#ifdef OUTLINED_COUNTDOWN
/* The model's stand-in countdown: argv[2] is its sparsity.  */
extern __thread long countdown;
extern long next_countdown;
#endif
int main(int argc, char **argv)
{
    static unsigned char block[N + OVER];
    static unsigned short quadrant[N + OVER];
    int rounds = argc > 1 ? atoi(argv[1]) : 200, budget = 0;
    unsigned long sum = 0, seed = 1;
#ifdef OUTLINED_COUNTDOWN
    if (argc > 2)
        countdown = next_countdown = atol(argv[2]);
#endif
    for (int i = 0; i < N + OVER; i++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        block[i] = "abab"[(seed >> 60) & 3] + (i % 97 == 0);
        quadrant[i] = 0;
    }
    for (int r = 0; r < rounds; r++)
        for (unsigned i = 0; i + 1 < N; i += 7)
            sum += mainGtU(i, (i * 31 + r) % N, block, quadrant, N, &budget);
    printf("%lu %d\n", sum, budget);
    return 0;
}
