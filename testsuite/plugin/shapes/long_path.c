/* Forty sites in a row, then a diamond of 8 or 2: 48 on the heavy path.
   A region limit of 32 (long_path.args) puts a long-path check after the 32nd site, so
   that no check weighs more than 32: weights 32 and 16 (8 + 8).  The
   light arm gives its 6 missing sites back on its way (a refund), which
   the dump does not show.  */
void check (int) __attribute__ ((sampled));
#define FOUR(x) check (x); check (x + 1); check (x + 2); check (x + 3)
void long_path (int x)
{
  FOUR (x); FOUR (x); FOUR (x); FOUR (x); FOUR (x);
  FOUR (x); FOUR (x); FOUR (x); FOUR (x); FOUR (x);
  if (x > 0)
    {
      FOUR (x); FOUR (x);
    }
  else
    {
      check (x); check (x);
    }
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt" -fplugin-arg-sampler-region-limit=32  */
