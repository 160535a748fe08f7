/* pairs-limit counts variables and constants together: with a limit of 3
   the assignment to y pairs with x, then the first two constants
   (2 and 8); -3 is left out.  */
int
step (int x)
{
  int y = x * 2;
  if (y == 8)
    return -3;
  return y;
}

/* CHECKS: $SRCDIR/check-table.sh -fplugin-arg-sampler-schemes=scalar-pairs -fplugin-arg-sampler-pairs-constants -fplugin-arg-sampler-pairs-limit=3  */
