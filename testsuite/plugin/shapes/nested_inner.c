/* A site in the inner loop: every cycle through the site goes through the
   inner loop's head, so that alone carries a check; the outer one needs
   none, and neither does the inner loop's exit, which reaches no site
   before the inner head again.  */
void check (int) __attribute__ ((sampled));
int nested_inner (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      {
	check (j);
	t += j;
      }
  return t;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
