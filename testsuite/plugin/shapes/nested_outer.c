/* Sites only in the outer loop: the inner loop's cycle holds no site and
   gets no check; the outer loop's head does.  The outer loop's exit leads
   to no site: its check weighs 0 and is dropped.  (At -O2 GCC copies the
   site into a peeled first iteration.)  */
void check (int) __attribute__ ((sampled));
int nested_outer (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    {
      check (i);
      for (int j = 0; j < i; j++)
	t += j;
    }
  return t;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
