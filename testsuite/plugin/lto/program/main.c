/* The LTO suite's program: three units whose small functions the link's
   inliner moves across units, a static function, a loop, an indirect
   call, floats, sizes and a check function.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "units.h"

static int
fold (int acc, int v)
{
  return v % 3 == 0 ? acc + v / 3 : acc - 1;
}

int
main (int argc, char **argv)
{
  int rounds = atoi (argc > 1 ? argv[1] : "300");
  int acc = 0;
  double mean = 0;
  char *buffer = malloc (64);
  for (int i = 0; i < rounds; i++)
    {
      int kind = classify (i);
      if (kind > 2)
	acc = fold (acc, i);
      else
	acc -= kind;
      mean = running_mean (mean, i % 11, i + 1);
      memset (buffer, i & 0x7f, (size_t) (i % 64));
      acc += apply (i & 1 ? twice : negate, kind);
      audit (acc);
    }
  printf ("%d %.3f %d\n", acc, mean, buffer[0]);
  free (buffer);
  return 0;
}
