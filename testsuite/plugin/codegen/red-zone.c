/* The red zone (red-zone.sh): leaf keeps its volatile array in the red
   zone across its branch sites' calls; caller and main make calls, so they
   have no red zone.  */
#include <stdio.h>
__attribute__ ((noinline)) long leaf (const long *in, long n)
{
  volatile long keep[8];
  for (int i = 0; i < 8; i++)
    keep[i] = in[i] * 3 + 1;
  long s = 0;
  for (long i = 0; i < n; i++)
    if (in[i & 7] & 1)
      s += keep[i & 7];
    else
      s -= keep[(i + 1) & 7];
  return s;
}
__attribute__ ((noinline)) long caller (const long *in, long n)
{
  long s = 0;
  for (long i = 0; i < n; i++)
    if (in[i & 7] > 3)
      s += leaf (in, i & 15);
    else
      s--;
  return s;
}
int main (int argc, char **argv)
{
  (void) argv;
  long in[8];
  for (int i = 0; i < 8; i++)
    in[i] = (argc + i * 7) % 11;
  printf ("%ld %ld\n", leaf (in, 100000), caller (in, 10000));
  return 0;
}
