/* Two assignments to x, each compared with y and z (scalar-pairs): four
   sites, but one visit on the countdown per assignment, so the entry
   check weighs 2 (pairs_by_pair.c: the same code, one visit per site).  */
int pairs (int y, int z)
{
  int x = y + z;
  if (y > 0)
    x = y * z;
  return x;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt" -fplugin-arg-sampler-schemes=scalar-pairs  */
