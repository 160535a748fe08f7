// unit-flags: -fno-exceptions
// The -fno-exceptions half of mixed.cc.
int
fold (const int *v, int n, int (*step) (int))
{
  int acc = 0;
  for (int i = 0; i < n; i++)
    {
      int s = step (v[i]);
      if (s > acc)
	acc += s % 11;
      else
	acc -= 1;
    }
  return acc;
}

int
scale (int x)
{
  return x % 5 == 0 ? x * 2 : x + 7;
}
