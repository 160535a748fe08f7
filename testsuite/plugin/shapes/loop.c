/* A loop with two sites and one site after it: the check at the loop's
   head sees one iteration (2 sites).  The loop's exit gets a check of its
   own (the site after the loop: weight 1), so that iterations are not
   weighed with the code after the loop.  At -O0 the loop's head is its
   test, which the entry reaches with no site on the way (the entry check
   weighs 0); at -O2 the test before the rotated loop can skip it and reach
   the site after it (entry weight 1), and the head is the first call.  */
void check (int) __attribute__ ((sampled));
void loop (int n)
{
  for (int i = 0; i < n; i++)
    {
      check (i);
      check (-i);
    }
  check (n);
}

/* TEST: shape $NAME $opt
   FOR: opt in -O0 -O2 "-O3 -g"
   RUN: $SRCDIR/check-dump.sh "$opt"  */
