/* A weighty (external) call in the loop: the check after it cuts the
   cycle, so the back edge needs none.  After the call: one site, then
   round the loop to the site before the call: weight 2.  */
void check (int) __attribute__ ((sampled));
extern int external (int);
int call_in_loop (int n)
{
  int t = 0;
  for (int i = 0; i < n; i++)
    {
      check (i);
      t += external (i);
      check (t);
    }
  return t;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
