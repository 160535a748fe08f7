/* A loop with two sites and one site after it: from entry, the longest
   path is one iteration up to the back edge (2 sites); the back edge check
   likewise sees at most 2.  */
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
