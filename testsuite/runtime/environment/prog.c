/* A program with a site, run with each bad SAMPLER_* variable
   (bad-values.sh).  */
#include <stdio.h>
int main (int argc, char **argv)
{
  int n = 0;
  for (int i = 0; i < 1000; i++)
    if (i % 7 == argc)
      n++;
  printf ("%d\n", n);
  return 3;
}
