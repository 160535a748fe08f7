/* counts.c: a program whose every predicate count is known in advance.
   Built with all schemes and run at SAMPLER_SPARSITY=1, each counter of
   each site must equal the count listed in counts.expected; at sparsity
   100 the counters are binomial draws of those counts.  Each function's
   comment says why its counts are what they are.  ROUNDS (from argv, 1 by
   default) multiplies every count except main's.  */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int limit = 50;

/* sign(v): a switch with three arms; called with -3..+3 per round:
   3 negatives, 1 zero, 3 positives.  */
static int __attribute__ ((noinline))
sign (int v)
{
  switch (v)
    {
    case 0:
      return 0;
    case 1 ... 1000:
      return 1;
    default:
      return -1;
    }
}

/* count_below(n): the loop test "i < n" is true n times and false once;
   "i < limit" compares with the global.  With n = 100 (limit 50) per call:
   the assignment i = 0 once, i++ 100 times.  */
static int __attribute__ ((noinline))
count_below (int n)
{
  int hits = 0;
  for (int i = 0; i < n; i++)
    if (i < limit)
      hits++;
  return hits;
}

/* halve(x): one double assignment per call, whose class is known.  */
static double __attribute__ ((noinline))
halve (double x)
{
  double h = x / 2;
  return h;
}

/* main: atoi is an inline function of <stdlib.h> and isinf a macro of
   <math.h>; their code is the library's and has no sites (only the call
   of atoi, a returns site, and main's own assignments and tests).  */
int
main (int argc, char **argv)
{
  int rounds = atoi (argc > 1 ? argv[1] : "1");
  long total = 0;
  for (int r = 0; r < rounds; r++)
    {
      for (int v = -3; v <= 3; v++)
        total += sign (v);
      total += count_below (100);
      total += (long) halve (8.0);       /* +normal */
      total += (long) halve (-1.0);      /* -normal */
      total += (long) halve (0.0);       /* +0 */
      total += isinf (halve (INFINITY)); /* +inf */
    }
  printf ("%ld\n", total);
  return 0;
}

/* CHECKS: bash $TESTSUITE/schemes/check-counts.sh  */
