/* A site in the inner loop: every cycle through the site uses the inner
   back edge, so that edge alone carries a check; the outer one needs none.  */
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
