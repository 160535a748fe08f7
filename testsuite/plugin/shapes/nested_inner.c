/* A site in the inner loop: every cycle through the site uses the inner
   back edge, so that edge alone carries a check; the outer one needs none.
   The inner loop's exit, round the outer loop into the inner one again,
   reaches one site before the inner back edge: a loop-exit check of
   weight 1.  */
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
