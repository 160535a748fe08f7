/* outline-entry: functions whose entry region's slow copy is a tail call
   to their sampled clone.  Sites at entry, in a loop, after a weighty
   call; arguments of several kinds (a struct by value, a pointer, a
   double) that the clone must get as they were passed.  */
#include <stdio.h>

struct pair { long a, b; };

__attribute__ ((noinline)) long
weighty (long x)
{
  return x % 7 == 3 ? x / 2 : x + 1;
}

__attribute__ ((noinline)) long
walk (struct pair p, const int *v, int n, double scale)
{
  long s = p.a;
  if (p.b > 10)
    s += p.b;
  int first = v[0];
  if (first < 0)
    s -= first;
  for (int i = 0; i < n; i++)
    {
      int x = v[i];
      if (x & 1)
	s += x;
      else
	s -= x / 2;
    }
  s = weighty (s);
  if (s > 100)
    s = (long) (s * scale);
  return s;
}

__attribute__ ((noinline)) void
fill (int *v, int n, int seed)
{
  unsigned r = seed;
  for (int i = 0; i < n; i++)
    {
      r = r * 1103515245u + 12345u;
      v[i] = (int) (r >> 16) % 200 - 50;
    }
}

int
main (void)
{
  int v[64];
  long total = 0;
  for (int round = 0; round < 3000; round++)
    {
      fill (v, 64, round);
      struct pair p = { round, round % 23 };
      total += walk (p, v, 1 + round % 64, 0.75);
    }
  printf ("%ld\n", total);
  return 0;
}
