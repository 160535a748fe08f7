/* Small functions that LTO inlines into main.c.  */
#include "units.h"

int
classify (int x)
{
  if (x % 5 == 0)
    return 0;
  if (x % 7 == 1)
    return 3;
  return x & 3;
}

double
running_mean (double mean, int value, int n)
{
  double next = mean + (value - mean) / n;
  if (next > 5.5)
    return next - 0.5;
  return next;
}
