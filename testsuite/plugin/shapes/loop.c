/* A loop with two sites and one site after it: from entry, the longest
   path is one iteration up to the back edge (2 sites); the back edge check
   likewise sees at most 2.  The loop's exit gets a check of its own (the
   site after the loop: weight 1), so that iterations are not weighed with
   the code after the loop.  */
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
