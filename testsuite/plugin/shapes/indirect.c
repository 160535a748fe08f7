/* An indirect call may reach instrumented code: export, import and a check
   after it (weight 1 for the site that follows).  */
void check (int) __attribute__ ((sampled));
int indirect (int (*fp) (int), int x)
{
  check (x);
  int r = fp (x);
  check (r);
  return r;
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
