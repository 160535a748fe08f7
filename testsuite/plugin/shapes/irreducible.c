/* A loop entered in the middle: the DFS back edge of the irreducible cycle
   carries the check.  */
void check (int) __attribute__ ((sampled));
int irreducible (int n)
{
  int i = 0, t = 0;
  if (n & 1)
    goto inside;
  while (i < n)
    {
      check (i);
      t += i;
    inside:
      check (t);
      i++;
    }
  return t;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
