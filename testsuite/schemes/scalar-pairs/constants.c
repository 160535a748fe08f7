/* constants.c: scalar-pairs against the function's own constants
   (-fplugin-arg-sampler-pairs-constants; constants.args limits the
   instrumentation to step).  step's constants, in order of first use, are
   2 (x * 2), 8 (y == 8) and -3 (return -3); its one assignment to a
   scalar variable, y = x * 2, is compared with the parameter x and then
   with each constant.  One round of main calls step (k) for k = 0..9, so
   y = 0, 2, ..., 18:
     y ? x    y == x for k = 0, y > x for k = 1..9:    < 0, == 1, > 9
     y ? 2    k = 0 below, k = 1 equal, k = 2..9 above: < 1, == 1, > 8
     y ? 8    k = 0..3 below, k = 4 equal, k = 5..9:    < 4, == 1, > 5
     y ? -3   always above:                             < 0, == 0, > 10
   constants.expected holds twice these (two rounds).  */
#include <stdio.h>
#include <stdlib.h>

static int __attribute__ ((noinline))
step (int x)
{
  int y = x * 2;
  if (y == 8)
    return -3;
  return y;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 1;
  long total = 0;
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < 10; k++)
      total += step (k);
  printf ("%ld\n", total);
  return 0;
}

/* CHECKS: bash $TESTSUITE/schemes/check-counts.sh -fplugin-arg-sampler-schemes=scalar-pairs -fplugin-arg-sampler-pairs-constants -fplugin-arg-sampler-include-function=step '-fplugin-arg-sampler-exclude-function=*'  */
