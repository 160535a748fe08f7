/* The heavier arm decides: 2 + 1 = 3.  */
void check (int) __attribute__ ((sampled));
void diamond (int x)
{
  if (x > 0)
    {
      check (x);
      check (x + 1);
    }
  else
    check (-x);
  check (0);
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
