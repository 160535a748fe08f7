/* Sizes of memory operations and allocations, counted by hand.  Only
   work() is instrumented (sizes.args).  With ROUNDS rounds (argv[1]), per
   round, for i = 0..5 and n = i % 3 + 1 (1, 2, 3, 1, 2, 3):
     memcpy (buffer, source, n):        1, 2, 3 x2 each
     memset (buffer, 0, 8 * n):         8, 16, 24 x2 each
     memcmp (buffer, source, 4):        a constant: no site
     malloc (16 << (i & 1)):            16 x3, 32 x3
     calloc (n, 4):                     4, 8, 12 x2 each (count times size)
     realloc (p, 64):                   a constant: no site
     strncmp (source, buffer, i + 1):   1..6 x1 each
     __builtin_memmove (buffer, buffer + 1, n): 1, 2, 3 x2 each  */
#include <stdlib.h>
#include <string.h>

static char buffer[64];
static const char source[64] = "abcdefghijklmnopqrstuvwxyz";
volatile long sink;

static void __attribute__((noinline)) work(void)
{
    for (int i = 0; i < 6; i++) {
        size_t n = (size_t)(i % 3) + 1;
        memcpy(buffer, source, n);
        memset(buffer, 0, 8 * n);
        sink += memcmp(buffer, source, 4);
        char *p = malloc((size_t)16 << (i & 1));
        char *q = calloc(n, 4);
        p = realloc(p, 64);
        sink += strncmp(source, buffer, (size_t)i + 1);
        __builtin_memmove(buffer, buffer + 1, n);
        sink += (p != NULL) + (q != NULL);
        free(p);
        free(q);
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    for (int r = 0; r < rounds; r++)
        work();
    return 0;
}
