/* A loop without sites needs no check of its own; the entry check covers
   the one site after it.  */
void check (int) __attribute__ ((sampled));
int sitefree_loop (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    t += i * i;
  check (t);
  return t;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
