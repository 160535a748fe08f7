/* Exact subpath counts derived by hand.  The loop runs N = argv[1]
   times (100000 by default); its blocks, by line: the test at line 23,
   the branch at 24, then line 25 and f's line 15 and then 16 or 17, or
   line 27; then the increment, at line 23.  So, for N = 100000, among
   the subpaths of 2 blocks:
     main:23 main:24    N        = 100000
     main:24 main:27    N / 2    =  50000 (even i)
     main:24 main:25    N / 2    =  50000 (odd i)
     f:15 f:16          odd multiples of 3 below N: 16667
     f:15 f:17          the other odd i:            33333  */
#include <stdio.h>
#include <stdlib.h>
int f(int x)
{
    if (x % 3 == 0)
        return x / 3;
    return x + 1;
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    long s = 0;
    for (int i = 0; i < n; i++) {
        if (i & 1)
            s += f(i);
        else
            s -= 2;
    }
    printf("%ld\n", s);
    return 0;
}
