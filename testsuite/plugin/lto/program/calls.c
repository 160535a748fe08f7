/* Calls through pointers, and a check function.  */
#include <stdio.h>
#include "units.h"

static int audits;

int
twice (int x)
{
  return 2 * x;
}

int
negate (int x)
{
  return -x;
}

int
apply (int (*f) (int), int x)
{
  int y = f (x);
  if (y < x)
    return y;
  return x;
}

void
audit (int acc)
{
  if (acc < -100000)
    fprintf (stderr, "audit %d: %d\n", ++audits, acc);
}
