/* even/odd recurse into each other without sites: both weightless.
   weighty_rec has a site and recurses: after-call checks (weight 0 there,
   so dropped).  At -O2 GCC inlines the recursion four levels deep: five
   copies of the site, in a row, for the entry check.  */
void check (int) __attribute__ ((sampled));
static int odd (unsigned);
static int even (unsigned n) { return n == 0 ? 1 : odd (n - 1); }
static int odd (unsigned n) { return n == 0 ? 0 : even (n - 1); }
int weighty_rec (int n)
{
  check (n);
  if (n <= 0)
    return even (5);
  return weighty_rec (n - 1) + even ((unsigned) n);
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
