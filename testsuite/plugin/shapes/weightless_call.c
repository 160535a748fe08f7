/* Calls to weightless functions are invisible: a static helper without
   sites, a function from a system header, and a function the user asserts
   weightless.  No after-call checks; the loop's head carries the check (the
   loop's exit check weighs 0: no site after the loop).  */
#include <stdlib.h>
void check (int) __attribute__ ((sampled));
int asserted (int) __attribute__ ((sampled ("weightless")));
static int helper (int x) { return x * 3 + 1; }
int weightless_call (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    {
      check (i);
      t += helper (i) + abs (t) + asserted (i);
    }
  return t;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
